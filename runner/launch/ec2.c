/* ec2.c - `ebsbench ec2`'s launch: the run's config (planned as `ebsbench
 * run` plans it), one POST policy for its prefix, this binary uploaded
 * through that policy and a presigned GET for it, and the run-instances
 * input that boots it. */
#include "launch/ec2.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/lib.h"
#include "launch/launch.h"
#include "launch/internal.h"
#include "upload/upload.h"

#define NAME "ebsbench"
/* A run's binary is a few megabytes. */
#define BINARY_MAX (64u << 20)

void ec2_device_name(char *buf, size_t len, size_t i)
{
	snprintf(buf, len, "/dev/sd%c", (char)('f' + i));
}

/* The config: --config's keys (a plan, a time scale ...), the devices, the
 * instance type and region. */
static json_t *make_config(const struct ec2_request *q, char *err, size_t errlen)
{
	struct launch_config lc = { .file = q->config,
				    .instance_type = q->instance_type,
				    .region = q->region,
				    .plan = q->plan,
				    .volumes = q->volumes,
				    .volume_count = q->volume_count,
				    .path = ec2_device_name };
	return launch_config(&lc, err, errlen);
}

/* The binary, read whole: its path's last component is its key's name. */
static char *read_binary(const char *path, size_t *len, char *err, size_t errlen)
{
	FILE *in = fopen(path, "rb");
	if (!in)
		return error_set(err, errlen, "cannot read %s: %s", path, strerror(errno)), NULL;
	char *buf = malloc(BINARY_MAX);
	*len = buf ? fread(buf, 1, BINARY_MAX, in) : 0;
	bool bad = !buf || ferror(in) || !feof(in) || !*len;
	fclose(in);
	if (bad) {
		free(buf);
		return error_set(err, errlen, "cannot read %s (empty, or over %u MiB)", path,
				 BINARY_MAX >> 20),
		       NULL;
	}
	return buf;
}

/* Uploads the binary through the run's own POST policy (the "upload" block
 * of config, its ca_file included), as PREFIX/NAME: 0, 1 when S3 did not take it, -1 when the
 * block cannot be read. */
static int upload_binary(json_t *config, const char *dir, const char *name, FILE *log, char *err,
			 size_t errlen)
{
	struct upload_config u = { 0 };
	int rc = upload_config_parse(&u, json_object_get(config, "upload"), err, errlen);
	if (rc)
		return -1;
	json_t *record = json_object();
	struct uploader up;
	upload_init(&up, &u, dir, record, log);
	rc = upload_send(&up, name, UPLOAD_FINAL);
	if (rc) {
		json_t *last = json_array_get(json_object_get(record, RESULTS_KEY_UPLOADS), 0);
		const char *why = json_string_value(json_object_get(last, "error"));
		error_set(err, errlen, "uploading the binary to S3 failed: %s",
			  why ? why : "see above");
	}
	upload_free(&up);
	upload_config_free(&u);
	json_decref(record);
	return rc ? 1 : 0;
}

/* The presigned GET the instance fetches the binary with. */
static char *binary_url(const struct presign_request *r, const char *key, char *err, size_t errlen)
{
	char path[PRESIGN_MAX_KEY + 80];
	snprintf(path, sizeof(path), "/%s/%s", r->bucket, key);
	struct sigv4_scope scope = { r->region, "s3", r->when };
	struct sigv4_url_request req = { .method = "GET",
					 .scheme = r->endpoint.scheme,
					 .host = r->endpoint.host,
					 .path = path,
					 .expires_s = r->expires_s };
	return sigv4_presign_url(&r->cred, &scope, &req, err, errlen);
}

/* The block-device mapping: each volume made with the instance, deleted
 * with it. */
static json_t *mappings(const struct ec2_request *q)
{
	json_t *list = json_array();
	for (size_t i = 0; i < q->volume_count; i++) {
		const struct ebs_volume *v = &q->volumes[i];
		const struct ebs_type_rules *r = ebs_type_rules(v->type);
		char dev[16];
		ec2_device_name(dev, sizeof(dev), i);
		json_t *ebs = json_pack("{sssIsb}", "VolumeType", r->name, "VolumeSize",
					(json_int_t)v->size_gib, "DeleteOnTermination", true);
		if (!r->size_derived)
			json_object_set_new(ebs, "Iops", json_integer((json_int_t)v->iops));
		if (r->mibs_provisioned)
			json_object_set_new(ebs, "Throughput",
					    json_integer((json_int_t)v->throughput_mibs));
		json_array_append_new(list, json_pack("{ssso}", "DeviceName", dev, "Ebs", ebs));
	}
	return list;
}

static json_t *tags(const char *type, const struct ec2_made *made)
{
	return json_pack("{sss[{ssss}{ssss}]}", "ResourceType", type, "Tags", "Key", "Name",
			 "Value", made->run, "Key", "ebsbench:prefix", "Value", made->prefix);
}

/* run-instances' input: AL2023, terminated by its own power-off. */
static json_t *run_instances(const struct ec2_request *q, const struct ec2_made *made,
			     const char *user_data)
{
	return json_pack("{sssssisisssos{ssss}sos[oo]}", "ImageId",
			 q->image_id ? q->image_id : EC2_DEFAULT_IMAGE, "InstanceType",
			 q->instance_type, "MinCount", 1, "MaxCount", 1,
			 "InstanceInitiatedShutdownBehavior", "terminate", "BlockDeviceMappings",
			 mappings(q), "MetadataOptions", "HttpTokens", "required", "HttpEndpoint",
			 "enabled", "UserData", json_string(user_data), "TagSpecifications",
			 tags("instance", made), tags("volume", made));
}

/* The config with its POST policy, signed; the run named by its signing
 * time. */
static json_t *signed_config(const struct ec2_request *q, struct ec2_made *made,
			     struct presign_request *r, char *err, size_t errlen)
{
	json_t *config = make_config(q, err, errlen);
	if (!config)
		return NULL;
	struct launch_s3 s3 = { .bucket = made->bucket,
				.prefix = made->prefix,
				.region = q->region,
				.endpoint = q->endpoint,
				.profile = q->profile };
	double again;
	if (launch_plan_seconds(config, &made->planned_s, err, errlen) ||
	    (made->deadline_s = launch_deadline_s(made->planned_s),
	     launch_sign_post(config, &s3, made->deadline_s, r, err, errlen))) {
		json_decref(config);
		return NULL;
	}
	if (q->ca_file)
		json_object_set_new(json_object_get(config, "upload"), "ca_file",
				    json_string(q->ca_file));
	made->expires = r->when + (time_t)r->expires_s;
	struct tm tm;
	gmtime_r(&r->when, &tm);
	strftime(made->run, sizeof(made->run), NAME "-%Y%m%d-%H%M%S", &tm);
	/* What the instance runs is what `ebsbench run` accepts. */
	if (launch_plan_seconds(config, &again, err, errlen)) {
		presign_request_clear(r);
		json_decref(config);
		return NULL;
	}
	return config;
}

static int check(const struct ec2_request *q, struct ec2_made *made, char *err, size_t errlen)
{
	if (!q->volume_count)
		return error_set(err, errlen, "no --volume: give at least one, like gp3:100");
	if (q->volume_count > 'p' - 'f' + 1)
		return error_set(err, errlen, "at most %d --volume (/dev/sdf to /dev/sdp)",
				 'p' - 'f' + 1);
	if (!q->region || !q->region[0])
		return error_set(err, errlen, "no --region (nor AWS_REGION, AWS_DEFAULT_REGION)");
	if (launch_parse_s3(q->s3 ? q->s3 : "", made->bucket, made->prefix, sizeof(made->prefix),
			    err, errlen))
		return -1;
	char norm[sizeof(made->prefix)];
	if (presign_prefix(made->prefix, norm, sizeof(norm), err, errlen))
		return -1;
	snprintf(made->prefix, sizeof(made->prefix), "%s", norm);
	made->unknown_instance =
		ebs_instance_limits_find(q->instance_type) ? NULL : q->instance_type;
	return 0;
}

/* The binary's path (this one's unless told), its sha256 into sha. */
static const char *binary_path(const struct ec2_request *q, char self[PATH_MAX],
			       char sha[SIGV4_HEX_LEN + 1], size_t *len, char *err, size_t errlen)
{
	const char *path = q->binary;
	if (!path) {
		ssize_t n = readlink("/proc/self/exe", self, PATH_MAX - 1);
		if (n <= 0)
			return error_set(err, errlen, "cannot find this binary: %s",
					 strerror(errno)),
			       NULL;
		self[n] = '\0';
		path = self;
	}
	char *bytes = read_binary(path, len, err, errlen);
	if (!bytes)
		return NULL;
	sigv4_sha256_hex(bytes, *len, sha);
	free(bytes);
	return path;
}

/* The user-data, filled with the binary's URL; then, if it fits EC2 (or
 * only the user-data is asked for), the binary uploaded, so nothing is
 * left in S3 for a launch that cannot happen. */
static char *user_data(const struct ec2_request *q, json_t *config, struct presign_request *r,
		       struct ec2_made *made, FILE *log, char *err, size_t errlen)
{
	char self[PATH_MAX], sha[SIGV4_HEX_LEN + 1], dir_buf[PATH_MAX], name_buf[PATH_MAX];
	size_t len;
	const char *path = binary_path(q, self, sha, &len, err, errlen);
	if (!path)
		return NULL;
	snprintf(dir_buf, sizeof(dir_buf), "%s", path);
	snprintf(name_buf, sizeof(name_buf), "%s", path);
	const char *dir = dirname(dir_buf), *name = basename(name_buf);
	snprintf(made->binary_key, sizeof(made->binary_key), "%s%s", made->prefix, name);
	char *url = binary_url(r, made->binary_key, err, errlen);
	char *text = url ? json_dumps(config, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
	char *script = text ? ec2_user_data(url, sha, text, err, errlen) : NULL;
	if (url && !text)
		error_set(err, errlen, "out of memory");
	free(url);
	free(text);
	if (!script)
		return NULL;
	made->user_data_bytes = strlen(script);
	if (made->user_data_bytes > EC2_USER_DATA_MAX && !q->user_data_only) {
		error_set(err, errlen,
			  "the user-data is %zu bytes, over EC2's %d (long session credentials "
			  "make its URLs long): write it with --user-data and gzip it",
			  made->user_data_bytes, EC2_USER_DATA_MAX);
		free(script);
		return NULL;
	}
	fprintf(log, "ebsbench ec2: uploading %s (%zu bytes, sha256 %s) to s3://%s/%s\n", path, len,
		sha, made->bucket, made->binary_key);
	int sent = upload_binary(config, dir, name, log, err, errlen);
	if (sent) {
		made->upload_failed = sent > 0;
		free(script);
		return NULL;
	}
	return script;
}

json_t *ec2_launch(const struct ec2_request *q, struct ec2_made *made, FILE *log, char *err,
		   size_t errlen)
{
	struct presign_request r;
	memset(made, 0, sizeof(*made));
	err[0] = '\0';
	if (check(q, made, err, errlen))
		return NULL;
	json_t *config = signed_config(q, made, &r, err, errlen);
	if (!config)
		return NULL;
	char *script = user_data(q, config, &r, made, log, err, errlen);
	presign_request_clear(&r);
	json_decref(config);
	if (!script)
		return NULL;
	json_t *input = q->user_data_only ? json_pack("{ss}", "UserData", script)
					  : run_instances(q, made, script);
	if (!input)
		error_set(err, errlen, "out of memory");
	free(script);
	return input;
}
