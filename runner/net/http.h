/* http.h - one HTTP/1.1 request per connection, over TCP or verified TLS.
 *
 * Built for uploading results through presigned S3 URLs: the body has a
 * known length (Content-Length, never chunked), every wait is bounded, the
 * server's certificate is always verified, redirects are not followed, and
 * a failure says what class it is (fail.h) so the caller can decide to
 * retry.  It runs over a transport (transport.h): TCP, or TLS where the
 * binary links it. */
#ifndef EBSBENCH_HTTP_H
#define EBSBENCH_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/fail.h"

enum http_method { HTTP_GET, HTTP_PUT, HTTP_POST };

struct http_header {
	const char *name;
	const char *value;
};

#define HTTP_CA_FILE_DEFAULT "/etc/ssl/certs/ca-certificates.crt"
#define HTTP_CONNECT_TIMEOUT_MS_DEFAULT 10000
#define HTTP_IO_TIMEOUT_MS_DEFAULT 30000
/* Enough for any S3 XML error document. */
#define HTTP_BODY_MAX_DEFAULT (64 * 1024)

struct http_request {
	enum http_method method;
	const char *url; /* http:// or https://; the target is sent verbatim */
	/* Extra headers.  Host, Content-Length, Transfer-Encoding and
	 * Connection are the client's own and are refused here. */
	const struct http_header *headers;
	size_t header_count;
	/* The body: body_len bytes from memory at body, or, when body is NULL,
	 * read with pread() from body_fd at body_offset (the fd's own offset
	 * is not moved, so a retry can pass the same fd).  A file that turns
	 * out shorter fails the request rather than send a short body. */
	const void *body;
	int body_fd;
	uint64_t body_offset;
	uint64_t body_len;
	/* 0 picks the default.  io_timeout_ms bounds each wait for the peer;
	 * total_timeout_ms, if set, bounds the whole request.  DNS lookups are
	 * bounded by the resolver (resolv.conf timeout and attempts) only. */
	int connect_timeout_ms;
	int io_timeout_ms;
	int total_timeout_ms;
	const char *ca_file; /* PEM bundle; NULL means HTTP_CA_FILE_DEFAULT */
	size_t body_max;     /* response body kept; 0 means HTTP_BODY_MAX_DEFAULT */
};

struct http_response {
	enum http_failure kind;
	int status; /* 0 when kind is not HTTP_OK */
	char reason[64];
	int64_t content_length; /* -1 if the header was absent */
	char etag[128];		/* with its quotes, as sent */
	char content_type[128];
	char location[2048]; /* may hold a presigned URL: redact before logging */
	/* NUL-terminated, malloc'ed; free with http_response_free(). */
	char *body;
	size_t body_len;
	bool body_truncated; /* the body was longer than body_max */
};

/* Sends one request and reads the reply.  Returns 0 when a response arrived
 * (whatever its status; 3xx is returned, not followed), else -1 with
 * resp->kind set and a one-line reason in err that holds no secret (the
 * URL's host at most).  resp must be freed with http_response_free() in
 * both cases. */
int http_request(const struct http_request *req, struct http_response *resp, char *err,
		 size_t errlen);

void http_response_free(struct http_response *resp);

/* The retry policy for idempotent requests such as presigned PUTs: yes on
 * DNS, connect, timeout and network failures and on 408, 429 and 5xx; no on
 * other statuses, TLS failures (a handshake or certificate that failed once
 * will fail again), protocol errors and local problems. */
bool http_should_retry(const struct http_response *resp);

#endif
