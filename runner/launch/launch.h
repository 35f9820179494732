/* launch.h - what the launchers (`ebsbench k8s`, `ebsbench ec2`) share: the
 * volumes and S3 destination they are given, the run's config made from
 * them and planned as `ebsbench run` plans it, one presigned POST policy
 * for the run's prefix, and the deadlines that follow from the plan. */
#ifndef EBSBENCH_LAUNCH_H
#define EBSBENCH_LAUNCH_H

#include <jansson.h>
#include <stddef.h>
#include <time.h>

#include "model/model.h"
#include "launch/presign.h"
#include "launch/ec2.h"
#include "launch/k8s.h"
#include "launch/k8s_apply.h"
#include "launch/launch_reader.h"

/* The instance a launcher asks for unless --instance-type names another:
 * the benchmark write-up's. */
#define LAUNCH_DEFAULT_INSTANCE_TYPE "m5.xlarge"
#include "launch/child.h"
#include "launch/ec2_launch.h"

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

/* `--volume TYPE:SIZE[:IOPS[:MIBPS]]` ("gp3:100:3000:125", "gp2:100"):
 * sizes in GiB; IOPS for gp3, io1 and io2, MiB/s for gp3 only (the others'
 * follow from size or IOPS); what is left out is the type's default.
 * Checked against the EBS model's limits.  0, or -1 with a reason. */
int launch_parse_volume(const char *text, struct ebs_volume *v, char *err, size_t errlen);
/* s3://BUCKET/PREFIX into bucket[64] and prefix[cap] (a prefix is
 * required: a run's files go under one).  0, or -1 with a reason. */
int launch_parse_s3(const char *url, char bucket[64], char *prefix, size_t cap, char *err,
		    size_t errlen);

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

#endif
