/* fuzz_mountinfo.c - /proc/self/mountinfo, line by line as discovery reads
 * it (major:minor, the escaped mount point, the source after " - "). */
#include <stdlib.h>
#include <string.h>

#include "device/discover_text.h"
#include "input.h"

#define MAX_LINES 256

/* One input: a mountinfo file; each parsed field must fit its buffer. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstring(data, size);
	char *lines[MAX_LINES];
	size_t n = fuzz_split(text, '\n', lines, MAX_LINES);

	for (size_t i = 0; i < n; i++) {
		struct mount_entry m;
		if (discover_mountinfo_parse_line(lines[i], &m) == 0 &&
		    (strlen(m.point) >= sizeof(m.point) || strlen(m.source) >= sizeof(m.source)))
			abort();
	}
	free(text);
	return 0;
}
