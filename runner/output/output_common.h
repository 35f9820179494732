/* output_common.h - number conventions both fio output forms share. */
#ifndef EBSBENCH_OUTPUT_COMMON_H
#define EBSBENCH_OUTPUT_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "job/job.h"
#include "stats/stats.h"

/* fio keeps runtimes in us and rounds them up to whole ms. */
uint64_t output_runtime_ms(uint64_t ns);
/* fio's stat_calc_dist and stat_calc_lat: a non-zero count never shows as
 * 0 %, it is raised to the smallest figure the format prints. */
double output_percent_of(uint64_t count, uint64_t total, double floor);
/* fio's convert_agg_kbytes_percent, mean truncated to int as there.  With a
 * single job the aggregate is this job's own average bandwidth. */
double output_agg_percent(double mean_kib, uint64_t agg_bytes);
/* ctime(3)'s layout without its newline, in local time as fio prints it. */
void output_format_time(char *buf, size_t len, int64_t unix_ms);
/* unified_rw_reporting's "mixed" direction: read, write and trim as one, on the
 * heap (a direction holds histograms); NULL when out of memory. */
struct direction_stats *output_mixed_direction(const struct job_stats *s);
/* The metric an SNIA steady-state criterion judges: "iops", "bw", "p99". */
const char *output_ss_metric(const struct ss_options *o);

#endif
