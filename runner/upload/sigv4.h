/* sigv4.h - AWS Signature Version 4 for S3, the two forms an uploader
 * without credentials can use:
 *
 *   - a presigned URL (query-string authentication): the signature and its
 *     scope travel in X-Amz-* query parameters, the payload is
 *     UNSIGNED-PAYLOAD, so one URL accepts one PUT (or GET) of any body;
 *   - a POST policy: a base64 JSON document limiting bucket, key prefix
 *     and size, signed once, good for any number of multipart/form-data
 *     uploads under the prefix.
 *
 * Every input is explicit, the time included, so AWS's published examples
 * are exact unit tests.  Secrets are only read, never copied into output
 * other than through the signature (and the session token, which S3
 * requires in the clear). */
#ifndef EBSBENCH_SIGV4_H
#define EBSBENCH_SIGV4_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define SIGV4_ALGORITHM "AWS4-HMAC-SHA256"
/* S3 refuses presigned URLs (and AWS's SDKs refuse to make them) that
 * live longer than seven days. */
#define SIGV4_MAX_EXPIRES 604800u
#define SIGV4_HEX_LEN 64 /* a SHA-256 or HMAC-SHA256 value in hex */

struct sigv4_credentials {
	const char *access_key_id;
	const char *secret_key;
	const char *session_token; /* NULL or "": long-term keys */
};

/* The credential scope: <date>/<region>/<service>/aws4_request, and the
 * X-Amz-Date the signature is made at. */
struct sigv4_scope {
	const char *region;  /* "us-east-1" */
	const char *service; /* "s3" */
	time_t when;	     /* UTC seconds */
};

/* A query parameter besides the X-Amz-* ones, not yet encoded. */
struct sigv4_param {
	const char *name;
	const char *value;
};

struct sigv4_url_request {
	const char *method; /* "PUT", "GET", ... */
	const char *scheme; /* "https" or "http" */
	const char *host;   /* as the client sends Host: "s3.us-east-1.amazonaws.com",
			     * "127.0.0.1:4569" (with the port when not the default) */
	const char *path;   /* not yet encoded: "/bucket/runs/a b.json"; each segment
			     * is encoded here by S3's rules, '/' kept */
	unsigned expires_s; /* 1 .. SIGV4_MAX_EXPIRES */
	/* Optional headers to sign, so the uploader must send exactly these
	 * values (NULL: not signed, any value or none accepted). */
	const char *content_type;
	const char *content_md5;
	/* More query parameters ("list-type", "prefix" ... for a listing):
	 * names lower-case and in sorted order, so they follow the X-Amz-*
	 * ones in the canonical query as written. */
	const struct sigv4_param *params;
	size_t param_count;
};

/* The presigned URL, query parameters in canonical (sorted) order, the
 * signature last.  Returns a malloc'd string, or NULL with a one-line
 * reason in err. */
char *sigv4_presign_url(const struct sigv4_credentials *cred, const struct sigv4_scope *scope,
			const struct sigv4_url_request *req, char *err, size_t errlen);

struct sigv4_post_policy {
	const char *bucket;
	const char *key_prefix; /* ["starts-with", "$key", prefix] */
	unsigned expires_s;	/* 1 .. SIGV4_MAX_EXPIRES after scope.when */
	uint64_t max_bytes;	/* > 0: ["content-length-range", 0, max_bytes] */
};

/* The form fields a POST upload sends besides "key" and "file": policy,
 * x-amz-algorithm, x-amz-credential, x-amz-date, x-amz-security-token (with
 * temporary credentials) and x-amz-signature.  Returns a new object, or
 * NULL with a reason in err. */
json_t *sigv4_post_fields(const struct sigv4_credentials *cred, const struct sigv4_scope *scope,
			  const struct sigv4_post_policy *policy, char *err, size_t errlen);

/* ---- building blocks, tested against AWS's examples, that launch/ and cli/
 * use too (the others: upload/internal.h) ---- */

/* hex(SHA-256(data)). */
int sigv4_sha256_hex(const void *data, size_t len, char hex[SIGV4_HEX_LEN + 1]);
/* "2013-05-25T00:00:00Z" (as a policy's expiration and people read). */
int sigv4_iso_time(time_t when, char out[21]);
/* Parses "20130524T000000Z" back; 0 or -1. */
int sigv4_parse_amz_date(const char *text, time_t *when);

#endif
