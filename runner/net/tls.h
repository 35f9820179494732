/* tls.h - the byte stream under HTTP: a TCP connection whose every wait has a
 * limit, optionally wrapped in TLS (mbedTLS) that always verifies the
 * server's certificate chain and host name.  There is deliberately no way
 * to turn verification off. */
#ifndef EBSBENCH_TLS_H
#define EBSBENCH_TLS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "net/http.h"
#include "net/url.h"

/* The first failure of a request with its class; what fails after it is
 * usually a consequence, so later calls do not overwrite it. */
struct net_fail {
	enum http_failure kind;
	char *msg;
	size_t len;
};

__attribute__((format(printf, 3, 4))) void net_fail_set(struct net_fail *f, enum http_failure kind,
							const char *fmt, ...);

struct net_limits {
	int connect_ms;	      /* per address tried */
	int io_ms;	      /* per wait for the peer */
	uint64_t deadline_ns; /* CLOCK_MONOTONIC; 0 means none */
};

struct stream;

/* Resolves u's host, connects to each address in turn and, for https,
 * completes a verified handshake against the PEM bundle ca_file.  Returns
 * NULL with f set on failure. */
struct stream *stream_open(const struct url *u, const struct net_limits *lim, const char *ca_file,
			   struct net_fail *f);

/* Writes all of buf: 0, or -1 with f set. */
int stream_write(struct stream *s, const void *buf, size_t len, struct net_fail *f);

/* Reads what is there: > 0 bytes, 0 at end of stream, -1 with f set. */
ssize_t stream_read(struct stream *s, void *buf, size_t len, struct net_fail *f);

void stream_close(struct stream *s);

/* mbedTLS's certificate verification flags in words, e.g. "certificate not
 * trusted, hostname mismatch"; exposed for the unit tests. */
void tls_verify_words(uint32_t flags, char *buf, size_t len);

#endif
