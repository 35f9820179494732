/* histogram.h - log-linear latency histogram with fio's bucket layout.
 *
 * Values below 128 get a bucket each; above, every power of two is split
 * into 64 equal buckets (6 bits of mantissa), so a bucket's midpoint is
 * within 1/128 (0.78 %) of any value in it.  fio stops at 29 groups
 * (2^34 ns, about 17 s) and saturates there; we keep fio's layout for the
 * first 29 groups and go on to 2^45 ns (9.8 hours) so a stalled device
 * shows as what it was. */
#ifndef EBSBENCH_HISTOGRAM_H
#define EBSBENCH_HISTOGRAM_H

#include <stdbool.h>
#include <stdint.h>

#define HISTOGRAM_BITS 6
#define HISTOGRAM_PER_GROUP (1u << HISTOGRAM_BITS)
#define HISTOGRAM_FIO_GROUPS 29
#define HISTOGRAM_GROUPS 40
#define HISTOGRAM_BUCKETS (HISTOGRAM_GROUPS * HISTOGRAM_PER_GROUP)

struct histogram {
	uint64_t total;
	uint64_t min;
	uint64_t max;
	uint64_t count[HISTOGRAM_BUCKETS];
};

void histogram_init(struct histogram *h);
void histogram_add(struct histogram *h, uint64_t value);
void histogram_merge(struct histogram *into, const struct histogram *from);

uint64_t histogram_bucket_low(unsigned index); /* smallest value in the bucket */
/* Largest value in the bucket; UINT64_MAX for the last, which saturates. */
uint64_t histogram_bucket_high(unsigned index);
uint64_t histogram_bucket_value(unsigned index); /* fio's representative: the midpoint */

/* The value below which pct percent of the samples fall, computed as fio
 * does (first bucket whose running count reaches pct), then clamped into
 * [min, max] so no percentile is ever reported above the observed max.
 * Returns 0 for an empty histogram. */
uint64_t histogram_percentile(const struct histogram *h, double pct);

/* A percentile of coarse counts: counts[bins] of the buckets merged
 * 2^coarseness at a time, as a histogram log's row (fio's
 * log_hist_coarseness).  The bin holding the pct-th I/O, [low_ns, high_ns),
 * and ns placed in it linearly by rank: the one reading of such counts
 * compare, the fleet view and the heatmap share. */
struct histogram_coarse_pct {
	double ns;
	double low_ns, high_ns; /* high: exclusive */
	unsigned bin;		/* its index in counts */
};

/* Fills out (NaN when false); false when the counts are all zero. */
bool histogram_coarse_percentile(const uint64_t *counts, unsigned bins, unsigned coarseness,
				 double pct, struct histogram_coarse_pct *out);

#endif
