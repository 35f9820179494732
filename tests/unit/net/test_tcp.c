/* test_tcp.c - the TCP layer under HTTP, against real sockets on
 * 127.0.0.1 in this process: bytes go both ways, a peer that never
 * answers costs the per-wait limit or the request's deadline (whichever
 * comes first) and never a hang, a peer that closes or resets early is
 * told apart, and a send to a reset peer fails without SIGPIPE. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check.h"
#include "lib/clock.h"
#include "net/tcp.h"
#include "net/transport.h"
#include "net/internal.h"

/* A listener on 127.0.0.1 with a free port; it never accepts by itself. */
static int listen_local(unsigned *port, int backlog)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) || listen(fd, backlog) ||
	    getsockname(fd, (struct sockaddr *)&a, &len))
		abort();
	*port = ntohs(a.sin_port);
	return fd;
}

/* tcp_connect() to http://127.0.0.1:port/ with the given limits. */
static int connect_local(struct tcp_conn *c, unsigned port, const struct net_limits *lim,
			 struct net_fail *f)
{
	char text[64];
	struct url u;

	snprintf(text, sizeof(text), "http://127.0.0.1:%u/", port);
	if (url_parse(text, &u, f->msg, f->len))
		abort();
	return tcp_connect(c, &u, lim, f);
}

static double seconds_since(uint64_t t0)
{
	return (double)(clock_now_ns() - t0) / 1e9;
}

static void test_round_trip(struct checks *checks)
{
	const struct net_limits lim = { 1000, 1000, 0 };
	char err[256] = "", buf[16] = "";
	struct net_fail f = { HTTP_OK, err, sizeof(err) };
	struct tcp_conn c;
	unsigned port;
	int lfd = listen_local(&port, 4), peer;

	CHECK(connect_local(&c, port, &lim, &f) == 0 && c.fd >= 0);
	peer = accept(lfd, NULL, NULL);
	CHECK(peer >= 0);
	CHECK(tcp_send_all(&c, "ping", 4, &f) == 0);
	CHECK(read(peer, buf, sizeof(buf)) == 4 && memcmp(buf, "ping", 4) == 0);
	CHECK(write(peer, "pong!", 5) == 5);
	CHECK(tcp_recv(&c, buf, sizeof(buf), &f) == 5 && memcmp(buf, "pong!", 5) == 0);
	/* A clean close by the peer is the end of the stream, not an error. */
	close(peer);
	CHECK(tcp_recv(&c, buf, sizeof(buf), &f) == 0);
	CHECK(f.kind == HTTP_OK && err[0] == '\0');
	tcp_close(&c);
	CHECK(c.fd == -1);
	close(lfd);
}

/* Connects to a listener that never accepts and reads: the kernel
 * completes the handshake, and then nothing ever comes. */
static double silent_read(const struct net_limits *lim, struct net_fail *f)
{
	struct tcp_conn c;
	unsigned port;
	int lfd = listen_local(&port, 4);
	double s = -1;

	if (connect_local(&c, port, lim, f) == 0) {
		char buf[8];
		uint64_t t0 = clock_now_ns();

		if (tcp_recv(&c, buf, sizeof(buf), f) == -1)
			s = seconds_since(t0);
		tcp_close(&c);
	}
	close(lfd);
	return s;
}

static void test_read_limits(struct checks *checks)
{
	struct net_limits lim = { 1000, 300, 0 };
	char err[256] = "";
	struct net_fail f = { HTTP_OK, err, sizeof(err) };
	double s = silent_read(&lim, &f);

	CHECK(s >= 0.28 && s < 2.0);
	CHECK(f.kind == HTTP_FAIL_TIMEOUT);
	CHECK(strstr(err, "reading from 127.0.0.1:") && strstr(err, "nothing for 300 ms"));

	/* The request's deadline cuts a long per-wait limit short. */
	lim.io_ms = 10000;
	lim.deadline_ns = clock_now_ns() + 300 * 1000000ull;
	f = (struct net_fail){ HTTP_OK, err, sizeof(err) };
	s = silent_read(&lim, &f);
	CHECK(s >= 0.25 && s < 2.0);
	CHECK(f.kind == HTTP_FAIL_TIMEOUT && strstr(err, "request time limit reached"));
}

/* A listener whose accept queue is full: the kernel drops further SYNs, so
 * a connect neither succeeds nor fails until its limit. */
static void test_connect_limit(struct checks *checks)
{
	const struct net_limits lim = { 300, 1000, 0 };
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	char err[256] = "";
	struct net_fail f = { HTTP_OK, err, sizeof(err) };
	struct tcp_conn c;
	unsigned port;
	int lfd = listen_local(&port, 0), filler[3], i;
	uint64_t t0;
	double s;

	a.sin_port = htons((uint16_t)port);
	for (i = 0; i < 3; i++) {
		filler[i] = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
		connect(filler[i], (struct sockaddr *)&a, sizeof(a));
	}
	usleep(50000);
	t0 = clock_now_ns();
	CHECK(connect_local(&c, port, &lim, &f) == -1 && c.fd == -1);
	s = seconds_since(t0);
	CHECK(s >= 0.28 && s < 2.0);
	CHECK(f.kind == HTTP_FAIL_TIMEOUT && strstr(err, "connecting to 127.0.0.1:"));
	for (i = 0; i < 3; i++)
		close(filler[i]);
	close(lfd);
}

static void test_refused(struct checks *checks)
{
	const struct net_limits lim = { 1000, 1000, 0 };
	char err[256] = "", want[128];
	struct net_fail f = { HTTP_OK, err, sizeof(err) };
	struct tcp_conn c;
	unsigned port;

	close(listen_local(&port, 1)); /* nothing listens there now */
	CHECK(connect_local(&c, port, &lim, &f) == -1);
	CHECK(f.kind == HTTP_FAIL_CONNECT);
	snprintf(want, sizeof(want), "connecting to 127.0.0.1:%u (127.0.0.1): %s", port,
		 strerror(ECONNREFUSED));
	CHECK(strcmp(err, want) == 0);
}

/* A peer that resets (SO_LINGER 0, then close) in the middle: a network
 * failure on receive, and a send that fails rather than raise SIGPIPE,
 * which this test leaves at its default (it would end the process). */
static void test_peer_resets(struct checks *checks)
{
	const struct net_limits lim = { 1000, 1000, 0 };
	const struct linger hard = { 1, 0 };
	char err[256] = "", buf[4096] = { 0 };
	struct net_fail f = { HTTP_OK, err, sizeof(err) };
	struct tcp_conn c;
	unsigned port;
	int lfd = listen_local(&port, 4), peer, i, rc = 0;

	CHECK(connect_local(&c, port, &lim, &f) == 0);
	peer = accept(lfd, NULL, NULL);
	setsockopt(peer, SOL_SOCKET, SO_LINGER, &hard, sizeof(hard));
	close(peer);
	usleep(20000);
	CHECK(tcp_recv(&c, buf, sizeof(buf), &f) == -1);
	CHECK(f.kind == HTTP_FAIL_NETWORK && strstr(err, strerror(ECONNRESET)));
	f = (struct net_fail){ HTTP_OK, err, sizeof(err) };
	for (i = 0; i < 100 && rc == 0; i++)
		rc = tcp_send_all(&c, buf, sizeof(buf), &f);
	CHECK(rc == -1 && f.kind == HTTP_FAIL_NETWORK && strstr(err, "sending to 127.0.0.1:"));
	tcp_close(&c);
	close(lfd);
}

/* The first failure stays: what fails after it is a consequence. */
static void test_first_failure_kept(struct checks *checks)
{
	char err[64] = "";
	struct net_fail f = { HTTP_OK, err, sizeof(err) };

	net_fail_set(&f, HTTP_FAIL_DNS, "first %d", 1);
	net_fail_set(&f, HTTP_FAIL_NETWORK, "second");
	CHECK(f.kind == HTTP_FAIL_DNS && strcmp(err, "first 1") == 0);
}

/* http.c's view: the plain transport's table does the same through
 * open/send_all/recv/close. */
static void test_plain_transport(struct checks *checks)
{
	const struct net_transport *t = &net_tcp_transport;
	const struct net_limits lim = { 1000, 1000, 0 };
	char err[256] = "", text[64], buf[8] = "";
	struct net_fail f = { HTTP_OK, err, sizeof(err) };
	struct url u;
	unsigned port;
	int lfd = listen_local(&port, 4), peer;
	void *conn;

	snprintf(text, sizeof(text), "http://127.0.0.1:%u/", port);
	CHECK(url_parse(text, &u, err, sizeof(err)) == 0);
	conn = t->open(&u, &lim, NULL, &f);
	CHECK(conn != NULL);
	if (!conn)
		return;
	peer = accept(lfd, NULL, NULL);
	CHECK(t->send_all(conn, "abc", 3, &f) == 0);
	CHECK(read(peer, buf, sizeof(buf)) == 3 && memcmp(buf, "abc", 3) == 0);
	close(peer);
	CHECK(t->recv(conn, buf, sizeof(buf), &f) == 0 && f.kind == HTTP_OK);
	t->close(conn);
	t->close(NULL);
	close(lfd);
}

CHECK_MAIN(test_round_trip, test_read_limits, test_connect_limit, test_refused, test_peer_resets,
	   test_first_failure_kept, test_plain_transport)
