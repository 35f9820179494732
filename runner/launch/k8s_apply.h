/* k8s_apply.h - `ebsbench k8s ... --apply`: one command from nothing to
 * report.html, through the user's own kubectl (launch/kubectl.h):
 *   1. preflight (k8s_apply_preflight.c): the cluster answers, the EBS CSI
 *      driver is installed, a node of the instance type exists or a
 *      Karpenter NodePool could make one (else a warning only), the bucket
 *      answers to the user's credentials and the prefix is unused;
 *   2. the List `ebsbench k8s` prints, fed to `kubectl apply -f -` (never
 *      printed: it holds the upload policy);
 *   3. a progress line on stderr (k8s_apply_watch.c): the Job's state from
 *      `kubectl get job`, the phase, its percent and ETA from the pod's log
 *      (`kubectl logs -f`);
 *   4. at the Job's end the results fetched as `ebsbench fetch` fetches
 *      them, the path of report.html on stdout;
 *   5. everything the List made deleted (`kubectl delete -f -` of the same
 *      List), unless keep.
 * SIGINT or SIGTERM: the pod deleted with its grace period (its ebsbench
 * stops the phase and uploads what it measured), the upload waited for,
 * fetched, then the cleanup.  Each failure is one line on stderr naming
 * what to fix, and its own exit status (K8S_APPLY_*).  Its parts, file by
 * file, are in launch/internal.h. */
#ifndef EBSBENCH_K8S_APPLY_H
#define EBSBENCH_K8S_APPLY_H

#include <signal.h>
#include <stdbool.h>

#include "launch/k8s.h"
#include "launch/kubectl.h"

/* The exit statuses (`ebsbench k8s --help`, docs/launch.md). */
enum {
	K8S_APPLY_OK = 0,	  /* the run ended, its report fetched */
	K8S_APPLY_FAILED = 1,	  /* kubectl refused a call, or the fetch failed */
	K8S_APPLY_USAGE = 2,	  /* bad input, credentials, a used prefix or DIR */
	K8S_APPLY_NO_CLUSTER = 3, /* no kubectl, or the cluster does not answer */
	K8S_APPLY_NO_CSI = 4,	  /* no CSIDriver ebs.csi.aws.com */
	K8S_APPLY_S3_REFUSED = 5, /* S3 refused the listing of the prefix */
	K8S_APPLY_JOB_FAILED = 6, /* the Job failed: what it uploaded fetched */
	K8S_APPLY_STOPPED = 7,	  /* SIGINT/SIGTERM: the run stopped, what it uploaded fetched */
};

/* What --apply is given beyond the manifest's request. */
struct k8s_apply {
	const struct k8s_request *q;
	struct kubectl kube;
	const char *out;     /* DIR for the results; NULL: the prefix's last component */
	const char *ca_file; /* the S3 endpoint's CA bundle (NULL: the system's) */
	bool keep;	     /* leave the objects, and DIR/run.json (0600) to delete them by */
};

/* The whole run; its exit status, each failure said on stderr in one line.
 * stdout: the path of report.html (else summary.md), nothing else. */
int k8s_apply(const struct k8s_apply *a, const volatile sig_atomic_t *stop);

#endif
