/* fail.h - why a request got no response: the failure classes that TCP,
 * TLS and HTTP all report, and the first failure of a request with its
 * one-line reason (net_fail_set, net/internal.h, records it).  The lowest
 * net header, so tcp.h and tls.h need nothing above them. */
#ifndef EBSBENCH_NET_FAIL_H
#define EBSBENCH_NET_FAIL_H

#include <stddef.h>

/* Why no response came back.  HTTP_OK means one did: see its status. */
enum http_failure {
	HTTP_OK = 0,
	HTTP_FAIL_USAGE,      /* bad URL, header or request: fix the caller */
	HTTP_FAIL_LOCAL,      /* CA file, body file or memory on this side */
	HTTP_FAIL_DNS,	      /* the name did not resolve */
	HTTP_FAIL_CONNECT,    /* refused or unreachable */
	HTTP_FAIL_TIMEOUT,    /* a wait ran past its limit */
	HTTP_FAIL_NETWORK,    /* reset or closed in the middle of the exchange */
	HTTP_FAIL_TLS,	      /* the TLS handshake failed */
	HTTP_FAIL_TLS_VERIFY, /* the server's certificate was rejected */
	HTTP_FAIL_PROTOCOL,   /* the reply is not HTTP/1.x as we read it */
};

/* The first failure of a request with its class; what fails after it is
 * usually a consequence, so later calls do not overwrite it. */
struct net_fail {
	enum http_failure kind;
	char *msg;
	size_t len;
};

#endif
