/* http_response.h - the response half of the HTTP client, apart from the
 * connection: bytes in, a parsed struct http_response out, so the parser can
 * be tested and fuzzed on bytes from memory. */
#ifndef EBSBENCH_HTTP_RESPONSE_H
#define EBSBENCH_HTTP_RESPONSE_H

#include <stddef.h>
#include <sys/types.h>

#include "net/fail.h"
#include "net/http.h"

/* Where response bytes come from: reads up to len into buf and returns > 0
 * bytes, 0 at end of stream, or -1 with f set. */
typedef ssize_t http_read_fn(void *source, void *buf, size_t len, struct net_fail *f);

/* Reads one response (status line, headers, body) from source into resp,
 * keeping at most body_max body bytes (0: HTTP_BODY_MAX_DEFAULT).  resp must
 * start zeroed with content_length -1.  Returns 0, or -1 with f set; resp
 * must be freed with http_response_free() either way. */
int http_response_read(http_read_fn *read, void *source, size_t body_max,
		       struct http_response *resp, struct net_fail *f);

#endif
