/* launch.c - the run's config a launcher writes: its devices, its plan as
 * `ebsbench run` makes it, and one POST policy for its S3 prefix. */
#include "launch/launch.h"

#include <stdbool.h>
#include <stdio.h>

#include "launch/internal.h"
#include "lib/lib.h"
#include "run/run.h"
#include "upload/upload.h"

#define POST_MAX_BYTES (1ull << 30) /* per file, as presign --post's default */

json_t *launch_config_devices(const struct ebs_volume *volumes, size_t count,
			      void (*path)(char *buf, size_t len, size_t i))
{
	json_t *list = json_array();
	for (size_t i = 0; list && i < count; i++) {
		const struct ebs_volume *v = &volumes[i];
		char name[64];
		path(name, sizeof(name), i);
		/* Whole numbers: launch_parse_volume reads nothing else. */
		json_t *d = json_pack("{sssssI}", "path", name, "type", ebs_type_name(v->type),
				      "size_gib", (json_int_t)v->size_gib);
		if (d && !ebs_type_rules(v->type)->size_derived)
			json_object_set_new(d, "iops", json_integer((json_int_t)v->iops));
		if (d && ebs_type_rules(v->type)->mibs_provisioned)
			json_object_set_new(d, "throughput_mibs",
					    json_integer((json_int_t)v->throughput_mibs));
		json_array_append_new(list, d);
	}
	return list;
}

json_t *launch_config(const struct launch_config *lc, char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *c = lc->file ? json_load_file(lc->file, 0, &jerr) : json_object();
	if (!c)
		return error_set(err, errlen, "--config %s: line %d: %s", lc->file, jerr.line,
				 jerr.text),
		       NULL;
	const char *refused = !json_is_object(c)	      ? "is not a JSON object"
			      : json_object_get(c, "devices") ? "names devices: give --volume"
			      : json_object_get(c, "upload")
				      ? "has an upload block: the launcher signs it"
			      : json_object_get(c, "allow_destroy") ? "allows destroying a volume"
			      : lc->output_dir && json_object_get(c, "output_dir")
				      ? "sets output_dir: the launcher does"
				      : NULL;
	if (refused) {
		json_decref(c);
		return error_set(err, errlen, "--config %s %s", lc->file, refused), NULL;
	}
	json_t *env = json_object_get(c, "environment");
	if (!json_is_object(env))
		json_object_set_new(c, "environment", env = json_object());
	json_object_set_new(env, "instance_type", json_string(lc->instance_type));
	json_object_set_new(c, "devices",
			    launch_config_devices(lc->volumes, lc->volume_count, lc->path));
	json_object_set_new(c, "region", json_string(lc->region));
	if (lc->output_dir)
		json_object_set_new(c, "output_dir", json_string(lc->output_dir));
	/* --plan NAME in place of the config's phases, as `run --plan` does. */
	if (lc->plan) {
		struct run_config named;
		config_defaults(&named);
		int bad = plan_select(&named, lc->plan, err, errlen);
		if (!bad && named.phases)
			json_object_set(c, "phases", named.phases);
		if (!bad && named.quick) /* the config's own key for it */
			json_object_set_new(c, "plan", json_string(PLAN_QUICK));
		config_free(&named);
		if (bad) {
			json_decref(c);
			return NULL;
		}
	}
	return c;
}

int launch_plan_seconds(json_t *config, double *planned_s, char *err, size_t errlen)
{
	struct run_config c;
	char why[400];
	config_defaults(&c);
	int rc = config_from_json(&c, config, why, sizeof(why)) ||
		 presign_plan_seconds(&c, planned_s, why, sizeof(why));
	config_free(&c);
	return rc ? error_set(err, errlen, "the run's config: %s", why) : 0;
}

/* A presigned request dies with the credentials that signed it, whatever
 * its own expiry says: -1 when they are known to end before the policy. */
static int outlives_credentials(const struct presign_request *r, char *err, size_t errlen)
{
	time_t until = r->when + (time_t)r->expires_s;
	char creds[21], policy[21];
	if (!r->aws.expires || r->aws.expires >= until)
		return 0;
	if (sigv4_iso_time(r->aws.expires, creds) || sigv4_iso_time(until, policy))
		creds[0] = policy[0] = '\0';
	return error_set(err, errlen,
			 "the credentials (%s) expire at %s, before the run's upload policy "
			 "would at %s: the run would lose its results; sign with credentials "
			 "that last until then (a longer session or role duration, or an IAM "
			 "user's keys)",
			 r->aws.source, creds, policy);
}

int launch_sign_post(json_t *config, const struct launch_s3 *s3, long deadline_s,
		     struct presign_request *r, char *err, size_t errlen)
{
	char expires[24];
	long life = launch_expires_s(deadline_s);
	if (life > (long)SIGV4_MAX_EXPIRES)
		return error_set(err, errlen,
				 "the run needs a POST policy of %ld s, longer than S3's 7 days: "
				 "fewer or smaller volumes",
				 life);
	snprintf(expires, sizeof(expires), "%lds", life);
	struct presign_args a = { .bucket = s3->bucket,
				  .prefix = s3->prefix,
				  .region = s3->region,
				  .expires = expires,
				  .endpoint = s3->endpoint,
				  .profile = s3->profile,
				  .post = true,
				  .max_bytes = POST_MAX_BYTES };
	if (presign_request_from_args(r, &a, err, errlen))
		return -1;
	if (outlives_credentials(r, err, errlen)) {
		presign_request_clear(r);
		return -1;
	}
	json_t *block = presign_post_block(r, POST_MAX_BYTES, err, errlen);
	if (!block) {
		presign_request_clear(r);
		return -1;
	}
	json_object_set(config, "upload", json_object_get(block, "upload"));
	json_decref(block);
	return 0;
}
