/* ec2.h - `ebsbench ec2`: one run on a stock Amazon Linux 2023 instance, as
 * the input of one `aws ec2 run-instances --cli-input-json`: the instance
 * (terminated by its own power-off when the run ends), its volumes in the
 * block-device mapping (deleted with it), and image/ec2/user-data.sh filled
 * in: a presigned GET of this binary, which the command uploads under the
 * run's prefix (the results then sit beside what made them), its sha256,
 * and the run's config with one POST policy for the prefix.  The launch
 * files of image/ec2/README.md, written by the binary. */
#ifndef EBSBENCH_EC2_H
#define EBSBENCH_EC2_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include "model/model.h"
#include "run/run.h"

/* EC2's limit on user-data, before its base64. */
#define EC2_USER_DATA_MAX 16384
/* Amazon Linux 2023's latest AMI, resolved by EC2 at launch. */
#define EC2_DEFAULT_IMAGE                                                                          \
	"resolve:ssm:/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-x86_64"

struct ec2_request {
	const char *s3;		   /* s3://BUCKET/PREFIX */
	const char *region;	   /* the bucket's and the instance's */
	const char *instance_type; /* m5.xlarge */
	const char *image_id;	   /* NULL: EC2_DEFAULT_IMAGE */
	const char *endpoint;	   /* NULL: AWS's S3; else as `ebsbench presign --endpoint` */
	const char *profile;	   /* NULL: AWS_PROFILE, else "default" */
	const char *ca_file;	   /* the S3 endpoint's CA (this machine's and the run's) */
	const char *binary;	   /* NULL: this binary (/proc/self/exe) */
	const char *config;	   /* a run config without "devices" and "upload", or NULL */
	const char *plan;	   /* a plan's name in place of the config's phases, or NULL */
	bool user_data_only;	   /* {"UserData": script} only, of any size */
	struct ebs_volume volumes[CONFIG_MAX_DEVICES];
	size_t volume_count;
};

/* What was made, for the lines the command says on stderr (no secret). */
struct ec2_made {
	char run[64]; /* the instance's Name tag: "ebsbench-" and the signing time */
	char bucket[64];
	char prefix[1024];
	char binary_key[1100]; /* where the binary went */
	double planned_s;
	long deadline_s;
	time_t expires;
	size_t user_data_bytes;
	const char *unknown_instance; /* not in the EBS model's table, or NULL */
	bool upload_failed;	      /* S3 refused the binary (all else was right) */
};

/* Checks q, signs, uploads the binary, and returns the run-instances input
 * (its "UserData" the filled script, at most EC2_USER_DATA_MAX bytes
 * unless q->user_data_only), progress on log.  NULL with a
 * one-line reason in err (no secret in it). */
json_t *ec2_launch(const struct ec2_request *q, struct ec2_made *made, FILE *log, char *err,
		   size_t errlen);

#endif
