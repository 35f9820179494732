/* fuzz_ebs_stats_page.c - the EBS statistics log page 0xD0 taken before and
 * after a phase (the input is the two pages, one after the other), their
 * delta and the verdict on who throttled. */
#include <stdlib.h>

#include "device/ebs_stats.h"
#include "input.h"

/* One input: the page before, then the page after (each 4096 bytes). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ebs_stats *s = malloc(3 * sizeof(*s));
	struct ebs_throttle_verdict v;
	size_t first = size < EBS_STATS_PAGE_BYTES ? size : EBS_STATS_PAGE_BYTES;

	if (!s)
		abort();
	if (ebs_stats_parse(data, first, &s[0]) == EBS_STATS_OK &&
	    ebs_stats_parse(data + first, size - first, &s[1]) == EBS_STATS_OK &&
	    ebs_stats_delta(&s[0], &s[1], &s[2]) == EBS_STATS_OK) {
		ebs_stats_throttle_judge(&s[2], 60000000, &v);
		ebs_stats_throttle_judge(&s[2], 0, &v);
	}
	free(s);
	return 0;
}
