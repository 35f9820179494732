/* cmd_k8s.c - `ebsbench k8s`'s options; the manifest is launch/k8s.c's, the
 * --apply course launch/k8s_apply.c's.
 *
 * Without --apply, stdout is the manifest and nothing else, so it can be
 * piped into `kubectl apply -f -`; it is written only when everything was
 * checked and signed.  Errors are one line on stderr, exit 2.  The POST
 * policy is in the manifest only: stderr names the bucket, prefix and
 * expiry.  With --apply, stdout is the path of the fetched report. */
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
	"usage: ebsbench k8s --image REF@sha256:DIGEST --volume TYPE:SIZE[:IOPS[:MIBPS]]...\n"
	"                    --s3 s3://BUCKET/PREFIX [--region R] [--instance-type m5.xlarge]\n"
	"                    [--namespace NAME] [--endpoint URL] [--profile NAME] [--fleet N]\n"
	"                    [--config FILE] [--plan NAME] [--encrypted] [--kms-key-id ARN]\n"
	"                    [--toleration KEY[=VALUE][:EFFECT]]... [--node-selector "
	"KEY=VALUE]...\n"
	"                    [--apply [--keep] [--out DIR] [--context NAME] [--kubeconfig FILE]\n"
	"                     [--ca-file PEM]]\n"
	"Writes one run on Kubernetes as a List of objects for `kubectl apply -f -`:\n"
	"the namespace, a StorageClass (EBS CSI driver) and a Block-mode PVC per\n"
	"--volume (gp2, gp3, io1, io2, st1, sc1; sizes in GiB, in the order given:\n"
	"each phase runs on them in that order), a Secret with the run's config and\n"
	"one presigned POST policy for the prefix (signed as `ebsbench presign --post`\n"
	"signs, with the credentials presign finds, --profile as presign's), and\n"
	"the Job, pinned by the image's digest, its deadline from the run's plan.\n"
	"--config FILE: a run config without devices, upload and output_dir (a plan,\n"
	"phases, a time scale, prices: docs/run.md); the deadline and the policy follow\n"
	"its plan.  --plan NAME runs that plan in place of the config's phases, as\n"
	"`ebsbench run --plan` does (sweep, quick).\n"
	"--encrypted: encrypted volumes (the account's default EBS key); --kms-key-id\n"
	"ARN: with that KMS key.  --toleration KEY[=VALUE][:EFFECT] lets the pod onto\n"
	"nodes with that taint (kubectl taint's syntax; no value: any value, no effect:\n"
	"every effect); --node-selector KEY=VALUE narrows its nodes beside the\n"
	"instance type.\n"
	"--fleet N: N runs at once, an Indexed Job of N pods, each on its own node\n"
	"with fresh ephemeral volumes (no PVCs), uploading under PREFIX/I/.\n"
	"`kubectl delete -f` of the same output removes them all, the namespace too\n"
	"when it is the run's own (the default: a fresh one named as the run);\n"
	"--namespace NAME puts the run in one of yours, which it neither writes nor\n"
	"deletes (it must admit privileged pods; Kubernetes' own are refused).\n"
	"The output grants write access to the prefix until the policy expires: do\n"
	"not share it.  --region: the bucket's; else AWS_REGION, else AWS_DEFAULT_REGION,\n"
	"else the profile's region in AWS_CONFIG_FILE (~/.aws/config).\n"
	"--apply: one command to report.html through your own kubectl (on PATH; its\n"
	"kubeconfig and context, or --kubeconfig FILE and --context NAME): checks that\n"
	"the cluster answers, the ebs.csi.aws.com CSIDriver exists, a node of the\n"
	"instance type exists or a Karpenter NodePool admits one (else a warning), and\n"
	"the bucket lists the prefix (empty) with your credentials; applies the List\n"
	"(on kubectl's stdin, never printed); shows the Job's state and the pod's\n"
	"phase, percent and ETA on stderr; at the Job's end fetches the prefix into\n"
	"DIR (--out, default: the prefix's last component, which must be new or\n"
	"empty) as `ebsbench fetch` does, prints DIR/report.html on stdout, and\n"
	"deletes every object it made (kubectl delete -f - of the same List).\n"
	"--keep: leaves them, and writes the List to DIR/run.json (mode 0600: it holds\n"
	"the upload policy) for `kubectl delete -f DIR/run.json`.  Ctrl-C or SIGTERM:\n"
	"deletes the pod with its grace period (it stops its phase and uploads what it\n"
	"measured), waits for that upload, fetches it and cleans up.  --ca-file: the\n"
	"S3 endpoint's CA bundle for the checks and the fetch.  Not with --fleet.\n"
	"Exit status with --apply: 0 the report fetched; 1 kubectl refused a call or\n"
	"the fetch failed; 2 bad usage or credentials, a prefix that holds objects,\n"
	"a DIR not empty; 3 no kubectl, or the cluster does not answer; 4 no EBS CSI\n"
	"driver; 5 S3 refused the listing of the prefix; 6 the Job failed (what it\n"
	"uploaded fetched); 7 stopped by Ctrl-C or SIGTERM (what it uploaded fetched).\n";

/* The manifest's request, and what --apply adds to it. */
struct k8s_args {
	struct k8s_request q;
	bool apply;
	struct k8s_apply run;
};

static int usage_error(const char *what, const char *arg)
{
	return cli_usage_error("k8s", what, arg);
}

/* --fleet N: 1 to K8S_FLEET_MAX pods. */
static int take_fleet(void *base, const char *text)
{
	return cli_count("k8s", "--fleet", text, "pods", K8S_FLEET_MAX,
			 &((struct k8s_args *)base)->q.fleet);
}

static int take_volume(void *base, const char *spec)
{
	struct k8s_request *q = &((struct k8s_args *)base)->q;
	return cli_add_volume("k8s", spec, q->volumes, &q->volume_count);
}

/* One more --toleration or --node-selector (checked with the manifest). */
static int add_extra(const char *spec, const char *name, const char **list, size_t *count)
{
	if (*count == K8S_EXTRA_MAX) {
		fprintf(stderr, "ebsbench k8s: more than %d %s\n", K8S_EXTRA_MAX, name);
		return EXIT_USAGE;
	}
	list[(*count)++] = spec;
	return 0;
}

static int take_toleration(void *base, const char *spec)
{
	struct k8s_request *q = &((struct k8s_args *)base)->q;
	return add_extra(spec, "--toleration", q->tolerations, &q->toleration_count);
}

static int take_node_selector(void *base, const char *spec)
{
	struct k8s_request *q = &((struct k8s_args *)base)->q;
	return add_extra(spec, "--node-selector", q->node_selectors, &q->node_selector_count);
}

#define K8S_VALUE(name, arg, field) CLI_VALUE(name, arg, struct k8s_args, field)
static const struct cli_option options[] = {
	CLI_NEED_VALUE("--image", "REF@sha256:DIGEST", struct k8s_args, q.image),
	CLI_NEED_TAKE("--volume", "TYPE:SIZE[:IOPS[:MIBPS]]", take_volume),
	CLI_NEED_VALUE("--s3", "s3://BUCKET/PREFIX", struct k8s_args, q.s3),
	K8S_VALUE("--region", "R", q.region),
	K8S_VALUE("--instance-type", "m5.xlarge", q.instance_type),
	K8S_VALUE("--namespace", "NAME", q.namespace),
	K8S_VALUE("--endpoint", "URL", q.endpoint),
	K8S_VALUE("--profile", "NAME", q.profile),
	K8S_VALUE("--config", "FILE", q.config),
	K8S_VALUE("--plan", "NAME", q.plan),
	K8S_VALUE("--kms-key-id", "ARN", q.kms_key_id),
	CLI_FLAG("--encrypted", struct k8s_args, q.encrypted),
	CLI_TAKE("--fleet", "N", take_fleet),
	CLI_TAKE("--toleration", "KEY[=VALUE][:EFFECT]", take_toleration),
	CLI_TAKE("--node-selector", "KEY=VALUE", take_node_selector),
	/* --apply's */
	CLI_FLAG("--apply", struct k8s_args, apply),
	CLI_FLAG("--keep", struct k8s_args, run.keep),
	K8S_VALUE("--out", "DIR", run.out),
	K8S_VALUE("--context", "NAME", run.kube.context),
	K8S_VALUE("--kubeconfig", "FILE", run.kube.kubeconfig),
	K8S_VALUE("--ca-file", "PEM", run.ca_file),
};
static const struct cli_command command = {
	"k8s", usage, options, ARRAY_SIZE(options), NULL, NULL
};

/* 0, -1 after --help, or EXIT_USAGE (said on stderr). */
static int parse_args(int argc, char **argv, struct k8s_args *a, char *region, size_t cap)
{
	struct k8s_request *q = &a->q;
	int rc = cli_parse(&command, argc, argv, a);
	if (rc)
		return rc;
	if (cli_need_region("k8s", &q->region, q->profile, region, cap))
		return EXIT_USAGE;
	bool apply_only = a->run.keep || a->run.out || a->run.kube.context ||
			  a->run.kube.kubeconfig || a->run.ca_file;
	if (apply_only && !a->apply)
		return usage_error("--keep, --out, --context, --kubeconfig and --ca-file go with "
				   "--apply",
				   NULL);
	return 0;
}

static int print_manifest(json_t *list, const struct k8s_request *q, const struct k8s_made *m)
{
	char until[21];
	if (json_dumpf(list, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER) ||
	    fputc('\n', stdout) == EOF || fflush(stdout)) {
		fprintf(stderr, "ebsbench k8s: writing to stdout failed\n");
		return 1;
	}
	if (m->unknown_instance)
		fprintf(stderr, K8S_UNKNOWN_INSTANCE_LINE, m->unknown_instance);
	if (sigv4_iso_time(m->expires, until))
		until[0] = '\0';
	char pods[48] = "";
	if (q->fleet)
		snprintf(pods, sizeof(pods), " (%u pods, pod I under PREFIX/I/)", q->fleet);
	fprintf(stderr,
		"ebsbench k8s: Job %s/%s%s, plan %.0f s, activeDeadlineSeconds %ld; its Secret "
		"allows writes to s3://%s/%s until %s: keep the output secret\n",
		m->namespace, m->run, pods, m->planned_s, m->deadline_s, m->bucket, m->prefix,
		until);
	if (!m->own_namespace)
		fprintf(stderr,
			"ebsbench k8s: no Namespace object: %s must exist, and its Pod Security "
			"must admit the pod at level privileged (it adds CAP_SYS_ADMIN); kubectl "
			"delete -f leaves the namespace alone\n",
			m->namespace);
	char fetch[1600];
	const struct cli_fetch_hint hint = { m->bucket,	  m->prefix, q->region, q->profile,
					     q->endpoint, NULL,	     q->fleet };
	cli_fetch_hint(fetch, sizeof(fetch), &hint);
	fprintf(stderr,
		"ebsbench k8s: then kubectl logs -f -n %s job/%s; the results: %s; remove "
		"it all: kubectl delete -f with this output\n",
		m->namespace, m->run, fetch);
	return 0;
}

int cmd_k8s(int argc, char **argv, const volatile sig_atomic_t *stop)
{
	struct k8s_args a = { .q = { .instance_type = LAUNCH_DEFAULT_INSTANCE_TYPE } };
	struct k8s_made made;
	char err[512], region[64];

	int rc = parse_args(argc, argv, &a, region, sizeof(region));
	if (rc)
		return rc < 0 ? 0 : rc;
	if (a.apply) {
		a.run.q = &a.q;
		return k8s_apply(&a.run, stop);
	}
	json_t *list = k8s_manifest(&a.q, &made, err, sizeof(err));
	if (!list) {
		fprintf(stderr, "ebsbench k8s: %s\n", err);
		return EXIT_USAGE;
	}
	rc = print_manifest(list, &a.q, &made);
	json_decref(list);
	return rc;
}
