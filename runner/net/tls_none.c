/* tls_none.c - the https:// transport of a binary built without TLS
 * (ebsbench-init, which speaks only plain HTTP to IMDS): linked in place
 * of tls.c, so that binary carries no mbedTLS at all.  Opening fails with
 * a clear reason; nothing else is ever reached. */
#include <stddef.h>

#include "net/transport.h"
#include "net/internal.h"

/* Refuses: there is no TLS here to verify a server with. */
static void *no_tls_open(const struct url *u, const struct net_limits *lim, const char *ca_file,
			 struct net_fail *f)
{
	(void)u;
	(void)lim;
	(void)ca_file;
	net_fail_set(f, HTTP_FAIL_USAGE, "https is not built into this binary");
	return NULL;
}

/* Never called: no_tls_open() returns no connection. */
static int no_tls_send_all(void *conn, const void *buf, size_t len, struct net_fail *f)
{
	(void)conn;
	(void)buf;
	(void)len;
	net_fail_set(f, HTTP_FAIL_USAGE, "https is not built into this binary");
	return -1;
}

/* Never called: no_tls_open() returns no connection. */
static ssize_t no_tls_recv(void *conn, void *buf, size_t len, struct net_fail *f)
{
	return no_tls_send_all(conn, buf, len, f);
}

/* Nothing to close. */
static void no_tls_close(void *conn)
{
	(void)conn;
}

const struct net_transport net_tls_transport = {
	.name = "none",
	.open = no_tls_open,
	.send_all = no_tls_send_all,
	.recv = no_tls_recv,
	.close = no_tls_close,
};
