/* fuzz_http_response.c - what an S3 endpoint sends back: status line,
 * headers, interim 1xx replies, Content-Length, chunked and read-to-close
 * bodies.  The bytes come from memory in pieces of a size the input picks,
 * so reads that end mid-line and mid-chunk are covered as on a socket. */
#include <string.h>
#include <sys/types.h>

#include "net/http_response.h"
#include "input.h"

/* The reply, handed out step bytes at a time. */
struct pieces {
	const uint8_t *data;
	size_t size, pos, step;
};

/* The source callback: at most step bytes a call, 0 once all are out. */
static ssize_t from_pieces(void *source, void *buf, size_t len, struct net_fail *f)
{
	struct pieces *p = source;
	size_t n = p->size - p->pos;

	(void)f;
	if (n > p->step)
		n = p->step;
	if (n > len)
		n = len;
	memcpy(buf, p->data + p->pos, n);
	p->pos += n;
	return (ssize_t)n;
}

/* One input: piece size, body cap, then the bytes of the reply. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t body_caps[] = { 0, 1, 16, 300 };
	struct http_response resp = { .content_length = -1 };
	char err[256];
	struct net_fail f = { HTTP_OK, err, sizeof(err) };
	struct pieces p;

	if (size < 2)
		return 0;
	/* First byte: piece size (1..256); second: the body cap. */
	p = (struct pieces){ data + 2, size - 2, 0, (size_t)data[0] + 1 };
	(void)http_response_read(from_pieces, &p, body_caps[data[1] % 4], &resp, &f);
	resp.kind = f.kind;
	(void)http_should_retry(&resp);
	http_response_free(&resp);
	return 0;
}
