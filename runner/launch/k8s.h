/* k8s.h - `ebsbench k8s`: one run as the Kubernetes objects that launch it,
 * in one List for `kubectl apply -f -` (and `kubectl delete -f` of the same
 * List removes them): the Namespace, a StorageClass and a Block-mode PVC
 * per volume, the Secret holding the run's config with one presigned POST
 * policy for its S3 prefix, and the Job pinned by the image's digest, with a
 * deadline from the plan.  image/k8s/job-pvc.yaml is the hand-written
 * original; every value here is written once, by the binary.
 *
 * Names: every object is labelled app.kubernetes.io/instance=RUN, RUN
 * being "ebsbench-", the signing time and five random letters and digits
 * (ebsbench-20260902-000000-k3x9q), and app.kubernetes.io/managed-by=
 * ebsbench.  The StorageClasses are cluster-scoped, so they carry RUN in
 * their names, as the namespaced objects do: two runs never share an
 * object.
 *
 * Nothing outside the run: the Namespace object is written only for the
 * run's own namespace (named as the run).  --namespace names one of the
 * user's, which must exist and admit the pod; then no Namespace object is
 * written, so neither `kubectl apply` relabels it nor `kubectl delete -f`
 * deletes it.  Kubernetes' own namespaces are refused. */
#ifndef EBSBENCH_K8S_H
#define EBSBENCH_K8S_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "model/model.h"
#include "run/run.h"

/* The most --toleration and --node-selector options. */
#define K8S_EXTRA_MAX 16

/* What the manifest is made from: `ebsbench k8s`'s options. */
struct k8s_request {
	const char *image;	   /* REGISTRY/REPO[:TAG]@sha256:HEX */
	const char *s3;		   /* s3://BUCKET/PREFIX */
	const char *region;	   /* the bucket's */
	const char *instance_type; /* the node's: nodeSelector and the plan's instance */
	const char *namespace;	   /* NULL: the run's own, named as the run; else the user's */
	const char *endpoint;	   /* NULL: AWS's; else as `ebsbench presign --endpoint` */
	const char *profile;	   /* NULL: AWS_PROFILE, else "default" */
	const char *config;	   /* a run config without devices and upload, or NULL */
	const char *plan;	   /* a plan's name in place of the config's phases, or NULL */
	/* The volumes encrypted (the StorageClasses' "encrypted"), with
	 * kms_key_id's key if given (it implies encrypted): the account's
	 * default EBS key otherwise. */
	bool encrypted;
	const char *kms_key_id;
	/* --toleration KEY[=VALUE][:EFFECT] and --node-selector KEY=VALUE, as
	 * given (k8s_toleration, k8s_node_selector). */
	const char *tolerations[K8S_EXTRA_MAX];
	size_t toleration_count;
	const char *node_selectors[K8S_EXTRA_MAX];
	size_t node_selector_count;
	/* 0: one run on PVCs.  N: a fleet, an Indexed Job of N pods, each on
	 * its own node with fresh ephemeral volumes, pod I reading
	 * config-I.json, which uploads under PREFIX/I/ (image/k8s/
	 * job-indexed.yaml). */
	unsigned fleet;
	struct ebs_volume volumes[CONFIG_MAX_DEVICES];
	size_t volume_count;
};

/* What was made, for the one line the command says on stderr (no secret
 * in it). */
struct k8s_made {
	char run[64]; /* the Job's and the Secret's name */
	char namespace[64];
	bool own_namespace; /* the List holds its Namespace: made for the run */
	char bucket[64];    /* where the POST policy allows writes */
	char prefix[1024];
	double planned_s;	      /* the plan's estimate, as `run --dry-run` gives it */
	long deadline_s;	      /* the Job's activeDeadlineSeconds */
	time_t expires;		      /* the POST policy's end */
	const char *unknown_instance; /* not in the EBS model's table, or NULL */
};

/* What `ebsbench k8s` says of made.unknown_instance (printf, its name). */
#define K8S_UNKNOWN_INSTANCE_LINE                                                                  \
	"ebsbench k8s: %s is not in the EBS model's instance table: the plan assumes no "          \
	"instance limit\n"

/* The most pods in a fleet: each is a node and its volumes. */
#define K8S_FLEET_MAX 100

/* The List of objects for q, signed with presign's request (credentials
 * from where `ebsbench presign` takes them), what was made in *made.  NULL
 * with a one-line reason in err (nothing secret in it). */
json_t *k8s_manifest(const struct k8s_request *q, struct k8s_made *made, char *err, size_t errlen);

#endif
