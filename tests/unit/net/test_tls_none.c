/* test_tls_none.c - the HTTP client as ebsbench-init links it: only the
 * net objects init takes, tls_none.o for tls.o, and no mbedTLS library on
 * the link line (the Makefile's own rule for this test), so a net object
 * that needs mbedTLS fails this link.  Plain HTTP works against a real
 * server on 127.0.0.1; https:// fails at once with a clear reason. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "net/http.h"

static const char reply[] = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello";

/* A child that answers one connection with reply; its pid, port in *port. */
static pid_t serve_once(unsigned *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), c;
	char buf[4096];
	pid_t pid;

	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) || listen(fd, 4) ||
	    getsockname(fd, (struct sockaddr *)&a, &len))
		abort();
	*port = ntohs(a.sin_port);
	pid = fork();
	if (pid < 0)
		abort();
	if (pid > 0) {
		close(fd);
		return pid;
	}
	alarm(10); /* never outlive a broken test */
	c = accept(fd, NULL, NULL);
	if (c < 0 || read(c, buf, sizeof(buf)) <= 0 ||
	    write(c, reply, sizeof(reply) - 1) != (ssize_t)sizeof(reply) - 1)
		_exit(1);
	close(c);
	_exit(0);
}

static void test_plain_http_works(struct checks *checks)
{
	struct http_request req = { .method = HTTP_GET, .io_timeout_ms = 2000 };
	struct http_response resp;
	char url[64], err[256];
	unsigned port;
	pid_t pid = serve_once(&port);
	int status = -1;

	snprintf(url, sizeof(url), "http://127.0.0.1:%u/latest/api/token", port);
	req.url = url;
	CHECK(http_request(&req, &resp, err, sizeof(err)) == 0);
	CHECK(resp.status == 200 && resp.body_len == 5 && resp.body &&
	      strcmp(resp.body, "hello") == 0);
	http_response_free(&resp);
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void test_https_refused(struct checks *checks)
{
	struct http_request req = { .method = HTTP_GET, .url = "https://127.0.0.1:1/x" };
	struct http_response resp;
	char err[256];

	CHECK(http_request(&req, &resp, err, sizeof(err)) == -1);
	CHECK(resp.kind == HTTP_FAIL_USAGE && resp.status == 0);
	CHECK(strcmp(err, "https is not built into this binary") == 0);
	CHECK(!http_should_retry(&resp));
	http_response_free(&resp);
}

CHECK_MAIN(test_plain_http_works, test_https_refused)
