/* http.c - the HTTP/1.1 exchange: write the request with a Content-Length
 * body, read one response (Content-Length, chunked or read-to-close), then
 * close.  One connection per request keeps the state machine small and a
 * retry clean. */
#include "http.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "clock.h"
#include "tls.h"
#include "url.h"
#include "version.h"

/* A header line longer than this, or more lines than HTTP_MAX_LINES, is not
 * a reply we want to parse. */
#define HTTP_LINE_MAX 16384
#define HTTP_MAX_LINES 256
#define HTTP_MAX_INTERIM 8
#define HTTP_FILE_CHUNK (256 * 1024)

static const char *const method_names[] = { "GET", "PUT", "POST" };

/* Buffered reading on top of the stream. */
struct reader {
	struct stream *s;
	struct net_fail *f;
	size_t start, end;
	char buf[HTTP_LINE_MAX];
};

const char *http_failure_name(enum http_failure kind)
{
	static const char *const names[] = {
		"ok",	   "usage",   "local", "dns",	     "connect",
		"timeout", "network", "tls",   "tls-verify", "protocol",
	};

	return (unsigned)kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "unknown";
}

bool http_should_retry(const struct http_response *resp)
{
	switch (resp->kind) {
	case HTTP_OK:
		return resp->status == 408 || resp->status == 429 || resp->status >= 500;
	case HTTP_FAIL_DNS:
	case HTTP_FAIL_CONNECT:
	case HTTP_FAIL_TIMEOUT:
	case HTTP_FAIL_NETWORK:
		return true;
	default:
		return false;
	}
}

void http_response_free(struct http_response *resp)
{
	free(resp->body);
	resp->body = NULL;
	resp->body_len = 0;
}

/* RFC 9110 token characters: what a header name may be made of. */
static bool is_token(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!strchr("!#$%&'*+-.^_`|~", *s) && !(*s >= '0' && *s <= '9') &&
		    !(*s >= 'a' && *s <= 'z') && !(*s >= 'A' && *s <= 'Z'))
			return false;
	return true;
}

/* A CR or LF in a value would let it start a header or request of its own. */
static bool value_ok(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 && *s != '\t')
			return false;
	return true;
}

static int check_headers(const struct http_request *req, struct net_fail *f)
{
	static const char *const ours[] = { "Host", "Content-Length", "Transfer-Encoding",
					    "Connection" };
	size_t i, j;

	for (i = 0; i < req->header_count; i++) {
		const struct http_header *h = &req->headers[i];

		/* The value is never quoted: it may be a token or a key. */
		if (!h->name || !is_token(h->name)) {
			net_fail_set(f, HTTP_FAIL_USAGE, "header %zu: bad name", i);
			return -1;
		}
		if (!h->value || !value_ok(h->value)) {
			net_fail_set(f, HTTP_FAIL_USAGE,
				     "header %s: missing value or control byte in it", h->name);
			return -1;
		}
		for (j = 0; j < sizeof(ours) / sizeof(ours[0]); j++)
			if (strcasecmp(h->name, ours[j]) == 0) {
				net_fail_set(f, HTTP_FAIL_USAGE, "header %s is set by the client",
					     ours[j]);
				return -1;
			}
	}
	return 0;
}

static int check_request(const struct http_request *req, struct url *u, struct net_fail *f)
{
	if ((unsigned)req->method > HTTP_POST) {
		net_fail_set(f, HTTP_FAIL_USAGE, "unknown method %d", (int)req->method);
		return -1;
	}
	if (!req->url) {
		net_fail_set(f, HTTP_FAIL_USAGE, "URL: missing");
		return -1;
	}
	if (url_parse(req->url, u, f->msg, f->len)) {
		f->kind = HTTP_FAIL_USAGE; /* url_parse wrote the message */
		return -1;
	}
	if (req->method == HTTP_GET && req->body_len) {
		net_fail_set(f, HTTP_FAIL_USAGE, "a GET request carries no body");
		return -1;
	}
	return check_headers(req, f);
}

static bool has_header(const struct http_request *req, const char *name)
{
	size_t i;

	for (i = 0; i < req->header_count; i++)
		if (strcasecmp(req->headers[i].name, name) == 0)
			return true;
	return false;
}

/* Request line and headers in one buffer: one write, and a target of any
 * length. */
static char *build_head(const struct http_request *req, const struct url *u, size_t *len)
{
	char host[URL_HOST_MAX + 8], *buf = NULL;
	FILE *m = open_memstream(&buf, len);
	bool slash = u->target_len == 0 || u->target[0] != '/';
	size_t i;

	if (!m)
		return NULL;
	url_host_header(u, host, sizeof(host));
	fprintf(m, "%s %s%.*s HTTP/1.1\r\nHost: %s\r\n", method_names[req->method],
		slash ? "/" : "", (int)u->target_len, u->target, host);
	if (!has_header(req, "User-Agent"))
		fprintf(m, "User-Agent: ebsbench/%s\r\n", EBSBENCH_VERSION);
	for (i = 0; i < req->header_count; i++)
		fprintf(m, "%s: %s\r\n", req->headers[i].name, req->headers[i].value);
	if (req->method != HTTP_GET)
		fprintf(m, "Content-Length: %" PRIu64 "\r\n", req->body_len);
	fputs("Connection: close\r\n\r\n", m);
	/* fclose() alone may not report a failed fprintf(). */
	if ((ferror(m) | fclose(m)) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The body from the file, in chunks; a file shorter than body_len fails
 * here, before the last bytes, so the server never stores a short object. */
static int send_file_body(struct stream *s, const struct http_request *req, struct net_fail *f)
{
	char *chunk = malloc(HTTP_FILE_CHUNK);
	uint64_t done = 0;
	int rc = 0;

	if (!chunk) {
		net_fail_set(f, HTTP_FAIL_LOCAL, "out of memory");
		return -1;
	}
	while (rc == 0 && done < req->body_len) {
		uint64_t want = req->body_len - done;
		ssize_t n =
			pread(req->body_fd, chunk, want < HTTP_FILE_CHUNK ? want : HTTP_FILE_CHUNK,
			      (off_t)(req->body_offset + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			net_fail_set(f, HTTP_FAIL_LOCAL, "reading the body: %s", strerror(errno));
		else if (n == 0)
			net_fail_set(f, HTTP_FAIL_LOCAL,
				     "body file ended after %" PRIu64 " of %" PRIu64 " bytes", done,
				     req->body_len);
		if (n <= 0) {
			rc = -1;
			break;
		}
		rc = stream_write(s, chunk, (size_t)n, f);
		done += (uint64_t)n;
	}
	free(chunk);
	return rc;
}

static int send_request(struct stream *s, const struct http_request *req, const struct url *u,
			struct net_fail *f)
{
	size_t len = 0;
	char *head = build_head(req, u, &len);
	int rc;

	if (!head) {
		net_fail_set(f, HTTP_FAIL_LOCAL, "out of memory");
		return -1;
	}
	rc = stream_write(s, head, len, f);
	free(head);
	if (rc || !req->body_len)
		return rc;
	if (req->body)
		return stream_write(s, req->body, (size_t)req->body_len, f);
	return send_file_body(s, req, f);
}

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
	n = stream_read(r->s, r->buf + r->end, sizeof(r->buf) - r->end, r->f);
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
	return stream_read(r->s, out, len, r->f);
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

static int read_response(struct stream *s, const struct http_request *req,
			 struct http_response *resp, struct net_fail *f)
{
	struct reader *r = calloc(1, sizeof(*r));
	struct framing fr;
	int rc;

	if (!r) {
		net_fail_set(f, HTTP_FAIL_LOCAL, "out of memory");
		return -1;
	}
	r->s = s;
	r->f = f;
	rc = read_head(r, resp, &fr);
	if (rc == 0) {
		resp->content_length = fr.chunked ? -1 : fr.length;
		rc = read_body(r, resp, &fr, req->body_max ? req->body_max : HTTP_BODY_MAX_DEFAULT);
	}
	free(r);
	return rc;
}

/* A server may answer (say, 403) and close before taking the whole body;
 * then the write fails but its answer is the better error.  A success
 * before the body was complete cannot be trusted and is not taken. */
static void early_response(struct stream *s, const struct http_request *req,
			   struct http_response *resp, struct net_fail *f)
{
	struct net_fail tmp = { HTTP_OK, NULL, 0 };
	struct http_response early = { .content_length = -1 };

	if (f->kind == HTTP_FAIL_NETWORK && read_response(s, req, &early, &tmp) == 0 &&
	    early.status >= 300) {
		http_response_free(resp);
		*resp = early;
		f->kind = HTTP_OK;
		if (f->len)
			f->msg[0] = '\0';
		return;
	}
	http_response_free(&early);
}

static void set_limits(const struct http_request *req, struct net_limits *lim)
{
	lim->connect_ms = req->connect_timeout_ms > 0 ? req->connect_timeout_ms
						      : HTTP_CONNECT_TIMEOUT_MS_DEFAULT;
	lim->io_ms = req->io_timeout_ms > 0 ? req->io_timeout_ms : HTTP_IO_TIMEOUT_MS_DEFAULT;
	lim->deadline_ns = req->total_timeout_ms > 0
				   ? clock_now_ns() + (uint64_t)req->total_timeout_ms * 1000000u
				   : 0;
}

int http_request(const struct http_request *req, struct http_response *resp, char *err,
		 size_t errlen)
{
	struct net_fail f = { HTTP_OK, err, errlen };
	struct net_limits lim;
	struct url u;

	memset(resp, 0, sizeof(*resp));
	resp->content_length = -1;
	if (errlen)
		err[0] = '\0';
	set_limits(req, &lim);
	if (check_request(req, &u, &f) == 0) {
		struct stream *s = stream_open(
			&u, &lim, req->ca_file ? req->ca_file : HTTP_CA_FILE_DEFAULT, &f);
		if (s && send_request(s, req, &u, &f) == 0)
			read_response(s, req, resp, &f);
		else if (s)
			early_response(s, req, resp, &f);
		stream_close(s);
	}
	if (f.kind != HTTP_OK) { /* nothing half-parsed is left to mislead */
		http_response_free(resp);
		memset(resp, 0, sizeof(*resp));
		resp->content_length = -1;
	}
	resp->kind = f.kind;
	return f.kind == HTTP_OK ? 0 : -1;
}
