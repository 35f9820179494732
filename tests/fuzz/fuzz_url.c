/* fuzz_url.c - an upload URL from the config: parsing, the Host header,
 * redaction into buffers of every size (a cut result must still hold no
 * secret), and the expiry read from its X-Amz-Date and X-Amz-Expires. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "input.h"
#include "upload/upload.h"
#include "upload/upload_config.h"
#include "upload/upload_request.h"
#include "net/url.h"
#include "net/internal.h"

/* Redacts into a buffer of exactly cap bytes (so ASan sees any overrun). */
static void redact_into(const char *s, size_t cap)
{
	char *out = malloc(cap ? cap : 1);
	if (!out)
		abort();
	(void)url_redact(s, out, cap);
	free(out);
}

/* One input: a URL as an upload block gives it. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_cstring(data, size);
	char shown[256];
	struct url u;
	time_t expires;
	char err[256];

	if (url_parse(s, &u, err, sizeof(err)) == 0) {
		char host[URL_HOST_MAX + 8];
		(void)url_host_header(&u, host, sizeof(host));
		(void)url_host_header(&u, host, 8);
	}
	size_t need = url_redact(s, NULL, 0);
	redact_into(s, need + 1);
	redact_into(s, need / 2);
	redact_into(s, 1);
	(void)upload_config_url_expiry(s, &expires);
	upload_url_shown(s, shown, sizeof(shown));
	free(s);
	return 0;
}
