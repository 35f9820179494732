/* cmd_ec2.c - `ebsbench ec2`'s options; the launch input is launch/ec2.c's,
 * the --launch course launch/ec2_launch.c's.
 *
 * stdout is the input of `aws ec2 run-instances --cli-input-json` (or,
 * with --user-data, the filled script) and nothing else, written only when
 * everything was checked, signed and the binary uploaded.  Errors are one
 * line on stderr: exit 2 for usage, input and credentials, 1 when S3
 * refused the binary.  No URL, policy or key is printed on stderr.  With
 * --launch, stdout is the path of the fetched report. */
#include "cli/cli.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/internal.h"
#include "lib/lib.h"
#include "launch/launch.h"

static const char usage[] =
	"usage: ebsbench ec2 --volume TYPE:SIZE[:IOPS[:MIBPS]]... --s3 s3://BUCKET/PREFIX\n"
	"                    [--region R] [--instance-type m5.xlarge] [--image-id AMI]\n"
	"                    [--config PLAN.json] [--plan NAME] [--binary PATH] [--user-data]\n"
	"                    [--endpoint URL] [--ca-file PEM] [--profile NAME]\n"
	"                    [--launch [--keep] [--out DIR]]\n"
	"Writes one run on a stock Amazon Linux 2023 instance as the input of\n"
	"  aws ec2 run-instances --region R --cli-input-json \"$(ebsbench ec2 ...)\"\n"
	"the instance (it terminates itself when the run ends), one volume per\n"
	"--volume in its block-device mapping (/dev/sdf, /dev/sdg, ...; deleted with\n"
	"it; gp2, gp3, io1, io2, st1, sc1; sizes in GiB; each phase runs on them in\n"
	"the order given), and the user-data: image/ec2/user-data.sh with a presigned\n"
	"GET of this binary (uploaded to PREFIX/ first, beside the results), its\n"
	"sha256, and the run's config with one presigned POST policy for PREFIX/\n"
	"(signed as `ebsbench presign --post` signs, with the credentials presign\n"
	"finds), living as long as the plan needs.  Then `ebsbench fetch --wait\n"
	"s3://BUCKET/PREFIX` downloads the results when the run has ended.\n"
	"--config: a run config without devices or upload (phases, time_scale ...).\n"
	"--plan NAME: that plan in place of the config's phases, as `ebsbench run\n"
	"--plan` runs it (sweep, quick).\n"
	"--binary: upload that binary instead of this one.  --user-data: print only\n"
	"the filled script (for your own launch tooling; gzip it when it is over\n"
	"EC2's 16 KB).  --region: else AWS_REGION, else AWS_DEFAULT_REGION, else the\n"
	"profile's region in AWS_CONFIG_FILE (~/.aws/config).\n"
	"The output grants write access to the prefix until the policy expires: do\n"
	"not share it.\n"
	"--launch: one command to report.html through your own AWS CLI (`aws` on PATH,\n"
	"its credentials and config, with --region and --profile): checks that its\n"
	"credentials answer (aws sts get-caller-identity), the image resolves (its\n"
	"SSM parameter, or the AMI), and the bucket lists the prefix (empty) with\n"
	"yours; feeds this input to aws ec2 run-instances on its stdin (never\n"
	"printed); shows the instance's state (aws ec2 describe-instances) and the\n"
	"files the run has uploaded on stderr; when its results.json records\n"
	"report.html, terminates the instance it launched (by its id, once it shows\n"
	"this run's tags), fetches the prefix into DIR (--out, default: the prefix's\n"
	"last component, which must be new or empty) as `ebsbench fetch` does, and\n"
	"prints DIR/report.html on stdout.  --keep: leaves the instance (it powers\n"
	"itself off at the run's end anyway).  Ctrl-C or SIGTERM: terminates it at\n"
	"once and fetches what the run uploaded (each phase's log as the phase ends).\n"
	"Exit status with --launch: 0 the report fetched; 1 aws refused a call\n"
	"(run-instances, describe-instances, terminate-instances) or the fetch failed;\n"
	"2 bad usage or credentials, a prefix that holds objects, a DIR not empty; 3\n"
	"no aws, or its credentials do not answer; 4 the image does not resolve; 5 S3\n"
	"refused the listing of the prefix; 6 the instance ended before the run's\n"
	"report (what it uploaded fetched); 7 stopped by Ctrl-C or SIGTERM (the\n"
	"instance terminated, what it uploaded fetched).\n";

/* The request, and what --launch adds to it. */
struct ec2_args {
	struct ec2_request q;
	bool launch;
	struct ec2_launch_args run;
};

static int usage_error(const char *what, const char *arg)
{
	return cli_usage_error("ec2", what, arg);
}

static int take_volume(void *base, const char *spec)
{
	struct ec2_request *q = &((struct ec2_args *)base)->q;
	return cli_add_volume("ec2", spec, q->volumes, &q->volume_count);
}

#define EC2_VALUE(name, arg, field) CLI_VALUE(name, arg, struct ec2_args, field)
static const struct cli_option options[] = {
	CLI_NEED_TAKE("--volume", "TYPE:SIZE[:IOPS[:MIBPS]]", take_volume),
	CLI_NEED_VALUE("--s3", "s3://BUCKET/PREFIX", struct ec2_args, q.s3),
	EC2_VALUE("--region", "R", q.region),
	EC2_VALUE("--instance-type", "m5.xlarge", q.instance_type),
	EC2_VALUE("--image-id", "AMI", q.image_id),
	EC2_VALUE("--config", "PLAN.json", q.config),
	EC2_VALUE("--binary", "PATH", q.binary),
	EC2_VALUE("--endpoint", "URL", q.endpoint),
	EC2_VALUE("--ca-file", "PEM", q.ca_file),
	EC2_VALUE("--profile", "NAME", q.profile),
	EC2_VALUE("--plan", "NAME", q.plan),
	CLI_FLAG("--user-data", struct ec2_args, q.user_data_only),
	/* --launch's */
	CLI_FLAG("--launch", struct ec2_args, launch),
	CLI_FLAG("--keep", struct ec2_args, run.keep),
	EC2_VALUE("--out", "DIR", run.out),
};
static const struct cli_command command = {
	"ec2", usage, options, ARRAY_SIZE(options), NULL, NULL
};

/* 0, -1 after --help, or EXIT_USAGE (said on stderr). */
static int parse_args(int argc, char **argv, struct ec2_args *a, char *region, size_t cap)
{
	struct ec2_request *q = &a->q;
	int rc = cli_parse(&command, argc, argv, a);
	if (rc)
		return rc;
	if (cli_need_region("ec2", &q->region, q->profile, region, cap))
		return EXIT_USAGE;
	if ((a->run.keep || a->run.out) && !a->launch)
		return usage_error("--keep and --out go with --launch", NULL);
	if (a->launch && q->user_data_only)
		return usage_error("--launch launches the instance: not with --user-data", NULL);
	return 0;
}

static int print_launch(json_t *input, const struct ec2_request *q, const struct ec2_made *m)
{
	char until[21];
	const char *script = json_string_value(json_object_get(input, "UserData"));
	int bad = q->user_data_only
			  ? fputs(script, stdout) == EOF
			  : json_dumpf(input, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER) ||
				    fputc('\n', stdout) == EOF;
	if (bad || fflush(stdout)) {
		fprintf(stderr, "ebsbench ec2: writing to stdout failed\n");
		return 1;
	}
	if (m->unknown_instance)
		fprintf(stderr,
			"ebsbench ec2: %s is not in the EBS model's instance table: the plan "
			"assumes no instance limit\n",
			m->unknown_instance);
	if (sigv4_iso_time(m->expires, until))
		until[0] = '\0';
	char fetch[1600];
	const struct cli_fetch_hint hint = { m->bucket,	  m->prefix,  q->region, q->profile,
					     q->endpoint, q->ca_file, 0 };
	cli_fetch_hint(fetch, sizeof(fetch), &hint);
	fprintf(stderr,
		"ebsbench ec2: instance %s, plan %.0f s, user-data %zu bytes; its POST policy "
		"allows writes to s3://%s/%s until %s: keep the output secret.  Then: %s\n",
		m->run, m->planned_s, m->user_data_bytes, m->bucket, m->prefix, until, fetch);
	return 0;
}

int cmd_ec2(int argc, char **argv, const volatile sig_atomic_t *stop)
{
	struct ec2_args a = { .q = { .instance_type = LAUNCH_DEFAULT_INSTANCE_TYPE } };
	struct ec2_made made;
	char err[512], region[64];

	int rc = parse_args(argc, argv, &a, region, sizeof(region));
	if (rc)
		return rc < 0 ? 0 : rc;
	if (a.launch) {
		a.run.q = &a.q;
		return ec2_launch_run(&a.run, stop);
	}
	/* Without --launch: an upload of a few megabytes and some signing. */
	json_t *input = ec2_launch(&a.q, &made, stderr, err, sizeof(err));
	if (!input) {
		fprintf(stderr, "ebsbench ec2: %s\n", err);
		return made.upload_failed ? 1 : EXIT_USAGE;
	}
	rc = print_launch(input, &a.q, &made);
	json_decref(input);
	return rc;
}
