/* fuzz_s3_error_xml.c - S3's error document (<Error><Code>...</Code>
 * <Message>...</Message>), read for the one-line upload error, into
 * buffers of the sizes the uploader uses and of one byte. */
#include <stdlib.h>

#include "input.h"
#include "upload/upload.h"
#include "upload/upload_body.h"

/* One input: an S3 error response body. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *xml = fuzz_cstring(data, size);
	char code[64], msg[256], tiny_code[1], tiny_msg[1];

	(void)upload_body_s3_error(xml, code, sizeof(code), msg, sizeof(msg));
	(void)upload_body_s3_error(xml, tiny_code, sizeof(tiny_code), tiny_msg, sizeof(tiny_msg));
	free(xml);
	return 0;
}
