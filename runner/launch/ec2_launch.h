/* ec2_launch.h - `ebsbench ec2 ... --launch`: one command from nothing
 * to report.html, through the user's own AWS CLI (`aws` on PATH, its
 * credentials and config, --region and --profile on every call; a child
 * process, launch/child.h):
 *   1. preflight (ec2_launch_aws.c): the credentials answer (`aws sts
 *      get-caller-identity`), the image resolves (its SSM parameter, `aws
 *      ssm get-parameters`, or the AMI, `aws ec2 describe-images`), the
 *      bucket lists the prefix (empty) with the user's credentials, and
 *      the results' directory is new or empty;
 *   2. `ebsbench ec2`'s input (ec2.h: the binary uploaded under the prefix,
 *      the user-data with the POST policy), fed to `aws ec2 run-instances
 *      --cli-input-json file:///dev/stdin` (never printed, never on disk);
 *   3. a progress line on stderr (ec2_launch_watch.c): the instance's state
 *      from `aws ec2 describe-instances`, then how many files the run has
 *      uploaded, until its results.json records report.html (the run's
 *      last upload), or the instance has ended without it;
 *   4. the results fetched as `ebsbench fetch` fetches them, the path of
 *      report.html on stdout;
 *   5. `aws ec2 terminate-instances` of the instance it launched, by the id
 *      run-instances gave back, once describe-instances shows it tagged
 *      as this run's, unless keep (the instance powers itself off at the
 *      run's end either way: its shutdown behaviour terminates it).
 * SIGINT or SIGTERM: the instance terminated at once, what the run has
 * uploaded (each phase's log and results.json as the phase ends) fetched.
 * Nothing gentler reaches the run: the instance holds no credentials to
 * be told through, and Amazon Linux runs user-data under cloud-final's
 * KillMode=process, so an OS shutdown does not SIGTERM ebsbench before the
 * network goes.  Each failure is one line on stderr naming what to fix,
 * and its own exit status (EC2_LAUNCH_*).  Its parts, file by file, are in
 * launch/internal.h. */
#ifndef EBSBENCH_EC2_LAUNCH_H
#define EBSBENCH_EC2_LAUNCH_H

#include <signal.h>
#include <stdbool.h>

#include "launch/ec2.h"

/* The exit statuses (`ebsbench ec2 --help`, docs/launch.md). */
enum {
	EC2_LAUNCH_OK = 0,	   /* the run ended, its report fetched */
	EC2_LAUNCH_FAILED = 1,	   /* aws refused a call (run-instances ...) or the fetch failed */
	EC2_LAUNCH_USAGE = 2,	   /* bad input, credentials, a used prefix or DIR */
	EC2_LAUNCH_NO_AWS = 3,	   /* no aws on PATH, or its credentials do not answer */
	EC2_LAUNCH_NO_IMAGE = 4,   /* the image (SSM parameter or AMI) does not resolve */
	EC2_LAUNCH_S3_REFUSED = 5, /* S3 refused the listing of the prefix */
	EC2_LAUNCH_RUN_FAILED =
		6, /* the instance ended before the run's report: what it uploaded fetched */
	EC2_LAUNCH_STOPPED =
		7, /* SIGINT/SIGTERM: the instance terminated, what it uploaded fetched */
};

/* What --launch is given beyond the launch's request. */
struct ec2_launch_args {
	const struct ec2_request *q;
	const char *out; /* DIR for the results; NULL: the prefix's last component */
	bool keep;	 /* leave the instance (it still powers itself off at the run's end) */
};

/* The whole run; its exit status, each failure said on stderr in one line.
 * stdout: the path of report.html (else summary.md), nothing else. */
int ec2_launch_run(const struct ec2_launch_args *a, const volatile sig_atomic_t *stop);

#endif
