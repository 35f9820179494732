/* fuzz_demand.c - a demand trace file as `ebsbench recommend --demand`
 * reads it: CloudWatch JSON (get-metric-data, get-metric-statistics) or
 * the CSV, told apart by the first byte; each trace read is written back
 * as CSV and read again, and its statistics taken.  The first 40 bytes
 * are also read as a time stamp. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demand/demand.h"
#include "demand/internal.h"
#include "input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct demand_set set = { 0 };
	char err[256], stamp[41];
	double t;

	if (demand_read_text("fuzz", (const char *)data, size, &set, err, sizeof(err)) == 0) {
		for (size_t i = 0; i < set.n; i++) {
			char *buf = NULL;
			size_t len = 0;
			FILE *f = open_memstream(&buf, &len);
			struct demand_set back = { 0 };
			(void)demand_stats_of(&set.v[i]);
			(void)demand_peak_to_mean(&set.v[i], 60);
			if (f) {
				(void)demand_write_csv(f, &set.v[i]);
				fclose(f);
				(void)demand_read_text("back", buf, len, &back, err, sizeof(err));
			}
			demand_set_free(&back);
			free(buf);
		}
	}
	demand_set_free(&set);
	char *whole = fuzz_cstring(data, size);
	snprintf(stamp, sizeof(stamp), "%s", whole);
	(void)demand_parse_time(stamp, &t);
	free(whole);
	return 0;
}
