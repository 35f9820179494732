/* transport.h - what HTTP runs over, as a table of operations (as fio's
 * I/O engines are): plain TCP (tcp.c) and verified TLS (tls.c).  A binary
 * that must not carry mbedTLS links tls_none.c in place of tls.c: the same
 * table, whose open fails with "https is not built into this binary". */
#ifndef EBSBENCH_NET_TRANSPORT_H
#define EBSBENCH_NET_TRANSPORT_H

#include <stddef.h>
#include <sys/types.h>

#include "net/fail.h"
#include "net/tcp.h"
#include "net/url.h"

struct net_transport {
	const char *name;
	/* Connects to u (and, for TLS, completes a verified handshake against
	 * the PEM bundle ca_file): the connection, or NULL with f set. */
	void *(*open)(const struct url *u, const struct net_limits *lim, const char *ca_file,
		      struct net_fail *f);
	/* Writes all of buf: 0, or -1 with f set. */
	int (*send_all)(void *conn, const void *buf, size_t len, struct net_fail *f);
	/* Reads what is there: > 0 bytes, 0 at end of stream, -1 with f set. */
	ssize_t (*recv)(void *conn, void *buf, size_t len, struct net_fail *f);
	/* Closes and frees conn; NULL is a no-op. */
	void (*close)(void *conn);
};

extern const struct net_transport net_tcp_transport; /* tcp.c */
extern const struct net_transport net_tls_transport; /* tls.c or tls_none.c */

#endif
