/* test_histogram.c - bucket layout, fio compatibility and percentile accuracy. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/lib.h"
#include "stats/histogram.h"
#include "stats/internal.h"
#include "test_rng.h"

#define FIO_BUCKETS (HISTOGRAM_FIO_GROUPS * HISTOGRAM_PER_GROUP)
#define SAMPLES 100000

static const double fio_percentiles[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
};

/* fio's plat_val_to_idx for its 29 groups, rewritten from its description
 * rather than from our code: a bit loop instead of clz, fio's clamp. */
static unsigned fio_index(uint64_t value)
{
	unsigned msb = 0, error_bits, index;
	uint64_t v;

	for (v = value; v > 1; v >>= 1)
		msb++;
	if (msb <= HISTOGRAM_BITS)
		return (unsigned)value;
	error_bits = msb - HISTOGRAM_BITS;
	index = ((error_bits + 1) << HISTOGRAM_BITS) + (unsigned)((value >> error_bits) % 64);
	return index < FIO_BUCKETS - 1 ? index : FIO_BUCKETS - 1;
}

/* fio's plat_idx_to_val, with a 64-bit width so it also covers our groups. */
static uint64_t fio_value(unsigned index)
{
	unsigned error_bits;
	uint64_t base;

	if (index < 2 * HISTOGRAM_PER_GROUP)
		return index;
	error_bits = (index >> HISTOGRAM_BITS) - 1;
	base = (uint64_t)1 << (error_bits + HISTOGRAM_BITS);
	return (uint64_t)((double)base + (index % 64 + 0.5) * (double)((uint64_t)1 << error_bits));
}

static bool in_own_bucket(struct checks *checks, uint64_t v)
{
	unsigned index = histogram_index(v);

	return CHECK(index < HISTOGRAM_BUCKETS) && CHECK(histogram_bucket_low(index) <= v) &&
	       CHECK(v <= histogram_bucket_high(index));
}

static void test_bucket_edges(struct checks *checks)
{
	struct test_rng rng = { 1 };
	unsigned bits, i;

	for (bits = 0; bits < 64; bits++) {
		uint64_t p = (uint64_t)1 << bits;

		in_own_bucket(checks, p - 1);
		in_own_bucket(checks, p);
		in_own_bucket(checks, p + 1);
	}
	in_own_bucket(checks, UINT64_MAX);
	for (i = 0; i < 1000000; i++)
		if (!in_own_bucket(checks, test_rng_log_uniform(&rng, 0, 40)))
			break;
}

static void test_buckets_contiguous(struct checks *checks)
{
	unsigned i;

	CHECK_EQ_U64(histogram_bucket_low(0), 0);
	CHECK_EQ_U64(histogram_bucket_high(HISTOGRAM_BUCKETS - 1), UINT64_MAX);
	for (i = 0; i < HISTOGRAM_BUCKETS; i++) {
		CHECK(histogram_bucket_low(i) <= histogram_bucket_high(i));
		CHECK_EQ_U64(histogram_index(histogram_bucket_low(i)), i);
		CHECK_EQ_U64(histogram_index(histogram_bucket_high(i)), i);
		if (i + 1 < HISTOGRAM_BUCKETS)
			CHECK_EQ_U64(histogram_bucket_high(i) + 1, histogram_bucket_low(i + 1));
	}
	/* The table reaches 2^45 ns as the header promises, then saturates. */
	CHECK_EQ_U64(histogram_bucket_low(HISTOGRAM_BUCKETS - 1),
		     ((uint64_t)1 << 45) - ((uint64_t)1 << 38));
	CHECK_EQ_U64(histogram_index(((uint64_t)1 << 45) - 1), HISTOGRAM_BUCKETS - 1);
	CHECK_EQ_U64(histogram_index((uint64_t)1 << 45), HISTOGRAM_BUCKETS - 1);
}

static void test_matches_fio(struct checks *checks)
{
	struct test_rng rng = { 2 };
	uint64_t v;
	unsigned bits, i;

	for (v = 0; v < (1u << 20); v++)
		if (!CHECK_EQ_U64(histogram_index(v), fio_index(v)))
			break;
	for (bits = 20; bits < 34; bits++) {
		uint64_t p = (uint64_t)1 << bits;

		CHECK_EQ_U64(histogram_index(p - 1), fio_index(p - 1));
		CHECK_EQ_U64(histogram_index(p), fio_index(p));
		CHECK_EQ_U64(histogram_index(p + 1), fio_index(p + 1));
	}
	for (i = 0; i < 1000000; i++) {
		v = test_rng_log_uniform(&rng, 0, 34);
		if (!CHECK_EQ_U64(histogram_index(v), fio_index(v)))
			break;
	}
	for (i = 0; i < HISTOGRAM_BUCKETS; i++)
		CHECK_EQ_U64(histogram_bucket_value(i), fio_value(i));
}

static void test_error_bound(struct checks *checks)
{
	struct test_rng rng = { 3 };
	double worst = 0.0;
	unsigned i;

	for (i = 0; i < 1000000; i++) {
		uint64_t v = test_rng_log_uniform(&rng, 7, 45);
		double mid = (double)histogram_bucket_value(histogram_index(v));
		double error = fabs(mid - (double)v) / (double)v;

		if (error > worst)
			worst = error;
	}
	CHECK(worst <= 1.0 / 128);
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* fio's calc_clat_percentiles walk, then our clamp, written out again. */
static uint64_t fio_percentile_clamped(const struct histogram *h, double pct)
{
	long double target = (long double)pct / 100.0 * (long double)h->total;
	uint64_t seen = 0, v = h->max;
	unsigned i;

	for (i = 0; i < HISTOGRAM_BUCKETS; i++) {
		seen += h->count[i];
		if ((long double)seen >= target) {
			v = fio_value(i);
			break;
		}
	}
	return v < h->min ? h->min : v > h->max ? h->max : v;
}

enum shape { UNIFORM, LOG_NORMAL, BIMODAL, SHAPES };

static uint64_t draw(struct test_rng *rng, enum shape shape)
{
	switch (shape) {
	case UNIFORM:
		return test_rng_next(rng) % 2000000;
	case LOG_NORMAL: /* median 100 us, a long right tail */
		return (uint64_t)exp(log(100000.0) + 0.8 * test_rng_normal(rng));
	default: /* mostly cache hits, some trips to the device */
		if (test_rng_unit(rng) < 0.9)
			return 45000 + test_rng_next(rng) % 10000;
		return 4000000 + test_rng_next(rng) % 2000000;
	}
}

static void test_percentiles(struct checks *checks)
{
	uint64_t *sorted = malloc(SAMPLES * sizeof(*sorted));
	struct histogram h;
	struct test_rng rng = { 4 };
	int shape;
	size_t i, p;

	if (sorted == NULL) {
		CHECK(sorted != NULL);
		return;
	}
	for (shape = 0; shape < SHAPES; shape++) {
		histogram_init(&h);
		for (i = 0; i < SAMPLES; i++) {
			sorted[i] = draw(&rng, (enum shape)shape);
			histogram_add(&h, sorted[i]);
		}
		qsort(sorted, SAMPLES, sizeof(sorted[0]), compare_u64);
		CHECK_EQ_U64(h.total, SAMPLES);
		CHECK_EQ_U64(h.min, sorted[0]);
		CHECK_EQ_U64(h.max, sorted[SAMPLES - 1]);
		for (p = 0; p < ARRAY_SIZE(fio_percentiles); p++) {
			double pct = fio_percentiles[p];
			/* Same arithmetic as the walk, so both agree on the rank. */
			long double rank = ceill((long double)pct / 100.0 * SAMPLES);
			uint64_t exact = sorted[(rank < 1 ? 1 : (size_t)rank) - 1];
			uint64_t got = histogram_percentile(&h, pct);

			CHECK_NEAR((double)got, (double)exact, (double)exact / 128 + 1);
			CHECK_EQ_U64(got, fio_percentile_clamped(&h, pct));
		}
		/* 0 % lands in bucket 0, clamped up to min; 100 % is the midpoint of
		 * max's bucket, clamped down only if it overshoots. */
		CHECK_EQ_U64(histogram_percentile(&h, 0), h.min);
		CHECK(histogram_percentile(&h, 100) <= h.max);
		CHECK_NEAR((double)histogram_percentile(&h, 100), (double)h.max,
			   (double)h.max / 128 + 1);
	}
	free(sorted);
}

/* Values below 128 are exact, so 1..100 exposes the rank fio picks.  fio
 * scales in long double; on x86 (long double)60 / 100 is a hair above 0.6,
 * so its 60th percentile of 100 samples is the 61st.  We keep that. */
static void test_fio_rank(struct checks *checks)
{
	struct histogram h;
	uint64_t v;

	histogram_init(&h);
	for (v = 1; v <= 100; v++)
		histogram_add(&h, v);
	CHECK_EQ_U64(histogram_percentile(&h, 50), 50);
	CHECK_EQ_U64(histogram_percentile(&h, 99), 99);
	CHECK_EQ_U64(histogram_percentile(&h, 60),
		     (uint64_t)ceill((long double)60.0 / 100.0 * 100));
#if defined(__x86_64__) || defined(__i386__)
	CHECK_EQ_U64(histogram_percentile(&h, 60), 61);
#endif
}

static void check_all_percentiles_equal(struct checks *checks, const struct histogram *h,
					uint64_t want)
{
	size_t p;

	for (p = 0; p < ARRAY_SIZE(fio_percentiles); p++)
		CHECK_EQ_U64(histogram_percentile(h, fio_percentiles[p]), want);
	CHECK_EQ_U64(histogram_percentile(h, 0), want);
	CHECK_EQ_U64(histogram_percentile(h, 100), want);
}

static void test_clamped_to_observed(struct checks *checks)
{
	struct histogram h;
	/* Bucket [256, 259] has midpoint 258: one sample below it, one above. */
	uint64_t low_in_bucket = 256, high_in_bucket = 259;
	int i;

	CHECK_EQ_U64(histogram_bucket_value(histogram_index(low_in_bucket)), 258);

	histogram_init(&h);
	histogram_add(&h, low_in_bucket);
	check_all_percentiles_equal(checks, &h, low_in_bucket);

	histogram_init(&h);
	for (i = 0; i < 1000; i++)
		histogram_add(&h, high_in_bucket);
	check_all_percentiles_equal(checks, &h, high_in_bucket);

	/* Past the table everything shares the last bucket; max is still max. */
	histogram_init(&h);
	histogram_add(&h, (uint64_t)1 << 50);
	CHECK_EQ_U64(h.count[HISTOGRAM_BUCKETS - 1], 1);
	check_all_percentiles_equal(checks, &h, (uint64_t)1 << 50);
}

static void test_empty(struct checks *checks)
{
	struct histogram empty, h;

	histogram_init(&empty);
	CHECK_EQ_U64(histogram_percentile(&empty, 50), 0);
	CHECK_EQ_U64(histogram_percentile(&empty, 100), 0);
	CHECK_EQ_U64(empty.min, 0);
	CHECK_EQ_U64(empty.max, 0);

	/* Merging nothing must not drag min down to 0. */
	histogram_init(&h);
	histogram_add(&h, 5000);
	histogram_merge(&h, &empty);
	CHECK_EQ_U64(h.min, 5000);
	CHECK_EQ_U64(h.total, 1);
	histogram_merge(&empty, &h);
	CHECK(memcmp(&empty, &h, sizeof(h)) == 0);
}

static void test_merge(struct checks *checks)
{
	struct histogram all, even, odd;
	struct test_rng rng = { 5 };
	int i;

	histogram_init(&all);
	histogram_init(&even);
	histogram_init(&odd);
	for (i = 0; i < SAMPLES; i++) {
		uint64_t v = test_rng_log_uniform(&rng, 0, 36);

		histogram_add(&all, v);
		histogram_add(i % 2 ? &odd : &even, v);
	}
	histogram_merge(&even, &odd);
	CHECK_EQ_U64(even.total, all.total);
	CHECK_EQ_U64(even.min, all.min);
	CHECK_EQ_U64(even.max, all.max);
	CHECK(memcmp(even.count, all.count, sizeof(all.count)) == 0);
	CHECK_EQ_U64(histogram_percentile(&even, 99.9), histogram_percentile(&all, 99.9));
}

CHECK_MAIN(test_bucket_edges, test_buckets_contiguous, test_matches_fio, test_error_bound,
	   test_percentiles, test_fio_rank, test_clamped_to_observed, test_empty, test_merge)
