/* url.h - http:// and https:// URLs as presigned S3 uploads need them.
 *
 * The request target (path and query) is kept byte for byte: the signature
 * covers its exact encoding, so re-encoding it would break the upload.  A
 * presigned URL is a bearer credential, so anything that logs one logs
 * url_redact()'s output instead. */
#ifndef EBSBENCH_URL_H
#define EBSBENCH_URL_H

#include <stdbool.h>
#include <stddef.h>

/* A DNS name is at most 253 bytes; an IPv6 literal far less. */
#define URL_HOST_MAX 256

struct url {
	bool https;
	/* Without the brackets of an IPv6 literal: what getaddrinfo, SNI and
	 * certificate checks want. */
	char host[URL_HOST_MAX];
	bool ipv6_literal;
	unsigned port; /* 80 or 443 unless the URL names one */
	bool port_given;
	/* Path and query, verbatim, pointing into the parsed string (which must
	 * outlive the struct); the fragment is left out.  May be empty or start
	 * with '?', in which case the request target needs a leading '/'. */
	const char *target;
	size_t target_len;
};

/* Parses an absolute http:// or https:// URL.  Returns 0, or -1 with a
 * one-line reason in err that never quotes the URL (it may hold secrets). */
int url_parse(const char *s, struct url *u, char *err, size_t errlen);

/* The one list of the query and form parameters whose values are
 * credentials (X-Amz-Signature, X-Amz-Credential, X-Amz-Security-Token,
 * Signature, AWSAccessKeyId): url_redact blanks them, and upload scrubs
 * them from what S3 echoes back. */
extern const char *const url_secret_params[];
extern const size_t url_secret_param_count;
/* Whether the n bytes at name are one of them, matched case-insensitively. */
bool url_param_secret(const char *name, size_t n);

/* Copies url into out (always NUL-terminated when outlen > 0) with the values
 * of the secret parameters and any user:password@ replaced by "REDACTED".
 * Returns the length the full result needs, like snprintf; a truncated
 * result never holds a secret's bytes. */
size_t url_redact(const char *url, char *out, size_t outlen);

#endif
