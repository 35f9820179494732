/* presign_request.c - what `ebsbench presign` signs with and signs: the
 * request from its arguments, the credentials AWS's tools would use and the
 * signing time, then the upload block for the plan's files (PUT) or any
 * file under the prefix (POST). */
#include "launch/presign.h"

#include <stdlib.h>
#include <string.h>

#include "launch/internal.h"
#include "lib/lib.h"

/* Boot, discovery and the upload itself come on top of the plan. */
#define EXPIRY_MARGIN_S 900.0

int presign_request_credentials(struct presign_request *r, const char *profile, char *err,
				size_t errlen)
{
	if (aws_credentials_load(&r->aws, profile, time(NULL), err, errlen))
		return -1;
	r->cred.access_key_id = r->aws.access_key_id;
	r->cred.secret_key = r->aws.secret_key;
	r->cred.session_token = r->aws.session_token;
	return 0;
}

void presign_request_clear(struct presign_request *r)
{
	aws_credentials_clear(&r->aws);
}

/* Now, or EBSBENCH_PRESIGN_TIME (20260902T000000Z) so tests can compare
 * with another signer at the same instant. */
static int signing_time(time_t *when, char *err, size_t errlen)
{
	const char *fixed = getenv("EBSBENCH_PRESIGN_TIME");
	if (!fixed) {
		*when = time(NULL);
		return 0;
	}
	if (!sigv4_parse_amz_date(fixed, when))
		return 0;
	return error_set(err, errlen, "EBSBENCH_PRESIGN_TIME '%s' is not like 20260902T000000Z",
			 fixed);
}

int presign_request_from_args(struct presign_request *r, const struct presign_args *a, char *err,
			      size_t errlen)
{
	memset(r, 0, sizeof(*r));
	r->bucket = a->bucket;
	r->region = a->region;
	if (presign_parse_expires(a->expires, &r->expires_s, err, errlen) ||
	    presign_check_bucket(a->bucket, err, errlen) ||
	    presign_prefix(a->prefix, r->prefix, sizeof(r->prefix), err, errlen) ||
	    presign_endpoint(a->endpoint, a->region, &r->endpoint, err, errlen) ||
	    presign_request_credentials(r, a->profile, err, errlen))
		return -1;
	return signing_time(&r->when, err, errlen);
}

/* The names to sign (PUT), or only the plan's length (POST): the default
 * run's, or a's plan's. */
static int load_plan(const struct presign_args *a, struct presign_names *n, char *err,
		     size_t errlen)
{
	struct run_config c;
	int rc;

	memset(n, 0, sizeof(*n));
	if (!a->plan)
		return presign_names_default(n, err, errlen);
	config_defaults(&c);
	rc = config_load_file(&c, a->plan, err, errlen);
	if (!rc && a->post)
		rc = presign_plan_seconds(&c, &n->planned_s, err, errlen);
	else if (!rc)
		rc = presign_names_from_config(n, &c, err, errlen);
	config_free(&c);
	return rc;
}

/* A URL that expires mid-run loses the results: say so before the run. */
static void warn_expiry(FILE *warn, const struct presign_names *n, unsigned expires_s)
{
	if (n->planned_s <= 0 || n->planned_s + EXPIRY_MARGIN_S <= expires_s)
		return;
	fprintf(warn,
		"ebsbench presign: warning: the plan runs about %.0f min (plus boot and "
		"upload) but the URLs expire after %.0f min: raise --expires\n",
		n->planned_s / 60, expires_s / 60.0);
}

/* What credentials sign dies with them: say so when they end first. */
static void warn_credentials(FILE *warn, const struct presign_request *r)
{
	char creds[21];
	if (!r->aws.expires || r->aws.expires >= r->when + (time_t)r->expires_s ||
	    sigv4_iso_time(r->aws.expires, creds))
		return;
	fprintf(warn,
		"ebsbench presign: warning: the credentials (%s) expire at %s, and what they "
		"signed stops working then, before --expires says\n",
		r->aws.source, creds);
}

json_t *presign_sign(const struct presign_request *r, const struct presign_args *a, FILE *warn,
		     char *err, size_t errlen)
{
	struct presign_names n;
	json_t *block;

	if (load_plan(a, &n, err, errlen))
		return NULL;
	warn_expiry(warn, &n, r->expires_s);
	warn_credentials(warn, r);
	if (a->post)
		block = presign_post_block(r, a->max_bytes, err, errlen);
	else
		block = presign_put_block(r, &n, err, errlen);
	presign_names_free(&n);
	return block;
}
