/* tcp.c - TCP with bounded waits, and the plain (http://) transport.
 *
 * Sockets are non-blocking and every wait is a poll() with the smaller of
 * the per-wait limit and the request's deadline, so a peer that stalls
 * costs a timeout, never a hang.  Sends use MSG_NOSIGNAL: a peer that
 * resets must not kill us with SIGPIPE. */
#include "net/tcp.h"
#include "net/internal.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib/lib.h"
#include "net/transport.h"

/* Waits for events on fd for at most limit_ms, less if the deadline comes
 * first: 1 when ready (errors count: the next call reports them), 0 when
 * the time ran out, -1 on a poll error. */
static int wait_fd(int fd, short events, int limit_ms, uint64_t deadline_ns)
{
	uint64_t end = clock_now_ns() + (uint64_t)limit_ms * 1000000u;

	if (deadline_ns && deadline_ns < end)
		end = deadline_ns;
	for (;;) {
		struct pollfd p = { .fd = fd, .events = events };
		uint64_t now = clock_now_ns();
		int n;

		if (now >= end)
			return 0;
		n = poll(&p, 1, (int)((end - now + 999999) / 1000000));
		if (n > 0)
			return 1;
		if (n < 0 && errno != EINTR)
			return -1;
	}
}

/* Keeps the cause of a failed send or receive in c for tcp_fail(). */
static ssize_t io_fail(struct tcp_conn *c, int err, bool timed_out)
{
	c->io_errno = err;
	c->timed_out = timed_out;
	return -1;
}

/* After EAGAIN: waits for events within the limits; 0 when ready, else -1
 * with the cause in c. */
static int wait_ready(struct tcp_conn *c, short events)
{
	int rc = wait_fd(c->fd, events, c->lim.io_ms, c->lim.deadline_ns);

	if (rc > 0)
		return 0;
	return (int)io_fail(c, rc ? errno : ETIMEDOUT, rc == 0);
}

/* One send (out set) or receive (into in): retried on EINTR, waited for
 * within the limits on EAGAIN.  The count, or -1 with the cause in c. */
static ssize_t io_some(struct tcp_conn *c, const void *out, void *in, size_t len)
{
	for (;;) {
		ssize_t n = out ? send(c->fd, out, len, MSG_NOSIGNAL) : recv(c->fd, in, len, 0);

		if (n >= 0)
			return n;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return io_fail(c, errno, false);
		if (wait_ready(c, out ? POLLOUT : POLLIN))
			return -1;
	}
}

ssize_t tcp_send_some(struct tcp_conn *c, const void *buf, size_t len)
{
	return io_some(c, buf, NULL, len);
}

ssize_t tcp_recv_some(struct tcp_conn *c, void *buf, size_t len)
{
	return io_some(c, NULL, buf, len);
}

/* Whether the request's time limit, if any, has passed. */
static bool past_deadline(const struct net_limits *lim)
{
	return lim->deadline_ns && clock_now_ns() >= lim->deadline_ns;
}

void tcp_fail(const struct tcp_conn *c, struct net_fail *f, const char *what)
{
	if (c->timed_out && past_deadline(&c->lim))
		net_fail_set(f, HTTP_FAIL_TIMEOUT, "%s %s: timed out (request time limit reached)",
			     what, c->peer);
	else if (c->timed_out)
		net_fail_set(f, HTTP_FAIL_TIMEOUT, "%s %s: timed out (nothing for %d ms)", what,
			     c->peer, c->lim.io_ms);
	else
		net_fail_set(f, c->io_errno == ETIMEDOUT ? HTTP_FAIL_TIMEOUT : HTTP_FAIL_NETWORK,
			     "%s %s: %s", what, c->peer, strerror(c->io_errno));
}

/* One address: the connected socket, or -1 with the errno in *err. */
static int connect_addr(const struct addrinfo *ai, const struct net_limits *lim, int *err)
{
	int fd, rc, one = 1, soerr = 0;
	socklen_t sl = sizeof(soerr);

	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
	if (fd < 0) {
		*err = errno;
		return -1;
	}
	/* The head and the body go out in separate writes; Nagle would hold
	 * the body back for the head's delayed ACK. */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
		return fd;
	*err = errno;
	if (*err != EINPROGRESS && *err != EINTR)
		goto fail;
	rc = wait_fd(fd, POLLOUT, lim->connect_ms, lim->deadline_ns);
	*err = rc == 0 ? ETIMEDOUT : errno;
	if (rc <= 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) < 0)
		goto fail;
	*err = soerr;
	if (soerr == 0)
		return fd;
fail:
	close(fd);
	return -1;
}

/* The failure after every address was tried: the last one's cause. */
static void connect_failed(const struct tcp_conn *c, int err, int tried, const char *addr,
			   struct net_fail *f)
{
	enum http_failure kind = err == ETIMEDOUT ? HTTP_FAIL_TIMEOUT : HTTP_FAIL_CONNECT;

	if (tried > 1)
		net_fail_set(f, kind, "connecting to %s: %s (%d addresses tried, the last %s)",
			     c->peer, strerror(err), tried, addr);
	else
		net_fail_set(f, kind, "connecting to %s (%s): %s", c->peer, addr, strerror(err));
}

/* c->peer: host:port, the port always named. */
static void set_peer(struct tcp_conn *c, const struct url *u)
{
	size_t n;

	url_host_header(u, c->peer, sizeof(c->peer));
	n = strlen(c->peer);
	if (u->port == (u->https ? 443u : 80u))
		snprintf(c->peer + n, sizeof(c->peer) - n, ":%u", u->port);
}

int tcp_connect(struct tcp_conn *c, const struct url *u, const struct net_limits *lim,
		struct net_fail *f)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC,
				  .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV };
	struct addrinfo *res, *ai;
	char port[8], addr[NI_MAXHOST] = "?";
	int rc, err = 0, tried = 0;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->lim = *lim;
	set_peer(c, u);
	snprintf(port, sizeof(port), "%u", u->port);
	rc = getaddrinfo(u->host, port, &hints, &res);
	if (rc) {
		net_fail_set(f, HTTP_FAIL_DNS, "resolving %s: %s", u->host,
			     rc == EAI_SYSTEM ? strerror(errno) : gai_strerror(rc));
		return -1;
	}
	/* In the resolver's order (RFC 6724), IPv4 and IPv6 alike. */
	for (ai = res; ai && c->fd < 0 && !past_deadline(&c->lim); ai = ai->ai_next) {
		tried++;
		c->fd = connect_addr(ai, &c->lim, &err);
		if (c->fd < 0)
			getnameinfo(ai->ai_addr, ai->ai_addrlen, addr, sizeof(addr), NULL, 0,
				    NI_NUMERICHOST);
	}
	freeaddrinfo(res);
	if (c->fd >= 0)
		return 0;
	connect_failed(c, tried ? err : ETIMEDOUT, tried, addr, f);
	return -1;
}

int tcp_send_all(struct tcp_conn *c, const void *buf, size_t len, struct net_fail *f)
{
	const unsigned char *p = buf;

	while (len) {
		ssize_t n = tcp_send_some(c, p, len);

		if (n < 0) {
			tcp_fail(c, f, "sending to");
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

ssize_t tcp_recv(struct tcp_conn *c, void *buf, size_t len, struct net_fail *f)
{
	ssize_t n = tcp_recv_some(c, buf, len);

	if (n < 0)
		tcp_fail(c, f, "reading from");
	return n;
}

void tcp_close(struct tcp_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

/* The plain transport's open: a connected tcp_conn on the heap. */
static void *plain_open(const struct url *u, const struct net_limits *lim, const char *ca_file,
			struct net_fail *f)
{
	struct tcp_conn *c = malloc(sizeof(*c));

	(void)ca_file; /* http:// verifies nothing */
	if (!c) {
		net_fail_set(f, HTTP_FAIL_LOCAL, "out of memory");
		return NULL;
	}
	if (tcp_connect(c, u, lim, f)) {
		free(c);
		return NULL;
	}
	return c;
}

static int plain_send_all(void *conn, const void *buf, size_t len, struct net_fail *f)
{
	return tcp_send_all(conn, buf, len, f);
}

static ssize_t plain_recv(void *conn, void *buf, size_t len, struct net_fail *f)
{
	return tcp_recv(conn, buf, len, f);
}

static void plain_close(void *conn)
{
	if (!conn)
		return;
	tcp_close(conn);
	free(conn);
}

const struct net_transport net_tcp_transport = {
	.name = "tcp",
	.open = plain_open,
	.send_all = plain_send_all,
	.recv = plain_recv,
	.close = plain_close,
};
