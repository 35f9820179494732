/* output_common.c - fio's rounding and percentage conventions, and one job
 * seen as a run. */
#include "output/output_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "output/output.h"
#include "output/internal.h"

uint64_t output_runtime_ms(uint64_t ns)
{
	return (ns / 1000 + 999) / 1000;
}

double output_percent_of(uint64_t count, uint64_t total, double floor)
{
	if (total == 0)
		return 0.0;
	double p = (double)count * 100.0 / (double)total;
	return count && p < floor ? floor : p;
}

double output_agg_percent(double mean_kib, uint64_t agg_bytes)
{
	if (agg_bytes <= 1024)
		return 100.0;
	double p = (double)(int64_t)mean_kib * 100.0 / ((double)agg_bytes / 1024.0);
	return p > 100.0 ? 100.0 : p;
}

void output_format_time(char *buf, size_t len, int64_t unix_ms)
{
	time_t t = (time_t)(unix_ms / 1000);
	struct tm tm;
	if (!localtime_r(&t, &tm) || !strftime(buf, len, "%a %b %e %H:%M:%S %Y", &tm))
		snprintf(buf, len, "%lld", (long long)t);
}

struct direction_stats *output_mixed_direction(const struct job_stats *s)
{
	struct direction_stats *mixed = calloc(1, sizeof(*mixed));
	if (!mixed)
		return NULL;
	for (int d = 0; d < DDIR_COUNT; d++)
		stats_direction_merge(mixed, &s->dir[d]);
	return mixed;
}

void output_run_of_job(struct run_report *run, struct job_report *one, const struct job_options *o,
		       const struct job_stats *s)
{
	*one = (struct job_report){ .o = o, .s = s, .groupid = 0, .jobs = 1 };
	*run = (struct run_report){ .r = one,
				    .n = 1,
				    .disk = &s->disk,
				    .start_unix_ms = s->start_unix_ms,
				    .idle_prof = IDLE_PROF_NONE };
}

const char *output_ss_metric(const struct ss_options *o)
{
	return o->p99 ? "p99" : o->iops ? "iops" : "bw";
}
