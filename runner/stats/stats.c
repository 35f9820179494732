/* stats.c - running moments and fio's coarse depth/latency buckets.
 *
 * A zeroed running_stat or sample_stat is empty and reads min = max = 0;
 * the first sample sets both, so no sentinel leaks into the output. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "stats/internal.h"

const char *const stats_depth_level_label[DEPTH_LEVELS] = {
	"1", "2", "4", "8", "16", "32", ">=64",
};

/* fio labels a batch bucket by its (inclusive) upper bound: "4" is 1-4. */
const char *const stats_batch_label[BATCH_LEVELS] = {
	"0", "4", "8", "16", "32", "64", ">=64",
};

/* fio labels a bucket by its (exclusive) upper bound. */
const char *const stats_latency_ns_label[LATENCY_NS_LEVELS] = {
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
};

const char *const stats_latency_us_label[LATENCY_US_LEVELS] = {
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
};

const char *const stats_latency_ms_label[LATENCY_MS_LEVELS] = {
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000",
};

/* Welford's update: a single pass with no catastrophic cancellation, which
 * the naive sum-of-squares suffers once latencies reach 10^9 ns. */
static void welford_add(uint64_t *n, double *mean, double *m2, double value)
{
	double delta = value - *mean;

	(*n)++;
	*mean += delta / (double)*n;
	*m2 += delta * (value - *mean);
}

/* Sample (n - 1) deviation, as fio reports. */
static double welford_stddev(uint64_t n, double m2)
{
	if (n < 2)
		return 0.0;
	return sqrt(m2 / (double)(n - 1));
}

void stats_running_add(struct running_stat *s, uint64_t value)
{
	if (s->n == 0 || value < s->min)
		s->min = value;
	if (s->n == 0 || value > s->max)
		s->max = value;
	welford_add(&s->n, &s->mean, &s->m2, (double)value);
}

double stats_running_stddev(const struct running_stat *s)
{
	return welford_stddev(s->n, s->m2);
}

void stats_sample_add(struct sample_stat *s, double value)
{
	if (s->n == 0 || value < s->min)
		s->min = value;
	if (s->n == 0 || value > s->max)
		s->max = value;
	welford_add(&s->n, &s->mean, &s->m2, value);
}

double stats_sample_stddev(const struct sample_stat *s)
{
	return welford_stddev(s->n, s->m2);
}

/* Chan's pairwise update: the moments of two sample sets as one. */
static void welford_merge(uint64_t *n, double *mean, double *m2, uint64_t from_n, double from_mean,
			  double from_m2)
{
	uint64_t total = *n + from_n;
	if (from_n == 0)
		return;
	double delta = from_mean - *mean;
	*mean += delta * (double)from_n / (double)total;
	*m2 += from_m2 + delta * delta * (double)*n * (double)from_n / (double)total;
	*n = total;
}

void stats_running_merge(struct running_stat *into, const struct running_stat *from)
{
	if (from->n && (into->n == 0 || from->min < into->min))
		into->min = from->min;
	if (from->n && (into->n == 0 || from->max > into->max))
		into->max = from->max;
	welford_merge(&into->n, &into->mean, &into->m2, from->n, from->mean, from->m2);
}

void stats_sample_sum(struct sample_stat *into, const struct sample_stat *from)
{
	if (from->n == 0)
		return;
	if (into->n == 0) {
		*into = *from;
		return;
	}
	into->min += from->min;
	into->max += from->max;
	into->mean += from->mean;
	into->m2 += from->m2;
	into->n += from->n;
}

void stats_direction_merge(struct direction_stats *into, const struct direction_stats *from)
{
	into->ios += from->ios;
	into->bytes += from->bytes;
	into->short_ios += from->short_ios;
	stats_running_merge(&into->slat, &from->slat);
	stats_running_merge(&into->clat, &from->clat);
	stats_running_merge(&into->lat, &from->lat);
	histogram_merge(&into->slat_hist, &from->slat_hist);
	histogram_merge(&into->clat_hist, &from->clat_hist);
	histogram_merge(&into->lat_hist, &from->lat_hist);
	for (int p = 0; p < STATS_PRIOS; p++) {
		if (from->prio[p].lat.n)
			into->prio[p].ioprio = from->prio[p].ioprio;
		stats_running_merge(&into->prio[p].lat, &from->prio[p].lat);
		histogram_merge(&into->prio[p].hist, &from->prio[p].hist);
	}
	stats_sample_sum(&into->iops_samples, &from->iops_samples);
	stats_sample_sum(&into->bw_samples, &from->bw_samples);
}

void stats_sync_merge(struct sync_stats *into, const struct sync_stats *from)
{
	into->ios += from->ios;
	stats_running_merge(&into->lat, &from->lat);
	histogram_merge(&into->hist, &from->hist);
}

uint64_t stats_data_ios(const struct job_stats *s)
{
	uint64_t ios = 0;
	for (int d = 0; d < DDIR_COUNT; d++)
		ios += s->dir[d].ios;
	return ios;
}

void stats_job_init(struct job_stats *s)
{
	int d;

	memset(s, 0, sizeof(*s));
	histogram_init(&s->sync.hist);
	for (d = 0; d < DDIR_COUNT; d++) {
		histogram_init(&s->dir[d].slat_hist);
		histogram_init(&s->dir[d].clat_hist);
		histogram_init(&s->dir[d].lat_hist);
		for (int p = 0; p < STATS_PRIOS; p++)
			histogram_init(&s->dir[d].prio[p].hist);
	}
}

/* fio's io_u_mark_depth buckets; each is named by its lower bound.  fio
 * would put depth 0 into ">=64" via its switch default; nothing submits at
 * depth 0, and "1" is the less surprising place for it. */
unsigned stats_depth_level_index(unsigned depth)
{
	static const unsigned lower[] = { 2, 4, 8, 16, 32, 64 }; /* of levels 1 to 6 */
	unsigned level = 0;
	while (level < sizeof(lower) / sizeof(lower[0]) && depth >= lower[level])
		level++;
	return level;
}

uint64_t stats_counts_sum(const uint64_t *counts, unsigned n)
{
	uint64_t sum = 0;
	for (unsigned i = 0; i < n; i++)
		sum += counts[i];
	return sum;
}

unsigned stats_batch_index(unsigned n)
{
	static const unsigned upper[BATCH_LEVELS - 1] = { 0, 4, 8, 16, 32, 64 };
	unsigned i = 0;
	while (i < BATCH_LEVELS - 1 && n > upper[i])
		i++;
	return i;
}

/* Lower bounds of fio's ns/us/ms buckets; the ms scale adds 1000 and 2000. */
static const uint64_t latency_floor[LATENCY_MS_LEVELS] = {
	0, 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000,
};

static unsigned latency_level(uint64_t scaled, unsigned levels)
{
	unsigned i = levels - 1;

	while (i > 0 && scaled < latency_floor[i])
		i--;
	return i;
}

void stats_count_latency(struct job_stats *s, uint64_t lat_ns)
{
	/* Truncating division, as fio: 1999 ns is "1 us" and lands in us "2". */
	if (lat_ns < 1000)
		s->latency_ns[latency_level(lat_ns, LATENCY_NS_LEVELS)]++;
	else if (lat_ns < 1000000)
		s->latency_us[latency_level(lat_ns / 1000, LATENCY_US_LEVELS)]++;
	else
		s->latency_ms[latency_level(lat_ns / 1000000, LATENCY_MS_LEVELS)]++;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void stats_sort(double *x, size_t n)
{
	qsort(x, n, sizeof(*x), cmp_double);
}

double stats_median(double *x, size_t n)
{
	stats_sort(x, n);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}
