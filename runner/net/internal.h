/* internal.h - what net/'s files share among themselves and nothing outside
 * net/ calls: recording a request's first failure, a failure kind's name,
 * and the Host header a URL asks for.  The face (net/net.h) never includes
 * it. */
#ifndef EBSBENCH_NET_INTERNAL_H
#define EBSBENCH_NET_INTERNAL_H

#include <stddef.h>

#include "net/fail.h"
#include "net/url.h"

/* fail.c: a request's first failure, kept. */
/* Records kind and the formatted reason in f, unless f already holds a
 * failure. */
__attribute__((format(printf, 3, 4))) void net_fail_set(struct net_fail *f, enum http_failure kind,
							const char *fmt, ...);

/* http.c: a failure kind by name. */
/* Short lower-case name of a failure kind, for logs and JSON. */
const char *http_failure_name(enum http_failure kind);

/* url.c: the Host header. */
/* The Host header value: the host (bracketed if IPv6), plus ":port" only when
 * the port is not the scheme's default, which is how AWS SDKs sign it.
 * Returns the length, or -1 if buf is too small. */
int url_host_header(const struct url *u, char *buf, size_t len);

#endif
