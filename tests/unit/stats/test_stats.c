/* test_stats.c - running moments and fio's depth/latency buckets. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/lib.h"
#include "stats/stats.h"
#include "test_rng.h"

#define SAMPLES 100000

/* Two passes in long double: slow, but nothing to cancel. */
static void two_pass(const uint64_t *values, size_t n, double *mean, double *stddev)
{
	long double sum = 0, squares = 0, m;
	size_t i;

	for (i = 0; i < n; i++)
		sum += values[i];
	m = sum / n;
	for (i = 0; i < n; i++)
		squares += (values[i] - m) * (values[i] - m);
	*mean = (double)m;
	*stddev = n < 2 ? 0.0 : (double)sqrtl(squares / (n - 1));
}

static void check_against_two_pass(struct checks *checks, uint64_t base, uint64_t spread)
{
	uint64_t *values = malloc(SAMPLES * sizeof(*values));
	struct running_stat s = { 0 };
	struct test_rng rng = { base + spread };
	uint64_t lo = UINT64_MAX, hi = 0;
	double mean, stddev;
	size_t i;

	if (values == NULL) {
		CHECK(values != NULL);
		return;
	}
	for (i = 0; i < SAMPLES; i++) {
		values[i] = base + test_rng_next(&rng) % spread;
		lo = values[i] < lo ? values[i] : lo;
		hi = values[i] > hi ? values[i] : hi;
		stats_running_add(&s, values[i]);
	}
	two_pass(values, SAMPLES, &mean, &stddev);
	CHECK_EQ_U64(s.n, SAMPLES);
	CHECK_EQ_U64(s.min, lo);
	CHECK_EQ_U64(s.max, hi);
	CHECK_NEAR(s.mean, mean, mean * 1e-12);
	CHECK_NEAR(stats_running_stddev(&s), stddev, stddev * 1e-9);
	free(values);
}

static void test_running_stat(struct checks *checks)
{
	struct running_stat s = { 0 };

	/* Empty reads as zeros, not as a sentinel. */
	CHECK_EQ_U64(s.min, 0);
	CHECK_EQ_U64(s.max, 0);
	CHECK_NEAR(stats_running_stddev(&s), 0.0, 0.0);

	stats_running_add(&s, 700);
	CHECK_EQ_U64(s.min, 700);
	CHECK_EQ_U64(s.max, 700);
	CHECK_NEAR(s.mean, 700.0, 0.0);
	CHECK_NEAR(stats_running_stddev(&s), 0.0, 0.0);

	/* 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample variance 32 / 7. */
	memset(&s, 0, sizeof(s));
	stats_running_add(&s, 2);
	stats_running_add(&s, 4);
	stats_running_add(&s, 4);
	stats_running_add(&s, 4);
	stats_running_add(&s, 5);
	stats_running_add(&s, 5);
	stats_running_add(&s, 7);
	stats_running_add(&s, 9);
	CHECK_NEAR(s.mean, 5.0, 1e-12);
	CHECK_NEAR(stats_running_stddev(&s), sqrt(32.0 / 7.0), 1e-12);

	check_against_two_pass(checks, 0, 1000000);
	/* Seconds-long latencies with microsecond jitter: where sum-of-squares dies. */
	check_against_two_pass(checks, 5000000000ull, 1000);
}

static void test_sample_stat(struct checks *checks)
{
	struct sample_stat s = { 0 };
	const double rates[] = { 1.5, -0.25, 1000.125, 3.0 };
	double mean = 0, squares = 0;
	size_t i, n = ARRAY_SIZE(rates);

	CHECK_NEAR(s.min, 0.0, 0.0);
	CHECK_NEAR(stats_sample_stddev(&s), 0.0, 0.0);
	for (i = 0; i < n; i++) {
		stats_sample_add(&s, rates[i]);
		mean += rates[i] / n;
	}
	for (i = 0; i < n; i++)
		squares += (rates[i] - mean) * (rates[i] - mean);
	CHECK_EQ_U64(s.n, n);
	CHECK_NEAR(s.min, -0.25, 0.0);
	CHECK_NEAR(s.max, 1000.125, 0.0);
	CHECK_NEAR(s.mean, mean, 1e-9);
	CHECK_NEAR(stats_sample_stddev(&s), sqrt(squares / (n - 1)), 1e-9);
}

static void test_depth_levels(struct checks *checks)
{
	static const unsigned depth_and_level[][2] = {
		{ 0, 0 },  { 1, 0 },  { 2, 1 },	 { 3, 1 },    { 4, 2 },
		{ 7, 2 },  { 8, 3 },  { 15, 3 }, { 16, 4 },   { 31, 4 },
		{ 32, 5 }, { 63, 5 }, { 64, 6 }, { 1024, 6 }, { 0xffffffffu, 6 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(depth_and_level); i++)
		CHECK_EQ_U64(stats_depth_level_index(depth_and_level[i][0]), depth_and_level[i][1]);
	CHECK(strcmp(stats_depth_level_label[0], "1") == 0);
	CHECK(strcmp(stats_depth_level_label[DEPTH_LEVELS - 1], ">=64") == 0);
}

/* fio's io_u_mark_submit: 0 alone, then 1-4, 5-8, 9-16, 17-32, 33-64, more. */
static void test_batch_levels(struct checks *checks)
{
	static const unsigned n_and_level[][2] = {
		{ 0, 0 },  { 1, 1 },  { 4, 1 },		  { 5, 2 },  { 8, 2 },
		{ 9, 3 },  { 16, 3 }, { 17, 4 },	  { 32, 4 }, { 33, 5 },
		{ 64, 5 }, { 65, 6 }, { 0xffffffffu, 6 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(n_and_level); i++)
		CHECK_EQ_U64(stats_batch_index(n_and_level[i][0]), n_and_level[i][1]);
	CHECK(strcmp(stats_batch_label[1], "4") == 0);
	static const uint64_t counts[] = { 1, 20, 300 };
	CHECK_EQ_U64(stats_counts_sum(counts, 3), 321);
	CHECK_EQ_U64(stats_counts_sum(counts, 0), 0);
	CHECK(strcmp(stats_batch_label[BATCH_LEVELS - 1], ">=64") == 0);
}

enum scale { NS, US, MS };

struct latency_case {
	uint64_t ns;
	enum scale scale;
	unsigned level;
};

/* Every edge of fio's buckets, from both sides.  Scaling truncates, so the
 * us/ms levels hold whole units: 1999 ns is 1 us, in the bucket labelled 2. */
static const struct latency_case latency_cases[] = {
	{ 0, NS, 0 },		{ 1, NS, 0 },		{ 2, NS, 1 },
	{ 3, NS, 1 },		{ 4, NS, 2 },		{ 9, NS, 2 },
	{ 10, NS, 3 },		{ 19, NS, 3 },		{ 20, NS, 4 },
	{ 49, NS, 4 },		{ 50, NS, 5 },		{ 99, NS, 5 },
	{ 100, NS, 6 },		{ 249, NS, 6 },		{ 250, NS, 7 },
	{ 499, NS, 7 },		{ 500, NS, 8 },		{ 749, NS, 8 },
	{ 750, NS, 9 },		{ 999, NS, 9 },		{ 1000, US, 0 },
	{ 1999, US, 0 },	{ 2000, US, 1 },	{ 3999, US, 1 },
	{ 4000, US, 2 },	{ 9999, US, 2 },	{ 10000, US, 3 },
	{ 50000, US, 5 },	{ 749999, US, 8 },	{ 750000, US, 9 },
	{ 999999, US, 9 },	{ 1000000, MS, 0 },	{ 1999999, MS, 0 },
	{ 2000000, MS, 1 },	{ 99999999, MS, 5 },	{ 100000000, MS, 6 },
	{ 999999999, MS, 9 },	{ 1000000000, MS, 10 }, { 1999999999, MS, 10 },
	{ 2000000000, MS, 11 }, { UINT64_MAX, MS, 11 },
};

static uint64_t sum_counts(const uint64_t *counts, size_t n)
{
	uint64_t total = 0;
	size_t i;

	for (i = 0; i < n; i++)
		total += counts[i];
	return total;
}

static void test_latency_levels(struct checks *checks)
{
	struct job_stats *s = malloc(sizeof(*s));
	size_t i;

	if (s == NULL) {
		CHECK(s != NULL);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(latency_cases); i++) {
		const struct latency_case *c = &latency_cases[i];
		const uint64_t *counts = c->scale == NS	  ? s->latency_ns
					 : c->scale == US ? s->latency_us
							  : s->latency_ms;

		stats_job_init(s);
		stats_count_latency(s, c->ns);
		if (!CHECK_EQ_U64(counts[c->level], 1))
			fprintf(stderr, "  for %llu ns\n", (unsigned long long)c->ns);
		CHECK_EQ_U64(sum_counts(s->latency_ns, LATENCY_NS_LEVELS) +
				     sum_counts(s->latency_us, LATENCY_US_LEVELS) +
				     sum_counts(s->latency_ms, LATENCY_MS_LEVELS),
			     1);
	}
	CHECK(strcmp(stats_latency_ns_label[LATENCY_NS_LEVELS - 1], "1000") == 0);
	CHECK(strcmp(stats_latency_us_label[1], "4") == 0);
	CHECK(strcmp(stats_latency_ms_label[LATENCY_MS_LEVELS - 2], "2000") == 0);
	CHECK(strcmp(stats_latency_ms_label[LATENCY_MS_LEVELS - 1], ">=2000") == 0);
	free(s);
}

static void test_job_stats_init(struct checks *checks)
{
	struct job_stats *s = malloc(sizeof(*s));
	int d;

	if (s == NULL) {
		CHECK(s != NULL);
		return;
	}
	memset(s, 0xa5, sizeof(*s));
	stats_job_init(s);
	for (d = 0; d < DDIR_COUNT; d++) {
		CHECK_EQ_U64(s->dir[d].ios, 0);
		CHECK_EQ_U64(s->dir[d].clat.n, 0);
		CHECK_EQ_U64(s->dir[d].clat_hist.total, 0);
		CHECK_EQ_U64(histogram_percentile(&s->dir[d].clat_hist, 50), 0);
	}
	CHECK_EQ_U64(sum_counts(s->depth_level, DEPTH_LEVELS), 0);
	CHECK(s->engine_ran[0] == '\0');
	CHECK(!s->disk.valid);
	free(s);
}

CHECK_MAIN(test_running_stat, test_sample_stat, test_depth_levels, test_batch_levels,
	   test_latency_levels, test_job_stats_init)
