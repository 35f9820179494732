/* net.h - the network floor: URLs (and their redaction), and one HTTP/1.1
 * exchange per connection over TCP or verified TLS (transport.h: tcp.c,
 * tls.c).  Used by upload/ and by ebsbench-init (IMDS), which links
 * tls_none.c for tls.c and so carries no mbedTLS. */
#ifndef EBSBENCH_NET_FACE_H
#define EBSBENCH_NET_FACE_H

#include "net/url.h"
#include "net/http.h"

#endif
