/* internal.h - what launch/'s files share among themselves and nothing
 * outside launch/ calls: the launchers' common config, POST policy and
 * deadlines, the parts of the k8s and ec2 launches, and presign's names. */
#ifndef EBSBENCH_LAUNCH_INTERNAL_H
#define EBSBENCH_LAUNCH_INTERNAL_H

#include <jansson.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "launch/child.h"
#include "launch/launch.h"
#include "model/model.h"
#include "run/run.h"
#include "upload/upload.h"

/* ec2.c: the volumes' device names. */
/* The device a volume gets in the block-device mapping and in the config:
 * /dev/sdf, /dev/sdg, ... (AL2023's udev rules link these names to the NVMe
 * namespaces). */
void ec2_device_name(char *buf, size_t len, size_t i);

/* ec2_launch_aws.c: the aws calls of --launch, and what they read. */
/* `aws --region R [--profile P] --output json ARGS`
 * (args NULL-terminated, AWS_PAGER empty) with in[in_len] on its
 * stdin, bounded in time.  0 with *res filled, or -1 (aws not on PATH)
 * said in err. */
int ec2_aws(const struct ec2_request *q, const char *const *args, const char *in, size_t in_len,
	    struct child_result *res, char *err, size_t errlen);

/* The preflight's aws checks, in order: the credentials answer, the image
 * resolves.  0, or EC2_LAUNCH_NO_AWS / EC2_LAUNCH_NO_IMAGE said on stderr. */
int ec2_launch_preflight(const struct ec2_request *q);

/* What describe-instances says of one instance. */
struct ec2_instance {
	char id[32];
	char state[32];	  /* pending, running, shutting-down, terminated, stopping, stopped */
	char reason[256]; /* its StateReason's message, or "" */
	bool ours;	  /* tagged Name=run and ebsbench:prefix=prefix */
};

/* The instance's state from describe-instances' JSON, ours set when its
 * tags name run and prefix.  0, or -1 when the reply holds no instance. */
int ec2_launch_parse_instance(const json_t *reply, const char *run, const char *prefix,
			      struct ec2_instance *in);

/* describe-instances of in->id into *in.  0, or -1 with aws's reason in why. */
int ec2_launch_describe(const struct ec2_request *q, const char *run, const char *prefix,
			struct ec2_instance *in, char *why, size_t cap);

/* Whether the instance is ending or gone (shutting-down, terminated,
 * stopping, stopped). */
bool ec2_launch_ended(const struct ec2_instance *in);

/* ec2_launch_watch.c: the instance and the prefix watched. */
/* What the watch saw. */
struct ec2_watch {
	struct ec2_instance in;
	unsigned uploaded; /* the run's files under the prefix (the binary not counted) */
	bool run_ended;	   /* results.json records report.html */
	bool stopped;	   /* *stop was set */
	bool lost;	   /* describe-instances kept failing */
	bool overdue;	   /* still running well past the run's deadline */
};

/* Watches the instance and the prefix (s3, the fetch's target) until the
 * run has ended, the
 * instance has, deadline_s (the run's) plus the grace has passed, or *stop.
 * A progress line on stderr. */
void ec2_launch_watch(const struct ec2_request *q, const char *run, struct s3_fetch *s3,
		      long deadline_s, struct ec2_watch *w, const volatile sig_atomic_t *stop);

/* ec2_user_data.c: the instance's script. */
/* image/ec2/user-data.sh (built into the binary) with its blanks filled:
 * the binary's URL and sha256, and config as the CONFIG block; full-line
 * comments outside here-documents dropped (EC2 takes 16 KB).  A malloc'd
 * string, or NULL with a reason. */
char *ec2_user_data(const char *url, const char *sha256, const char *config, char *err,
		    size_t errlen);

/* k8s_apply_preflight.c: the cluster checked before --apply. */
/* The cluster's checks, in order; a line on stderr
 * for each failure (its K8S_APPLY_* returned) and for the missing node (a
 * warning: 0 returned). */
int k8s_apply_preflight(const struct k8s_apply *a);

/* k8s_apply_watch.c: the Job watched, and stopped. */
/* How the Job stands, from `kubectl get job -o json`. */
enum k8s_job_state { K8S_JOB_PENDING, K8S_JOB_RUNNING, K8S_JOB_COMPLETE, K8S_JOB_FAILED };

/* The Job's state from its JSON, and for a failed one its condition's
 * reason and message into why[cap]. */
enum k8s_job_state k8s_apply_job_state(const json_t *job, char *why, size_t cap);

/* One progress line of the pod's log ("ebsbench: [3/12] randread gp3
 * /dev/xvdc: 2900 IOPS now, 120.0 MiB done, 45%, ETA 0:10:00") as
 * "[3/12] randread gp3 /dev/xvdc 45%, ETA 0:10:00" into out[cap]; 0, or -1
 * when the line is not one. */
int k8s_apply_progress(const char *line, char *out, size_t cap);

/* What the watch saw. */
struct k8s_watch {
	enum k8s_job_state state;
	char why[512];	   /* a failed Job's reason, else "" */
	char last[3][512]; /* the log's last lines that were not progress */
	bool stopped;	   /* *stop was set */
};

/* Watches the Job namespace/run until it completes or fails, or *stop: a
 * progress line on stderr.  0, or -1 said on stderr (kubectl failed). */
int k8s_apply_watch(const struct kubectl *k, const char *namespace, const char *run,
		    struct k8s_watch *w, const volatile sig_atomic_t *stop);

/* After a stop: the pod deleted with its grace period, then until the run
 * under the prefix has recorded its last upload (s3 as the fetch's
 * target), the Job ends, or the grace period passes. */
int k8s_apply_stop_job(const struct kubectl *k, const char *namespace, const char *run,
		       struct s3_fetch *s3);

/* k8s_args.c: `ebsbench k8s`'s values checked. */
/* The digest of an image reference pinned by one ("sha256:" and 64 hex
 * digits after '@'), into digest[72].  0, or -1: a tag alone can move. */
int k8s_image_digest(const char *ref, char digest[72], char *err, size_t errlen);
/* A Kubernetes name: a DNS label (namespace) or a label value (instance
 * type).  0, or -1 naming what as `what`. */
int k8s_check_name(const char *what, const char *name, bool label_value, char *err, size_t errlen);

/* --toleration KEY[=VALUE][:EFFECT] (kubectl taint's syntax: a value
 * tolerates that value, none any; an effect NoSchedule, PreferNoSchedule
 * or NoExecute, none every effect) as a Toleration object; NULL with a
 * reason naming it. */
json_t *k8s_toleration(const char *spec, char *err, size_t errlen);
/* --node-selector KEY=VALUE: 0 with key (at most 317 bytes) and value
 * split into key[318] and *value, or -1 naming it. */
int k8s_node_selector(const char *spec, char key[318], const char **value, char *err,
		      size_t errlen);

/* --namespace: a name, and not one of Kubernetes' own (default,
 * kube-system, kube-public, kube-node-lease).  0, or -1 naming it. */
int k8s_check_namespace(const char *name, char *err, size_t errlen);

/* kubectl.c: the calls of the user's kubectl. */
/* Each request of a call that ends (kubectl_run) ends within this: kubectl's
 * --request-timeout. */
#define KUBECTL_REQUEST_TIMEOUT "60s"

/* The most arguments a call takes (--context and --kubeconfig included). */
#define KUBECTL_MAX_ARGS 32

/* Runs `kubectl ARGS` (args NULL-terminated), in[in_len] on its stdin
 * (in NULL: nothing), to its end.  0 with *res filled (whatever the
 * status), or -1 when it could not run (kubectl not on PATH), said in
 * err. */
int kubectl_run(const struct kubectl *k, const char *const *args, const char *in, size_t in_len,
		struct child_result *res, char *err, size_t errlen);

/* Starts `kubectl ARGS` that goes on (`logs -f`; no request timeout).  0,
 * or -1 said in err. */
int kubectl_start(const struct kubectl *k, const char *const *args, struct child *c, char *err,
		  size_t errlen);

/* launch.c: the run's config and its POST policy. */
/* The config's "devices": volume i at the path path(i) names, its type,
 * size and what a provisioned type provisions.  No label: the run derives
 * it from the type, as presign's names and the plan do. */
json_t *launch_config_devices(const struct ebs_volume *volumes, size_t count,
			      void (*path)(char *buf, size_t len, size_t i));
/* What a launcher's run config is made of: --config's keys (a plan, a
 * time scale, prices ...: a run config without devices, upload or
 * allow_destroy), then its own. */
struct launch_config {
	const char *file; /* --config, or NULL */
	const char *instance_type, *region;
	const char *output_dir; /* NULL: the run's default (then --config may set it) */
	const char *plan;	/* --plan NAME: the config's phases become [NAME]; or NULL */
	const struct ebs_volume *volumes;
	size_t volume_count;
	void (*path)(char *buf, size_t len, size_t i); /* volume i's device path */
};
/* The config lc makes: --config's object with "environment.instance_type",
 * "devices" (launch_config_devices), "region", "output_dir" and, for a
 * plan, "phases" set (the config parser then checks the name).  NULL
 * with one line in err naming the file and what it may not hold. */
json_t *launch_config(const struct launch_config *lc, char *err, size_t errlen);

/* The config, parsed as `ebsbench run` will parse it, and the plan's
 * estimate for it (presign's: stand-in EBS devices of the config's sizes).
 * 0, or -1 with a reason. */
int launch_plan_seconds(json_t *config, double *planned_s, char *err, size_t errlen);

/* Where and how the POST policy is signed. */
struct launch_s3 {
	const char *bucket, *prefix; /* from launch_parse_s3 */
	const char *region;
	const char *endpoint; /* NULL: AWS's; else as `ebsbench presign --endpoint` */
	const char *profile;  /* NULL: AWS_PROFILE, else "default" */
};

/* One POST policy for the prefix living launch_expires_s(deadline_s),
 * signed with presign's request (and so its credentials), set as config's
 * "upload".  *r is the request it was signed with (its signing time and
 * credentials, for more signatures; presign_request_clear it).  Refused
 * when the credentials are known to expire before the policy (a presigned
 * request dies with them).  0, or -1 with a reason. */
int launch_sign_post(json_t *config, const struct launch_s3 *s3, long deadline_s,
		     struct presign_request *r, char *err, size_t errlen);

/* launch_args.c: the deadlines, and the S3 destination. */
/* After the deadline's SIGTERM: ebsbench stops the phase and uploads what
 * it measured (image/k8s/README.md, Durations). */
#define LAUNCH_GRACE_S 600
/* Before the run starts: a node or an instance boots, its volumes are made
 * and attached, the image or the binary is fetched. */
#define LAUNCH_START_S 900
/* From writing the launch files to handing them over (`kubectl apply`,
 * `aws ec2 run-instances`): the deadline counts from then, the POST
 * policy's life from its signing. */
#define LAUNCH_APPLY_S 300

/* The run's deadline for a plan of planned_s seconds (the one statement of
 * the formula in image/k8s/README.md's Durations table):
 * ceil(planned_s x 1.1) (ebsbench's own allowance, UPLOAD_EXPIRY_SLACK)
 * + LAUNCH_START_S + LAUNCH_GRACE_S.  The POST policy lives that long plus
 * LAUNCH_GRACE_S (the uploads after the deadline's SIGTERM) plus
 * LAUNCH_APPLY_S: launch_expires_s. */
long launch_deadline_s(double planned_s);
long launch_expires_s(long deadline_s);

/* s3://BUCKET/PREFIX into bucket[64] and prefix[cap] (a prefix is
 * required: a run's files go under one).  0, or -1 with a reason. */
int launch_parse_s3(const char *url, char bucket[64], char *prefix, size_t cap, char *err,
		    size_t errlen);

/* presign.c: the URLs' life, the names a run uploads, and the blocks
 * signed for them. */
/* "30m", "6h", "7d" (also "90s"): 1 s to 7 days.  0, or -1 with a reason. */
int presign_parse_expires(const char *text, unsigned *seconds, char *err, size_t errlen);

/* The file names one run uploads, in upload order, and the plan's own
 * estimate of how long it runs (to warn when URLs would expire first). */
struct presign_names {
	char **names;
	size_t count;
	double planned_s;
};

/* The reference benchmark's run: devices gp2 and gp3 (100 GiB each), its
 * six phases. */
int presign_names_default(struct presign_names *n, char *err, size_t errlen);
/* Exactly what a run of config c writes (the artifacts' names for its
 * labels, assigned by run_devices_add as `ebsbench run` does, and phases).  A device with neither
 * label nor type is named by the kernel on the instance: refused with a reason. */
int presign_names_from_config(struct presign_names *n, const struct run_config *c, char *err,
			      size_t errlen);
/* Only how long a run of c takes by the plan's estimate (0: unknown), for
 * --post, where devices need no label. */
int presign_plan_seconds(const struct run_config *c, double *seconds, char *err, size_t errlen);
void presign_names_free(struct presign_names *n);

/* The PUT and POST blocks (presign.h's top comment); NULL with a reason
 * in err. */
json_t *presign_put_block(const struct presign_request *r, const struct presign_names *n, char *err,
			  size_t errlen);
json_t *presign_post_block(const struct presign_request *r, uint64_t max_bytes, char *err,
			   size_t errlen);

#endif
