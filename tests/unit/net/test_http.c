/* test_http.c - the HTTP client against a scripted server in a child
 * process: bodies arrive intact, every response framing is read, a stalled
 * server costs a timeout and never a hang, and failures are classified.
 * TLS against a real server is tested end to end with nginx elsewhere. */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <mbedtls/x509.h>

#include "check.h"
#include "lib/clock.h"
#include "net/http.h"
#include "net/tls.h"
#include "net/internal.h"

/* What the server does with its one connection. */
struct script {
	bool whole_request; /* read head and body first, else answer the first bytes */
	const char *reply;  /* NULL: never answer */
	bool hold_open;	    /* after the reply, keep the connection open: a stall */
};

struct server {
	pid_t pid;
	unsigned port;
	int seen; /* read end of a pipe: the request as the server got it */
	char base[64];
};

static int listen_local(unsigned *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) || listen(fd, 4) ||
	    getsockname(fd, (struct sockaddr *)&a, &len))
		abort();
	*port = ntohs(a.sin_port);
	return fd;
}

static void write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

/* realloc() or abort: a test has no use for running out of memory. */
static char *grow(char *buf, size_t size)
{
	char *p = realloc(buf, size);

	if (!p)
		abort();
	return p;
}

/* The head up to the blank line, then as many bytes as its Content-Length. */
static char *read_request(int c, size_t *len)
{
	size_t cap = 1 << 16, need = (size_t)-1;
	char *buf = grow(NULL, cap);

	*len = 0;
	while (*len < need) {
		ssize_t n;
		char *end;

		if (*len == cap)
			buf = grow(buf, cap *= 2);
		n = read(c, buf + *len, cap - *len);
		if (n <= 0)
			break;
		*len += (size_t)n;
		end = memmem(buf, *len, "\r\n\r\n", 4);
		if (end && need == (size_t)-1) {
			const char *cl = memmem(buf, (size_t)(end - buf), "Content-Length: ", 16);

			need = (size_t)(end + 4 - buf) + (cl ? strtoull(cl + 16, NULL, 10) : 0);
		}
	}
	return buf;
}

static void serve(int lfd, int seen, const struct script *sc)
{
	int c;
	size_t len = 0;
	char *req = NULL, b[4096];

	alarm(10); /* never outlive a broken test */
	signal(SIGPIPE, SIG_IGN);
	c = accept(lfd, NULL, NULL);
	if (c < 0)
		_exit(1);
	if (sc->whole_request)
		req = read_request(c, &len);
	else if (sc->reply && read(c, b, sizeof(b)) < 0)
		_exit(1);
	if (sc->reply) {
		/* In two writes with a pause: the client must reassemble. */
		size_t half = strlen(sc->reply) / 2;

		write_all(c, sc->reply, half);
		usleep(20000);
		write_all(c, sc->reply + half, strlen(sc->reply) - half);
		if (!sc->hold_open)
			shutdown(c, SHUT_WR);
	}
	/* Until the client closes: closing on unread bytes would reset. */
	while (read(c, b, sizeof(b)) > 0)
		;
	if (req)
		write_all(seen, req, len);
	_exit(0);
}

static void server_start(struct server *sv, const struct script *sc)
{
	int lfd = listen_local(&sv->port), p[2];

	if (pipe(p))
		abort();
	sv->pid = fork();
	if (sv->pid < 0)
		abort();
	if (sv->pid == 0) {
		close(p[0]);
		serve(lfd, p[1], sc);
	}
	close(lfd);
	close(p[1]);
	sv->seen = p[0];
	snprintf(sv->base, sizeof(sv->base), "http://127.0.0.1:%u", sv->port);
}

/* The request as the server received it (NUL-terminated); reaps the child. */
static char *server_finish(struct server *sv, size_t *len)
{
	size_t cap = 1 << 16;
	char *buf = grow(NULL, cap + 1);
	ssize_t n;

	*len = 0;
	while ((n = read(sv->seen, buf + *len, cap - *len)) > 0) {
		*len += (size_t)n;
		if (*len == cap)
			buf = grow(buf, (cap *= 2) + 1);
	}
	buf[*len] = '\0';
	close(sv->seen);
	waitpid(sv->pid, NULL, 0);
	return buf;
}

/* One scripted exchange: runs req against a fresh server at path. */
static char *exchange(const struct script *sc, struct http_request *req, const char *path,
		      struct http_response *resp, char *err, size_t *seen_len)
{
	struct server sv;
	char url[256];

	server_start(&sv, sc);
	snprintf(url, sizeof(url), "%s%s", sv.base, path);
	req->url = url;
	http_request(req, resp, err, 256);
	req->url = NULL;
	return server_finish(&sv, seen_len);
}

static char *pattern(size_t n)
{
	char *p = malloc(n);
	size_t i;

	for (i = 0; p && i < n; i++)
		p[i] = (char)('a' + (i * 7 + i / 251) % 26);
	return p;
}

/* The body part of what the server saw: its length, or -1 without a head. */
static long body_len(const char *seen, size_t len)
{
	const char *end = strstr(seen, "\r\n\r\n");

	return end ? (long)(len - (size_t)(end + 4 - seen)) : -1;
}

static const char ok_reply[] = "HTTP/1.1 200 OK\r\nETag: \"9b2cf5\"\r\nContent-Length: 0\r\n\r\n";

static void test_put_from_memory(struct checks *checks)
{
	const struct script sc = { true, ok_reply, false };
	const struct http_header hdrs[] = { { "Content-Type", "application/json" },
					    { "x-amz-meta-run", "r1" } };
	struct http_request req = { .method = HTTP_PUT, .headers = hdrs, .header_count = 2 };
	struct http_response resp;
	char err[256], *seen, *body = pattern(100000);
	size_t len;

	req.body = body;
	req.body_len = 100000;
	seen = exchange(&sc, &req, "/k%20ey?X-Amz-Signature=a%2Fb&x=1", &resp, err, &len);
	CHECK(resp.kind == HTTP_OK);
	CHECK_EQ_U64(resp.status, 200);
	CHECK(strcmp(resp.reason, "OK") == 0);
	CHECK(strcmp(resp.etag, "\"9b2cf5\"") == 0);
	CHECK(resp.content_length == 0 && resp.body_len == 0);
	/* The target exactly as given: a re-encoded signature is invalid. */
	CHECK(strncmp(seen, "PUT /k%20ey?X-Amz-Signature=a%2Fb&x=1 HTTP/1.1\r\n", 48) == 0);
	CHECK(strstr(seen, "\r\nHost: 127.0.0.1:") != NULL);
	CHECK(strstr(seen, "\r\nContent-Length: 100000\r\n") != NULL);
	CHECK(strstr(seen, "\r\nConnection: close\r\n") != NULL);
	CHECK(strstr(seen, "\r\nContent-Type: application/json\r\n") != NULL);
	CHECK(strstr(seen, "\r\nx-amz-meta-run: r1\r\n") != NULL);
	CHECK(body_len(seen, len) == 100000);
	CHECK(memcmp(seen + len - 100000, body, 100000) == 0);
	http_response_free(&resp);
	free(seen);
	free(body);
}

static int temp_file(const char *data, size_t n)
{
	char path[] = "/tmp/ebsbench-http-XXXXXX";
	int fd = mkstemp(path);

	if (fd < 0 || (size_t)write(fd, data, n) != n)
		abort();
	unlink(path);
	lseek(fd, 0, SEEK_SET);
	return fd;
}

static void test_put_from_fd(struct checks *checks)
{
	const struct script sc = { true, ok_reply, false };
	const size_t size = 3 << 20, off = 7;
	char err[256], *seen, *data = pattern(size);
	int fd = temp_file(data, size);
	struct http_request req = { .method = HTTP_PUT, .body_fd = fd, .body_offset = off };
	struct http_response resp;
	size_t len;

	req.body_len = size - off;
	seen = exchange(&sc, &req, "/big", &resp, err, &len);
	CHECK(resp.kind == HTTP_OK && resp.status == 200);
	CHECK(body_len(seen, len) == (long)(size - off));
	CHECK(memcmp(seen + len - (size - off), data + off, size - off) == 0);
	CHECK(lseek(fd, 0, SEEK_CUR) == 0); /* pread: a retry can reuse the fd */
	http_response_free(&resp);
	free(seen);

	/* A file shorter than the promised length fails and sends no more. */
	req.body_len = size;
	seen = exchange(&sc, &req, "/big", &resp, err, &len);
	CHECK(resp.kind == HTTP_FAIL_LOCAL);
	CHECK(strstr(err, "ended after") != NULL);
	CHECK(body_len(seen, len) >= 0 && body_len(seen, len) < (long)size);
	CHECK(!http_should_retry(&resp));
	http_response_free(&resp);
	free(seen);
	close(fd);
	free(data);
}

/* A GET against a server that answers with reply; the response is in resp. */
static void get(const char *reply, bool hold_open, struct http_request *req,
		struct http_response *resp, char *err)
{
	const struct script sc = { true, reply, hold_open };
	size_t len;

	req->method = HTTP_GET;
	free(exchange(&sc, req, "/", resp, err, &len));
}

static void test_response_framings(struct checks *checks)
{
	struct http_request req = { .io_timeout_ms = 2000 };
	struct http_response resp;
	char err[256];

	get("HTTP/1.1 404 Not Found\r\nContent-Type: application/xml\r\nContent-Length: 24\r\n"
	    "\r\n<Error>NoSuchKey</Error>",
	    false, &req, &resp, err);
	CHECK(resp.kind == HTTP_OK && resp.status == 404);
	CHECK(resp.content_length == 24);
	CHECK(strcmp(resp.content_type, "application/xml") == 0);
	CHECK(strcmp(resp.body, "<Error>NoSuchKey</Error>") == 0);
	CHECK(!http_should_retry(&resp));
	http_response_free(&resp);

	get("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n"
	    "7;ext=1\r\n, world\r\n0\r\nX-Trailer: t\r\n\r\n",
	    false, &req, &resp, err);
	CHECK(resp.kind == HTTP_OK && resp.status == 200);
	CHECK(resp.content_length == -1);
	CHECK(resp.body && strcmp(resp.body, "hello, world") == 0);
	http_response_free(&resp);

	get("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nall of it, to the close", false,
	    &req, &resp, err);
	CHECK(resp.kind == HTTP_OK && resp.body &&
	      strcmp(resp.body, "all of it, to the close") == 0);
	http_response_free(&resp);

	/* An interim 100 Continue is skipped. */
	get("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok",
	    false, &req, &resp, err);
	CHECK(resp.status == 201 && strcmp(resp.body, "ok") == 0);
	http_response_free(&resp);
}

static void test_body_cap(struct checks *checks)
{
	struct http_request req = { .body_max = 10 };
	struct http_response resp;
	char err[256];

	get("HTTP/1.1 200 OK\r\nContent-Length: 26\r\n\r\nabcdefghijklmnopqrstuvwxyz", false, &req,
	    &resp, err);
	CHECK(resp.kind == HTTP_OK && resp.body_truncated);
	CHECK(resp.body_len == 10 && strcmp(resp.body, "abcdefghij") == 0);
	http_response_free(&resp);
}

static void test_statuses(struct checks *checks)
{
	struct http_request req = { 0 };
	struct http_response resp;
	char err[256];

	/* Not followed: the 3xx and its Location come back. */
	get("HTTP/1.1 307 Temporary Redirect\r\nLocation: http://127.0.0.1:1/elsewhere\r\n"
	    "Content-Length: 0\r\n\r\n",
	    false, &req, &resp, err);
	CHECK(resp.kind == HTTP_OK && resp.status == 307);
	CHECK(strcmp(resp.location, "http://127.0.0.1:1/elsewhere") == 0);
	http_response_free(&resp);

	get("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n", false, &req, &resp,
	    err);
	CHECK(resp.kind == HTTP_OK && resp.status == 500);
	CHECK(strcmp(resp.reason, "Internal Server Error") == 0);
	CHECK(http_should_retry(&resp));
	http_response_free(&resp);

	get("HTTP/1.1 503 Slow Down\r\nContent-Length: 0\r\n\r\n", false, &req, &resp, err);
	CHECK(resp.status == 503 && http_should_retry(&resp));
	http_response_free(&resp);

	get("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n", false, &req, &resp, err);
	CHECK(resp.status == 403 && !http_should_retry(&resp));
	http_response_free(&resp);
}

static void test_broken_responses(struct checks *checks)
{
	struct http_request req = { .io_timeout_ms = 2000 };
	struct http_response resp;
	char err[256];

	get("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this", false, &req, &resp, err);
	CHECK(resp.kind == HTTP_FAIL_NETWORK && resp.status == 0 && !resp.body);
	CHECK(strstr(err, "closed after 9 of 100 body bytes") != NULL);
	CHECK(http_should_retry(&resp));

	get("SSH-2.0-OpenSSH\r\n\r\n", false, &req, &resp, err);
	CHECK(resp.kind == HTTP_FAIL_PROTOCOL);
	CHECK(!http_should_retry(&resp));

	get("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", false, &req, &resp, err);
	CHECK(resp.kind == HTTP_FAIL_PROTOCOL && strstr(err, "chunk size") != NULL);

	get("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello", false, &req,
	    &resp, err);
	CHECK(resp.kind == HTTP_FAIL_PROTOCOL);

	get("", false, &req, &resp, err);
	CHECK(resp.kind == HTTP_FAIL_NETWORK && strstr(err, "status line") != NULL);
}

/* Runs req against a server that accepts and never answers; returns the
 * seconds it took. */
static double stalled(const struct script *sc, struct http_request *req, struct http_response *resp,
		      char *err)
{
	uint64_t t0 = clock_now_ns();
	size_t len;

	req->method = HTTP_GET;
	free(exchange(sc, req, "/", resp, err, &len));
	return (double)(clock_now_ns() - t0) / 1e9;
}

static void test_timeouts(struct checks *checks)
{
	const struct script never = { false, NULL, false };
	const struct script mid_body = { true, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npart",
					 true };
	struct http_request req = { .io_timeout_ms = 500 };
	struct http_response resp;
	char err[256];
	double s;

	s = stalled(&never, &req, &resp, err);
	CHECK(resp.kind == HTTP_FAIL_TIMEOUT && strstr(err, "timed out") != NULL);
	CHECK(s >= 0.45 && s < 2.0);
	CHECK(http_should_retry(&resp));

	s = stalled(&mid_body, &req, &resp, err);
	CHECK(resp.kind == HTTP_FAIL_TIMEOUT);
	CHECK(s >= 0.45 && s < 2.0);

	/* The request's own limit cuts a long per-wait limit short. */
	req.io_timeout_ms = 10000;
	req.total_timeout_ms = 300;
	s = stalled(&never, &req, &resp, err);
	CHECK(resp.kind == HTTP_FAIL_TIMEOUT && strstr(err, "time limit") != NULL);
	CHECK(s >= 0.25 && s < 2.0);
}

/* A port nothing listens on: bound, then closed. */
static unsigned dead_port(void)
{
	unsigned port;

	close(listen_local(&port));
	return port;
}

/* A listener whose accept queue is full: the kernel drops further SYNs, so
 * a connect neither succeeds nor fails until its timeout. */
static int full_listener(unsigned *port, int filler[3])
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = listen_local(port), i;

	listen(fd, 0);
	a.sin_port = htons((uint16_t)*port);
	for (i = 0; i < 3; i++) {
		filler[i] = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
		connect(filler[i], (struct sockaddr *)&a, sizeof(a));
	}
	usleep(50000);
	return fd;
}

static void test_connect_timeout(struct checks *checks)
{
	struct http_request req = { .method = HTTP_GET, .connect_timeout_ms = 300 };
	struct http_response resp;
	char url[64], err[256];
	unsigned port;
	int filler[3], fd = full_listener(&port, filler), i;
	uint64_t t0 = clock_now_ns();
	double s;

	snprintf(url, sizeof(url), "http://127.0.0.1:%u/", port);
	req.url = url;
	http_request(&req, &resp, err, sizeof(err));
	s = (double)(clock_now_ns() - t0) / 1e9;
	CHECK(resp.kind == HTTP_FAIL_TIMEOUT && strstr(err, "connecting to") != NULL);
	CHECK(s >= 0.25 && s < 2.0);
	for (i = 0; i < 3; i++)
		close(filler[i]);
	close(fd);
}

static void test_connect_failures(struct checks *checks)
{
	struct http_request req = { .method = HTTP_GET };
	struct http_response resp;
	char url[128], err[256];

	snprintf(url, sizeof(url), "http://127.0.0.1:%u/x?X-Amz-Signature=secret", dead_port());
	req.url = url;
	CHECK(http_request(&req, &resp, err, sizeof(err)) == -1);
	CHECK(resp.kind == HTTP_FAIL_CONNECT && resp.status == 0);
	CHECK(strstr(err, "refused") != NULL && strstr(err, "secret") == NULL);
	CHECK(strstr(err, "(127.0.0.1)") != NULL);
	CHECK(http_should_retry(&resp));
	CHECK(strcmp(http_failure_name(resp.kind), "connect") == 0);

	req.url = "http://nonexistent.invalid/";
	CHECK(http_request(&req, &resp, err, sizeof(err)) == -1);
	CHECK(resp.kind == HTTP_FAIL_DNS && strstr(err, "nonexistent.invalid") != NULL);
}

static void test_usage_errors(struct checks *checks)
{
	const struct http_header crlf[] = { { "X-A", "1\r\nX-Injected: 2" } };
	const struct http_header host[] = { { "host", "evil" } };
	struct http_request req = { .method = HTTP_PUT, .url = "http://h/k" };
	struct http_response resp;
	char err[256];

	req.url = "https://user:pw@h/k?X-Amz-Signature=secret";
	CHECK(http_request(&req, &resp, err, sizeof(err)) == -1 && resp.kind == HTTP_FAIL_USAGE);
	CHECK(strstr(err, "credentials") && !strstr(err, "secret") && !strstr(err, "pw"));
	req.url = "http://h/k";
	req.headers = crlf;
	req.header_count = 1;
	CHECK(http_request(&req, &resp, err, sizeof(err)) == -1 && resp.kind == HTTP_FAIL_USAGE);
	CHECK(strstr(err, "X-A") && !strstr(err, "Injected"));
	req.headers = host;
	CHECK(http_request(&req, &resp, err, sizeof(err)) == -1 && strstr(err, "Host"));
	req.header_count = 0;
	req.method = HTTP_GET;
	req.body = "x";
	req.body_len = 1;
	CHECK(http_request(&req, &resp, err, sizeof(err)) == -1 && resp.kind == HTTP_FAIL_USAGE);
}

static void test_tls_failures(struct checks *checks)
{
	const struct script plain = { false, "HTTP/1.1 400 Bad Request\r\n\r\n", false };
	struct http_request req = { .method = HTTP_GET, .io_timeout_ms = 2000 };
	struct http_response resp;
	struct server sv;
	char url[128], err[256];
	size_t len;

	/* https:// to a plain-HTTP server: a TLS failure, at once. */
	server_start(&sv, &plain);
	snprintf(url, sizeof(url), "https://localhost:%u/", sv.port);
	req.url = url;
	CHECK(http_request(&req, &resp, err, sizeof(err)) == -1);
	CHECK(resp.kind == HTTP_FAIL_TLS && strstr(err, "plain HTTP") != NULL);
	CHECK(!http_should_retry(&resp));
	free(server_finish(&sv, &len));

	/* A CA bundle that is not there fails before any connection. */
	snprintf(url, sizeof(url), "https://localhost:%u/", dead_port());
	req.ca_file = "/nonexistent/ca.pem";
	CHECK(http_request(&req, &resp, err, sizeof(err)) == -1);
	CHECK(resp.kind == HTTP_FAIL_LOCAL);
	CHECK(strstr(err, "CA file /nonexistent/ca.pem: No such file or directory") != NULL);

	req.ca_file = "/dev/null";
	CHECK(http_request(&req, &resp, err, sizeof(err)) == -1 && resp.kind == HTTP_FAIL_LOCAL);
	CHECK(strstr(err, "CA file /dev/null") != NULL);
}

static void test_verify_words(struct checks *checks)
{
	char buf[200];

	tls_verify_words(MBEDTLS_X509_BADCERT_NOT_TRUSTED | MBEDTLS_X509_BADCERT_CN_MISMATCH, buf,
			 sizeof(buf));
	CHECK(strcmp(buf, "certificate not trusted, hostname mismatch") == 0);
	tls_verify_words(MBEDTLS_X509_BADCERT_EXPIRED, buf, sizeof(buf));
	CHECK(strcmp(buf, "expired") == 0);
	tls_verify_words(MBEDTLS_X509_BADCERT_EXT_KEY_USAGE | MBEDTLS_X509_BADCRL_EXPIRED, buf,
			 sizeof(buf));
	CHECK(strcmp(buf, "not meant for a TLS server, verify flags 0x20") == 0);
	tls_verify_words(0, buf, sizeof(buf));
	CHECK(strcmp(buf, "verify flags 0x0") == 0);
	tls_verify_words(MBEDTLS_X509_BADCERT_NOT_TRUSTED | MBEDTLS_X509_BADCERT_CN_MISMATCH, buf,
			 12);
	CHECK(strlen(buf) == 11);
}

CHECK_MAIN(test_put_from_memory, test_put_from_fd, test_response_framings, test_body_cap,
	   test_statuses, test_broken_responses, test_timeouts, test_connect_timeout,
	   test_connect_failures, test_usage_errors, test_tls_failures, test_verify_words)
