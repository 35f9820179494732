/* fuzz_aws_credentials.c - the shared credentials and config files as
 * botocore reads them, and a credential_process's JSON.  The first line
 * names the section, the second the key, the rest is the INI text; the
 * whole input is also read as a process's output and its first 40 bytes
 * as an Expiration. */
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "upload/upload.h"
#include "upload/internal.h"

enum { F_SECTION, F_KEY, F_TEXT, F_COUNT };

/* One input: SECTION\nKEY\nINI TEXT. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *whole = fuzz_cstring(data, size);
	char *text = fuzz_cstring(data, size);
	char *fields[F_COUNT] = { NULL };
	char stamp[41];
	struct aws_credentials *c = calloc(1, sizeof(*c));
	time_t when;

	if (fuzz_split(text, '\n', fields, F_COUNT) == F_COUNT) {
		char value[AWS_KEY_ID_MAX], tiny[1];
		(void)aws_ini_value(fields[F_TEXT], fields[F_SECTION], fields[F_KEY], value,
				    sizeof(value));
		(void)aws_ini_value(fields[F_TEXT], fields[F_SECTION], fields[F_KEY], tiny,
				    sizeof(tiny));
	}
	if (c) {
		char err[256];
		(void)aws_process_output(c, whole, 1796169600, err, sizeof(err));
	}
	snprintf(stamp, sizeof(stamp), "%s", whole);
	(void)aws_parse_iso_time(stamp, &when);
	free(c);
	free(text);
	free(whole);
	return 0;
}
