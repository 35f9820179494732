/* http_response.c - one HTTP/1.x response read from a byte source: status
 * line, headers (interim 1xx skipped), then a Content-Length, chunked or
 * read-to-close body kept up to a cap.  No socket here: http.c hands in a
 * stream, the fuzz target a buffer. */
#include "net/http_response.h"
#include "net/internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A header line longer than this, or more lines than HTTP_MAX_LINES, is not
 * a reply we want to parse. */
#define HTTP_LINE_MAX 16384
#define HTTP_MAX_LINES 256
#define HTTP_MAX_INTERIM 8

/* Buffered reading on top of the source. */
struct reader {
	http_read_fn *read;
	void *source;
	struct net_fail *f;
	size_t start, end;
	char buf[HTTP_LINE_MAX];
};

/* Reads more into the buffer: bytes added, 0 at end of stream, -1 error. */
static ssize_t rd_fill(struct reader *r)
{
	ssize_t n;

	if (r->start == r->end) {
		r->start = 0;
		r->end = 0;
	} else if (r->end == sizeof(r->buf)) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->start = 0;
	}
	if (r->end == sizeof(r->buf))
		return -2;
	n = r->read(r->source, r->buf + r->end, sizeof(r->buf) - r->end, r->f);
	if (n > 0)
		r->end += (size_t)n;
	return n;
}

/* The next line without its CRLF (or bare LF), NUL-terminated in place. */
static char *rd_line(struct reader *r, const char *what)
{
	for (;;) {
		char *nl = memchr(r->buf + r->start, '\n', r->end - r->start);
		ssize_t n;

		if (nl) {
			char *line = r->buf + r->start;

			r->start = (size_t)(nl - r->buf) + 1;
			if (nl > line && nl[-1] == '\r')
				nl--;
			*nl = '\0';
			return line;
		}
		n = rd_fill(r);
		if (n == -2)
			net_fail_set(r->f, HTTP_FAIL_PROTOCOL, "%s longer than %d bytes", what,
				     HTTP_LINE_MAX);
		else if (n == 0)
			net_fail_set(r->f, HTTP_FAIL_NETWORK,
				     "connection closed while reading the %s", what);
		if (n <= 0)
			return NULL;
	}
}

/* Up to len bytes of body: from the buffer first, then the stream. */
static ssize_t rd_some(struct reader *r, char *out, size_t len)
{
	size_t have = r->end - r->start;

	if (have) {
		size_t n = have < len ? have : len;

		memcpy(out, r->buf + r->start, n);
		r->start += n;
		return (ssize_t)n;
	}
	return r->read(r->source, out, len, r->f);
}

static int parse_status(const char *line, struct http_response *resp, struct net_fail *f)
{
	int n = 0;
	unsigned code;

	if (sscanf(line, "HTTP/1.%*1[01] %3u%n", &code, &n) != 1 || n != 12 || code < 100 ||
	    code > 599 || (line[12] != ' ' && line[12] != '\0')) {
		net_fail_set(f, HTTP_FAIL_PROTOCOL, "not an HTTP/1.x status line");
		return -1;
	}
	resp->status = (int)code;
	snprintf(resp->reason, sizeof(resp->reason), "%s", line[12] ? line + 13 : "");
	return 0;
}

/* Framing of the body, from the headers. */
struct framing {
	bool chunked;
	bool te_other; /* a transfer coding other than chunked last: read to close */
	int64_t length;
};

static int parse_length(const char *v, struct framing *fr, struct net_fail *f)
{
	int64_t n = 0;
	const char *p = v;

	for (; *p >= '0' && *p <= '9' && n <= (INT64_MAX - 9) / 10; p++)
		n = n * 10 + (*p - '0');
	if (p == v || *p || (fr->length >= 0 && fr->length != n)) {
		net_fail_set(f, HTTP_FAIL_PROTOCOL, "bad Content-Length");
		return -1;
	}
	fr->length = n;
	return 0;
}

static int parse_header(char *line, struct http_response *resp, struct framing *fr,
			struct net_fail *f)
{
	char *colon = strchr(line, ':'), *v, *end;

	if (!colon || colon == line || line[0] == ' ' || line[0] == '\t') {
		net_fail_set(f, HTTP_FAIL_PROTOCOL, "malformed response header");
		return -1;
	}
	*colon = '\0';
	for (v = colon + 1; *v == ' ' || *v == '\t'; v++)
		;
	for (end = v + strlen(v); end > v && (end[-1] == ' ' || end[-1] == '\t'); end--)
		;
	*end = '\0';
	if (strcasecmp(line, "Content-Length") == 0)
		return parse_length(v, fr, f);
	if (strcasecmp(line, "Transfer-Encoding") == 0) {
		size_t n = strlen(v);
		/* Only the last coding tells how the body ends. */
		fr->chunked = n >= 7 && strcasecmp(v + n - 7, "chunked") == 0;
		fr->te_other = !fr->chunked;
	} else if (strcasecmp(line, "ETag") == 0) {
		snprintf(resp->etag, sizeof(resp->etag), "%s", v);
	} else if (strcasecmp(line, "Content-Type") == 0) {
		snprintf(resp->content_type, sizeof(resp->content_type), "%s", v);
	} else if (strcasecmp(line, "Location") == 0) {
		snprintf(resp->location, sizeof(resp->location), "%s", v);
	}
	return 0;
}

/* Header lines up to the empty one; trailers (resp NULL) are skipped. */
static int read_fields(struct reader *r, struct http_response *resp, struct framing *fr)
{
	const char *what = resp ? "response headers" : "trailers";
	int lines;

	for (lines = 0; lines <= HTTP_MAX_LINES; lines++) {
		char *line = rd_line(r, what);

		if (!line || (*line && resp && parse_header(line, resp, fr, r->f)))
			return -1;
		if (!*line)
			return 0;
	}
	net_fail_set(r->f, HTTP_FAIL_PROTOCOL, "more than %d %s", HTTP_MAX_LINES, what);
	return -1;
}

/* Status line and headers; interim 1xx replies are skipped. */
static int read_head(struct reader *r, struct http_response *resp, struct framing *fr)
{
	int interim;

	for (interim = 0; interim <= HTTP_MAX_INTERIM; interim++) {
		char *line = rd_line(r, "status line");

		fr->chunked = fr->te_other = false;
		fr->length = -1;
		if (!line || parse_status(line, resp, r->f) || read_fields(r, resp, fr))
			return -1;
		if (resp->status >= 200)
			return 0;
		if (resp->status == 101) /* we never ask to switch */
			break;
	}
	net_fail_set(r->f, HTTP_FAIL_PROTOCOL, "too many or unexpected 1xx responses");
	return -1;
}

/* Keeps body bytes up to the cap; returns false once the cap is reached. */
static bool keep(struct http_response *resp, size_t cap, const char *p, size_t n)
{
	size_t room = cap - resp->body_len;

	if (n > room) {
		n = room;
		resp->body_truncated = true;
	}
	memcpy(resp->body + resp->body_len, p, n);
	resp->body_len += n;
	resp->body[resp->body_len] = '\0';
	return !resp->body_truncated;
}

/* Copies exactly want bytes (or to end of stream when want < 0) into the
 * body; a stream that ends early is an error only when want >= 0.
 * Returns 1 to go on, 0 when the cap was reached, -1 on error. */
static int read_span(struct reader *r, struct http_response *resp, size_t cap, int64_t want)
{
	char chunk[8192];
	int64_t got = 0;

	while (want < 0 || got < want) {
		size_t ask = sizeof(chunk);
		ssize_t n;

		if (want >= 0 && (uint64_t)(want - got) < ask)
			ask = (size_t)(want - got);
		n = rd_some(r, chunk, ask);
		if (n < 0)
			return -1;
		if (n == 0 && want < 0)
			return 1;
		if (n == 0) {
			net_fail_set(r->f, HTTP_FAIL_NETWORK,
				     "connection closed after %" PRId64 " of %" PRId64
				     " body bytes",
				     got, want);
			return -1;
		}
		got += n;
		if (!keep(resp, cap, chunk, (size_t)n))
			return 0;
	}
	return 1;
}

static int read_chunked(struct reader *r, struct http_response *resp, size_t cap)
{
	for (;;) {
		char *line = rd_line(r, "chunk size"), *end;
		unsigned long long size;
		int rc;

		if (!line)
			return -1;
		errno = 0;
		size = strtoull(line, &end, 16);
		if (end == line || errno || size > INT64_MAX ||
		    (*end && *end != ';' && *end != ' ' && *end != '\t')) {
			net_fail_set(r->f, HTTP_FAIL_PROTOCOL, "bad chunk size");
			return -1;
		}
		if (size == 0) /* trailers, up to the empty line */
			return read_fields(r, NULL, NULL);
		rc = read_span(r, resp, cap, (int64_t)size);
		if (rc <= 0)
			return rc;
		line = rd_line(r, "chunk end");
		if (!line || *line) {
			net_fail_set(r->f, HTTP_FAIL_PROTOCOL, "chunk not followed by CRLF");
			return -1;
		}
	}
}

static int read_body(struct reader *r, struct http_response *resp, const struct framing *fr,
		     size_t cap)
{
	resp->body = malloc(cap + 1);
	if (!resp->body) {
		net_fail_set(r->f, HTTP_FAIL_LOCAL, "out of memory");
		return -1;
	}
	resp->body[0] = '\0';
	/* RFC 9112 6.3: these never have a body, whatever the headers say. */
	if (resp->status == 204 || resp->status == 304)
		return 0;
	if (fr->chunked)
		return read_chunked(r, resp, cap);
	return read_span(r, resp, cap, fr->te_other ? -1 : fr->length) < 0 ? -1 : 0;
}

int http_response_read(http_read_fn *read, void *source, size_t body_max,
		       struct http_response *resp, struct net_fail *f)
{
	struct reader *r = calloc(1, sizeof(*r));
	struct framing fr;
	int rc;

	if (!r) {
		net_fail_set(f, HTTP_FAIL_LOCAL, "out of memory");
		return -1;
	}
	r->read = read;
	r->source = source;
	r->f = f;
	rc = read_head(r, resp, &fr);
	if (rc == 0) {
		resp->content_length = fr.chunked ? -1 : fr.length;
		rc = read_body(r, resp, &fr, body_max ? body_max : HTTP_BODY_MAX_DEFAULT);
	}
	free(r);
	return rc;
}
