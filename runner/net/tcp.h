/* tcp.h - a TCP connection whose every wait has a limit: resolve and
 * connect with a bound per address, send all or receive some with the time
 * left, close.  No TLS here: tls.h wraps this, and a binary that speaks
 * only plain HTTP (PID 1, to IMDS) links this alone. */
#ifndef EBSBENCH_NET_TCP_H
#define EBSBENCH_NET_TCP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "net/fail.h"
#include "net/url.h"

struct net_limits {
	int connect_ms;	      /* per address tried */
	int io_ms;	      /* per wait for the peer */
	uint64_t deadline_ns; /* CLOCK_MONOTONIC; 0 means none */
};

struct tcp_conn {
	int fd; /* -1 when not connected */
	struct net_limits lim;
	char peer[URL_HOST_MAX + 8]; /* host:port, for messages */
	/* What the last tcp_send_some()/tcp_recv_some() ran into, kept here
	 * because a layer above (mbedTLS) passes back only its own codes. */
	int io_errno;
	bool timed_out;
};

/* Resolves u's host and connects to each address in turn, each within
 * lim->connect_ms and all before lim->deadline_ns.  0 with c connected, or
 * -1 with f set and c->fd -1. */
int tcp_connect(struct tcp_conn *c, const struct url *u, const struct net_limits *lim,
		struct net_fail *f);

/* Sends some of buf, waiting at most the time left: the count, or -1 with
 * the cause in c (io_errno, timed_out).  Never raises SIGPIPE. */
ssize_t tcp_send_some(struct tcp_conn *c, const void *buf, size_t len);

/* Receives what is there, waiting at most the time left: the count, 0 at
 * end of stream, or -1 with the cause in c. */
ssize_t tcp_recv_some(struct tcp_conn *c, void *buf, size_t len);

/* Turns the cause kept in c into f: "WHAT host:port: timed out ...". */
void tcp_fail(const struct tcp_conn *c, struct net_fail *f, const char *what);

/* Sends all of buf: 0, or -1 with f set. */
int tcp_send_all(struct tcp_conn *c, const void *buf, size_t len, struct net_fail *f);

/* tcp_recv_some() with the failure in f. */
ssize_t tcp_recv(struct tcp_conn *c, void *buf, size_t len, struct net_fail *f);

/* Closes the socket if open; c may be reused by tcp_connect(). */
void tcp_close(struct tcp_conn *c);

#endif
