/* presign.h - what `ebsbench presign` signs: the artifacts a run uploads,
 * their S3 keys under a prefix, and the "upload" block a run reads.
 *
 * Addressing is path-style, https://s3.<region>.amazonaws.com/<bucket>/<key>
 * (amazonaws.com.cn for cn- regions) or <endpoint>/<bucket>/<key>: one URL
 * shape for AWS and for S3-compatible servers, and bucket names with dots
 * keep a valid TLS certificate (virtual-host style puts them in the host
 * name, where *.s3.amazonaws.com does not match them).
 *
 *   PUT:  {"upload": {"put": {"results.json": "https://...", ...},
 *                     "resume_get": "https://...", "expires": "2026-09-02T06:00:00Z"}}
 *   POST: {"upload": {"post": {"url": "https://.../<bucket>", "key_prefix": "P/",
 *                              "fields": {"policy": ..., "x-amz-signature": ...}},
 *                     "resume_get": ..., "expires": ...}}
 * resume_get: a presigned GET of P/results.json, the run's own, read back
 * by `run --resume=auto` after a lost pod or instance (upload.h).
 * A POST uploader sends fields + "key" (key_prefix + file name) + "file";
 * the policy admits any key under the prefix, so POST needs no list of
 * names. */
#ifndef EBSBENCH_PRESIGN_H
#define EBSBENCH_PRESIGN_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "upload/upload.h"

#define PRESIGN_MAX_KEY 1024 /* S3's limit on a key, in bytes */

struct presign_endpoint {
	char scheme[8]; /* "https" or "http" */
	char host[256]; /* host[:port], a default port left out as clients do */
};

struct presign_request {
	struct sigv4_credentials cred; /* points into aws, or set by hand */
	time_t when;		       /* signing time */
	unsigned expires_s;	       /* 1 .. SIGV4_MAX_EXPIRES */
	const char *region;
	const char *bucket;
	char prefix[PRESIGN_MAX_KEY]; /* "" or ending in '/': see presign_prefix */
	struct presign_endpoint endpoint;
	struct aws_credentials aws; /* the values, copied where they were found */
};

/* NULL url: AWS's regional endpoint for region.  Else http(s)://host[:port]
 * with no path.  0, or -1 with a reason. */
int presign_endpoint(const char *url, const char *region, struct presign_endpoint *ep, char *err,
		     size_t errlen);
/* S3's bucket naming rules (3-63 of a-z 0-9 . -, alphanumeric at both ends). */
int presign_check_bucket(const char *bucket, char *err, size_t errlen);
/* "runs/x" and "/runs/x/" become "runs/x/"; "" stays "".  "." and ".."
 * segments are refused: HTTP clients resolve them and change the key. */
int presign_prefix(const char *prefix, char *out, size_t cap, char *err, size_t errlen);

/* What `ebsbench presign` is asked (presign_request.c): where to, for how
 * long, the run's config (NULL: the reference benchmark's run), and with
 * post a POST policy of at most max_bytes a file in place of PUT URLs. */
struct presign_args {
	const char *bucket, *prefix, *region, *expires, *endpoint, *plan;
	const char *profile; /* --profile (NULL: AWS_PROFILE, else "default") */
	bool post;
	uint64_t max_bytes;
};

/* r from a (expiry, bucket, prefix and endpoint checked), the credentials
 * as AWS's tools find them (upload/aws_credentials.h: the environment, then
 * a's profile), and the signing time: now, or EBSBENCH_PRESIGN_TIME
 * (20260902T000000Z) so tests can compare with another signer.  r holds
 * pointers into itself: fill it where it stays.  0, or -1 with a one-line
 * reason; presign_request_clear wipes the secrets. */
int presign_request_from_args(struct presign_request *r, const struct presign_args *a, char *err,
			      size_t errlen);
void presign_request_clear(struct presign_request *r);
/* r's credentials as AWS's tools find them now (the environment, then the
 * profile: NULL for AWS_PROFILE, else default), kept in r->aws; again
 * after a long wait, as a credential_process renews them.  0, or -1 with
 * a one-line reason. */
int presign_request_credentials(struct presign_request *r, const char *profile, char *err,
				size_t errlen);
/* The upload block r signs for a's plan (see above); a line on warn when
 * the plan's estimate, with a margin for boot and upload, outlasts the
 * URLs.  NULL with a one-line reason. */
json_t *presign_sign(const struct presign_request *r, const struct presign_args *a, FILE *warn,
		     char *err, size_t errlen);

#endif
