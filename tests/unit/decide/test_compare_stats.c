/* test_compare_stats.c - the intervals of `ebsbench compare`: Student's t,
 * batch means that keep their 95 % coverage on autocorrelated windows
 * (where treating the windows as independent does not), and percentiles
 * of results.json's per-window histograms with their intervals. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "test_rng.h"
#include "analysis/analysis.h"
#include "decide/decide.h"
#include "decide/internal.h"
#include "stats/stats.h"

#define AR_WINDOWS 2000
#define AR_RUNS 400
#define AR_PHI 0.9 /* each window 90 % the last one's deviation: a bucket's memory */
#define AR_MEAN 3000.0
#define HIST_BINS 116 /* fio's 29 x 64 buckets at coarseness 4 */
#define HIST_COARSENESS 4

static void t_quantiles(struct checks *checks)
{
	CHECK_NEAR(compare_t975(1), 12.706, 1e-9);
	CHECK_NEAR(compare_t975(9), 2.262, 1e-9);
	CHECK_NEAR(compare_t975(30), 2.042, 1e-9);
	CHECK_NEAR(compare_t975(120), 1.980, 0.002);
	CHECK(isnan(compare_t975(0)));
}

/* An AR(1) series around AR_MEAN. */
static void ar_series(struct test_rng *rng, double *x, size_t n)
{
	double dev = 0;
	for (size_t i = 0; i < n; i++) {
		dev = AR_PHI * dev + 30 * test_rng_normal(rng);
		x[i] = AR_MEAN + dev;
	}
}

/* mean +- 1.96 sd / sqrt(n): the interval that treats windows as independent. */
static bool naive_covers(const double *x, size_t n)
{
	double mean = 0, ss = 0;
	for (size_t i = 0; i < n; i++)
		mean += x[i] / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	double half = 1.96 * sqrt(ss / (double)(n - 1) / (double)n);
	return fabs(mean - AR_MEAN) <= half;
}

static void batch_means_coverage(struct checks *checks)
{
	static double x[AR_WINDOWS];
	struct test_rng rng = { 15 };
	size_t covered = 0, naive = 0;

	for (size_t r = 0; r < AR_RUNS; r++) {
		ar_series(&rng, x, AR_WINDOWS);
		struct compare_interval iv = compare_batch_means(x, AR_WINDOWS);
		covered += iv.low <= AR_MEAN && AR_MEAN <= iv.high;
		naive += naive_covers(x, AR_WINDOWS);
		CHECK(iv.batches == COMPARE_BATCHES);
	}
	/* 95 % nominal: batch means within a few points of it, the naive
	 * interval far below (its true level at phi 0.9 is about 50 %). */
	CHECK((double)covered / AR_RUNS >= 0.90);
	CHECK((double)covered / AR_RUNS <= 0.99);
	CHECK((double)naive / AR_RUNS <= 0.70);
}

static void batch_means_shapes(struct checks *checks)
{
	double flat[40], two[3] = { 1, 2, 3 }, ramp[25];
	for (size_t i = 0; i < 40; i++)
		flat[i] = 300;
	struct compare_interval iv = compare_batch_means(flat, 40);
	CHECK_NEAR(iv.estimate, 300, 1e-9);
	CHECK_NEAR(iv.low, 300, 1e-9);
	CHECK_NEAR(iv.high, 300, 1e-9);
	/* Below COMPARE_MIN_WINDOWS: a mean and no interval. */
	iv = compare_batch_means(two, 3);
	CHECK_NEAR(iv.estimate, 2, 1e-9);
	CHECK(isnan(iv.low) && iv.batches == 0);
	/* 25 windows: 10 batches of 2, the first five (the outlier among them) left out. */
	for (size_t i = 0; i < 25; i++)
		ramp[i] = i == 0 ? 1e6 : 100;
	iv = compare_batch_means(ramp, 25);
	CHECK(iv.batches == 10);
	CHECK_NEAR(iv.estimate, 100, 1e-9);
	/* A short series: as many batches of two as fit. */
	iv = compare_batch_means(ramp + 1, 8);
	CHECK(iv.batches == 4);
}

static void hist_percentile(struct checks *checks)
{
	uint64_t counts[HIST_BINS] = { 0 };
	counts[40] = 100;
	double low = (double)histogram_bucket_low(40 << HIST_COARSENESS);
	double high = (double)histogram_bucket_high((41 << HIST_COARSENESS) - 1) + 1;
	double p50 = compare_hist_percentile(counts, HIST_BINS, HIST_COARSENESS, 50);
	CHECK(p50 > low && p50 < high);
	CHECK_NEAR(p50, low + (high - low) / 2, 1e-6);
	counts[60] = 100; /* half the I/O far slower: p99 in bin 60 */
	double p99 = compare_hist_percentile(counts, HIST_BINS, HIST_COARSENESS, 99);
	CHECK(p99 >= (double)histogram_bucket_low(60 << HIST_COARSENESS));
	memset(counts, 0, sizeof(counts));
	CHECK(isnan(compare_hist_percentile(counts, HIST_BINS, HIST_COARSENESS, 50)));
}

/* A clat_hist of n windows, window w's I/O in bin first_bin + w % spread. */
static json_t *hist_of(size_t n, unsigned first_bin, unsigned spread)
{
	json_t *windows = json_array();
	for (size_t w = 0; w < n; w++) {
		char s[32];
		snprintf(s, sizeof(s), "%u:50", first_bin + (unsigned)(w % spread));
		json_array_append_new(windows, json_string(s));
	}
	return json_pack("{s:i,s:i,s:i,s:o}", "window_ms", 10, "coarseness", HIST_COARSENESS,
			 "bins", HIST_BINS, "windows", windows);
}

static void hist_intervals(struct checks *checks)
{
	json_t *a = hist_of(100, 40, 3), *b = hist_of(100, 40, 3), *c = hist_of(100, 48, 3);
	struct compare_interval ia = compare_hist_interval(a, 0, 100, 50);
	struct compare_interval ib = compare_hist_interval(b, 10, 100, 50);
	struct compare_interval ic = compare_hist_interval(c, 0, 100, 50);

	CHECK(ia.batches == COMPARE_BATCHES && ia.windows == 100);
	CHECK(ia.low <= ia.estimate && ia.estimate <= ia.high);
	CHECK(ib.windows == 90);
	CHECK(compare_overlap(&ia, &ib));
	/* Two octaves slower: apart. */
	CHECK(!compare_overlap(&ia, &ic));
	CHECK(ic.estimate > 3 * ia.estimate);
	/* A window that is not one: an estimate-free answer, no crash. */
	json_array_set_new(json_object_get(a, "windows"), 5, json_string("x:1"));
	struct compare_interval bad = compare_hist_interval(a, 0, 100, 50);
	CHECK(isnan(bad.estimate) && isnan(bad.low));
	json_decref(a);
	json_decref(b);
	json_decref(c);
}

CHECK_MAIN(t_quantiles, batch_means_coverage, batch_means_shapes, hist_percentile, hist_intervals)
