/* fuzz_s3_list.c - a ListObjectsV2 page (keys, sizes, the continuation
 * token), read by `ebsbench fetch`, each key then judged as a file name,
 * into a token buffer of the size fetch uses and of one byte. */
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "upload/upload.h"
#include "upload/internal.h"

/* Stops the page at a key that would leave the directory, as fetch does. */
static int judge(const char *key, uint64_t size, void *ctx)
{
	(void)size;
	(void)ctx;
	return s3_fetch_safe_name(key) ? 0 : 1;
}

/* One input: a ListObjectsV2 response body. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *xml = fuzz_cstring(data, size);
	char token[4096], tiny[1];

	(void)s3_fetch_parse_list(xml, judge, NULL, token, sizeof(token));
	(void)s3_fetch_parse_list(xml, judge, NULL, tiny, sizeof(tiny));
	free(xml);
	return 0;
}
