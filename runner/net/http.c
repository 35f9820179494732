/* http.c - the HTTP/1.1 exchange: write the request with a Content-Length
 * body, read one response (Content-Length, chunked or read-to-close), then
 * close.  One connection per request keeps the state machine small and a
 * retry clean. */
#include "net/http.h"
#include "net/internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "lib/lib.h"
#include "net/http_response.h"
#include "net/transport.h"
#include "net/url.h"

#define HTTP_FILE_CHUNK (256 * 1024)

static const char *const method_names[] = { "GET", "PUT", "POST" };

/* An open connection and the transport it belongs to. */
struct link {
	const struct net_transport *transport;
	void *conn;
};

/* Writes all of buf to the connection: 0, or -1 with f set. */
static int link_send(const struct link *l, const void *buf, size_t len, struct net_fail *f)
{
	return l->transport->send_all(l->conn, buf, len, f);
}

/* The response reader's source: the connection. */
static ssize_t from_link(void *source, void *buf, size_t len, struct net_fail *f)
{
	const struct link *l = source;

	return l->transport->recv(l->conn, buf, len, f);
}

/* One response from the connection, body kept up to req->body_max. */
static int read_response(struct link *l, const struct http_request *req, struct http_response *resp,
			 struct net_fail *f)
{
	return http_response_read(from_link, l, req->body_max, resp, f);
}

const char *http_failure_name(enum http_failure kind)
{
	static const char *const names[] = {
		"ok",	   "usage",   "local", "dns",	     "connect",
		"timeout", "network", "tls",   "tls-verify", "protocol",
	};

	return (unsigned)kind < ARRAY_SIZE(names) ? names[kind] : "unknown";
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
		for (j = 0; j < ARRAY_SIZE(ours); j++)
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
static int send_file_body(const struct link *l, const struct http_request *req, struct net_fail *f)
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
		rc = link_send(l, chunk, (size_t)n, f);
		done += (uint64_t)n;
	}
	free(chunk);
	return rc;
}

static int send_request(const struct link *l, const struct http_request *req, const struct url *u,
			struct net_fail *f)
{
	size_t len = 0;
	char *head = build_head(req, u, &len);
	int rc;

	if (!head) {
		net_fail_set(f, HTTP_FAIL_LOCAL, "out of memory");
		return -1;
	}
	rc = link_send(l, head, len, f);
	free(head);
	if (rc || !req->body_len)
		return rc;
	if (req->body)
		return link_send(l, req->body, (size_t)req->body_len, f);
	return send_file_body(l, req, f);
}

/* A server may answer (say, 403) and close before taking the whole body;
 * then the write fails but its answer is the better error.  A success
 * before the body was complete cannot be trusted and is not taken. */
static void early_response(struct link *l, const struct http_request *req,
			   struct http_response *resp, struct net_fail *f)
{
	struct net_fail tmp = { HTTP_OK, NULL, 0 };
	struct http_response early = { .content_length = -1 };

	if (f->kind == HTTP_FAIL_NETWORK && read_response(l, req, &early, &tmp) == 0 &&
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

/* Opens a connection over the URL's transport (TLS for https://, which a
 * binary built without TLS refuses), sends the request, reads the reply and
 * closes. */
static void exchange(const struct http_request *req, const struct url *u,
		     const struct net_limits *lim, struct http_response *resp, struct net_fail *f)
{
	struct link l = { u->https ? &net_tls_transport : &net_tcp_transport, NULL };

	l.conn = l.transport->open(u, lim, req->ca_file ? req->ca_file : HTTP_CA_FILE_DEFAULT, f);
	if (!l.conn)
		return;
	if (send_request(&l, req, u, f) == 0)
		read_response(&l, req, resp, f);
	else
		early_response(&l, req, resp, f);
	l.transport->close(l.conn);
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
	if (check_request(req, &u, &f) == 0)
		exchange(req, &u, &lim, resp, &f);
	if (f.kind != HTTP_OK) { /* nothing half-parsed is left to mislead */
		http_response_free(resp);
		memset(resp, 0, sizeof(*resp));
		resp->content_length = -1;
	}
	resp->kind = f.kind;
	return f.kind == HTTP_OK ? 0 : -1;
}
