/* internal.h - what stats/'s files share among themselves and nothing
 * outside stats/ calls: the merges and sums that stats_direction_merge is
 * made of, a histogram's bucket index, and the pieces of the steady-state
 * test and the /proc/stat reader.  The face (stats/stats.h) never includes
 * it. */
#ifndef EBSBENCH_STATS_INTERNAL_H
#define EBSBENCH_STATS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/stats.h"

/* cpu_idle.c: /proc/stat's text read. */
/* Parses /proc/stat's text (for tests); 0, or -1 when it has no "cpu" line. */
int cpu_idle_parse(const char *text, struct cpu_idle_sample *out);

/* histogram.c: the bucket a value falls in. */
unsigned histogram_index(uint64_t value);

/* stats.c: one statistic folded into another. */
/* Folds from's samples into into's, as if one set (Chan's pairwise
 * moments, exact as fio's __sum_stat). */
void stats_running_merge(struct running_stat *into, const struct running_stat *from);
/* fio's sum_stat with pure_sum, for window samples: min, max, mean, m2 and
 * the count added up, so a sum of directions or jobs has their IOPS and
 * bandwidth together. */
void stats_sample_sum(struct sample_stat *into, const struct sample_stat *from);

/* steady.c: the window test's range and mean, and its failure's name read back. */
/* max - min of y[0..n); 0 for n == 0. */
double steady_range(const double *y, size_t n);
/* The arithmetic mean of y[0..n); 0 for n == 0. */
double steady_mean(const double *y, size_t n);
/* The inverse of steady_fail_name; false for a name it does not know. */
bool steady_fail_parse(const char *name, enum steady_fail *out);

#endif
