/* tls.h - TLS (mbedTLS) over a tcp.h connection, always verifying the
 * server's certificate chain and host name.  There is deliberately no way
 * to turn verification off.  The transport itself is net_tls_transport
 * (transport.h); this header adds what the unit tests look at. */
#ifndef EBSBENCH_NET_TLS_H
#define EBSBENCH_NET_TLS_H

#include <stddef.h>
#include <stdint.h>

/* mbedTLS's certificate verification flags in words, e.g. "certificate not
 * trusted, hostname mismatch"; exposed for the unit tests. */
void tls_verify_words(uint32_t flags, char *buf, size_t len);

#endif
