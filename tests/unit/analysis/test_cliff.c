/* test_cliff.c - the EKS gp2/gp3 benchmark's gp2 cliff is found within a second of the
 * 2,000 s the model predicts; noise, fio's first-second outlier, stalls,
 * slow declines and short series are not mistaken for one. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "analysis/cliff.h"
#include "test_rng.h"

#define N_BENCHMARK 2700 /* the benchmark's gp2 randread: 2,700 s */

/* 5,997 at 0, 3,001 +-4 to 1,998, 2,659 at 1,999, 300 +-4 after. */
static void benchmark_series(double *x)
{
	x[0] = 5997;
	for (size_t i = 1; i < 1999; i++)
		x[i] = 3001 + (double)((i * 7) % 9) - 4;
	x[1999] = 2659;
	for (size_t i = 2000; i < N_BENCHMARK; i++)
		x[i] = 300 + (double)((i * 5) % 8) - 3;
}

static struct cliff find(const double *x, size_t n)
{
	struct cliff_params p = cliff_params_default();
	struct cliff c;

	if (cliff_find(x, n, &p, &c) != 0)
		abort();
	return c;
}

static void test_benchmark_cliff(struct checks *checks)
{
	double x[N_BENCHMARK];
	struct cliff c;

	benchmark_series(x);
	c = find(x, N_BENCHMARK);
	CHECK(c.result == CLIFF_FOUND);
	CHECK_EQ_U64(c.second, 2000);
	CHECK_EQ_U64(c.drop_start, 1999);
	CHECK_EQ_U64(c.transition_s, 1);
	CHECK_NEAR((double)c.second, 2000, 1);
	CHECK_NEAR(c.edge_s, 1999 + (2659 - 300.0) / (3001 - 300.0), 0.01);
	CHECK_NEAR(c.before.mean, 3001, 0.5);
	CHECK_NEAR(c.before.median, 3001, 0.5);
	CHECK_NEAR(c.before.min, 2997, 0);
	CHECK_NEAR(c.before.max, 3005, 0); /* not the 5,997 */
	CHECK_EQ_U64(c.before.start, 1);
	CHECK_EQ_U64(c.before.end, 1999);
	CHECK_NEAR(c.after.mean, 300, 0.5);
	CHECK_NEAR(c.after.min, 297, 0);
	CHECK_NEAR(c.after.max, 304, 0);
	CHECK_EQ_U64(c.after.end, N_BENCHMARK);
	CHECK_NEAR(c.ratio, 0.1, 0.001);
}

static void step_with_noise(double *x, size_t n, size_t at, double (*shape)(struct test_rng *),
			    double scale, uint64_t seed)
{
	struct test_rng r = { seed * 2654435761u + 1 };

	for (size_t i = 0; i < n; i++) {
		double level = i < at ? 3000 : 300;
		x[i] = level * (1 + scale * shape(&r));
	}
	x[0] = 5997;
}

static void test_noisy_cliff(struct checks *checks)
{
	double x[N_BENCHMARK];

	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct cliff c;

		step_with_noise(x, N_BENCHMARK, 2000, test_rng_bell, 0.05, seed);
		c = find(x, N_BENCHMARK);
		if (!CHECK(c.result == CLIFF_FOUND) || !CHECK_NEAR((double)c.second, 2000, 1))
			break;
		CHECK(c.transition_s <= 1);
		CHECK_NEAR(c.before.median, 3000, 30);
		CHECK_NEAR(c.after.median, 300, 3);
		/* A 5 % sigma, tails and all. */
		step_with_noise(x, N_BENCHMARK, 2000, test_rng_normal, 0.05, seed);
		c = find(x, N_BENCHMARK);
		if (!CHECK(c.result == CLIFF_FOUND) || !CHECK_NEAR((double)c.second, 2000, 1))
			break;
	}
}

static void test_flat_gp3_is_no_cliff(struct checks *checks)
{
	double x[600];
	struct test_rng r = { 42 };
	struct cliff c;

	for (size_t i = 0; i < 600; i++)
		x[i] = 3000 * (1 + 0.05 * test_rng_bell(&r));
	x[0] = 5997;
	c = find(x, 600);
	CHECK(c.result == CLIFF_NONE);
	CHECK_EQ_U64(c.before.start, 1);
	CHECK_EQ_U64(c.before.end, 600);
	CHECK(c.before.max <= 3150);
	CHECK_NEAR(c.before.mean, 3000, 15);
	CHECK_EQ_U64(c.after.end - c.after.start, 0);
}

static void test_first_second_outlier(struct checks *checks)
{
	double x[120];
	struct cliff_params p = cliff_params_default();
	struct cliff c;

	for (size_t i = 0; i < 120; i++)
		x[i] = 3000;
	x[0] = 5997;
	c = find(x, 120);
	CHECK(c.result == CLIFF_NONE);
	CHECK_NEAR(c.before.max, 3000, 0);
	/* Even counted, one sample moves no median. */
	p.skip_leading = 0;
	CHECK(cliff_find(x, 120, &p, &c) == 0);
	CHECK(c.result == CLIFF_NONE);
}

static void test_slow_decline(struct checks *checks)
{
	static double x[2600];
	struct cliff c;

	/* 3,000 -> 300 over 600 s is a decline, not a cliff. */
	for (size_t i = 0; i < 2600; i++)
		x[i] = i < 1000 ? 3000 : i < 1600 ? 3000 - 4.5 * (double)(i - 1000) : 300;
	c = find(x, 2600);
	CHECK(c.result == CLIFF_NONE);
	/* Over 30 s it is large and sustained, but too slow. */
	for (size_t i = 0; i < 2600; i++)
		x[i] = i < 1000 ? 3000 : i < 1030 ? 3000 - 90 * (double)(i - 1000) : 300;
	c = find(x, 2600);
	CHECK(c.result == CLIFF_TOO_SLOW);
	CHECK(c.transition_s >= 25 && c.transition_s <= 31);
	CHECK_NEAR((double)c.drop_start, 1000, 1);
	/* Over 5 s it is a cliff with a transition. */
	for (size_t i = 0; i < 2600; i++)
		x[i] = i < 1000 ? 3000 : i < 1005 ? 3000 - 540 * (double)(i - 1000) : 300;
	c = find(x, 2600);
	CHECK(c.result == CLIFF_FOUND);
	CHECK_EQ_U64(c.drop_start, 1001);
	CHECK_EQ_U64(c.second, 1005);
	CHECK_NEAR(c.edge_s, 1003, 0.01);
}

static void test_stalls_are_not_cliffs(struct checks *checks)
{
	double x[N_BENCHMARK];
	struct cliff c;

	for (size_t i = 0; i < 1200; i++)
		x[i] = 3000;
	x[600] = 0;
	c = find(x, 1200);
	CHECK(c.result == CLIFF_NONE);
	CHECK_NEAR(c.before.min, 0, 0);
	/* 20 s stalled, then back: not sustained. */
	for (size_t i = 600; i < 620; i++)
		x[i] = 0;
	c = find(x, 1200);
	CHECK(c.result == CLIFF_NONE);
	/* A stall before the real cliff changes nothing. */
	benchmark_series(x);
	x[1000] = 0;
	c = find(x, N_BENCHMARK);
	CHECK(c.result == CLIFF_FOUND);
	CHECK_EQ_U64(c.second, 2000);
	CHECK_NEAR(c.before.min, 0, 0);
}

static void test_drop_to_zero_and_two_steps(struct checks *checks)
{
	static double x[3000];
	struct cliff c;

	for (size_t i = 0; i < 300; i++)
		x[i] = i < 200 ? 3000 : 0;
	c = find(x, 300);
	CHECK(c.result == CLIFF_FOUND);
	CHECK_EQ_U64(c.second, 200);
	CHECK_NEAR(c.ratio, 0, 0);
	/* 3,000 -> 1,500 -> 300: the sharper second step is reported. */
	for (size_t i = 0; i < 3000; i++)
		x[i] = i < 1000 ? 3000 : i < 2000 ? 1500 : 300;
	c = find(x, 3000);
	CHECK(c.result == CLIFF_FOUND);
	CHECK_EQ_U64(c.second, 2000);
}

static void test_short_series(struct checks *checks)
{
	double x[60] = { 0 };
	struct cliff c;

	c = find(x, 0);
	CHECK(c.result == CLIFF_TOO_SHORT);
	CHECK_EQ_U64(c.before.end, 0);
	x[0] = 5997;
	c = find(x, 1);
	CHECK(c.result == CLIFF_TOO_SHORT);
	for (size_t i = 0; i < 60; i++)
		x[i] = i < 30 ? 3000 : 300;
	c = find(x, 12);
	CHECK(c.result == CLIFF_TOO_SHORT);
	CHECK_NEAR(c.before.mean, 3000, 0);
	/* A minute is enough, with narrower windows. */
	c = find(x, 60);
	CHECK(c.result == CLIFF_FOUND);
	CHECK_EQ_U64(c.second, 30);
	CHECK(strcmp(cliff_result_name(c.result), "cliff") == 0);
}

static void test_cliff_near_an_end(struct checks *checks)
{
	double x[120];
	struct cliff c;

	/* The seed's gp2 write phase: 36,000 refilled credits last 13.3 s. */
	x[0] = 5997;
	for (size_t i = 1; i < 120; i++)
		x[i] = i < 13 ? 3000 : i == 13 ? 1200 : 300;
	c = find(x, 120);
	CHECK(c.result == CLIFF_FOUND);
	CHECK_EQ_U64(c.drop_start, 13);
	CHECK_EQ_U64(c.second, 14);
	CHECK_NEAR(c.edge_s, 13 + 900.0 / 2700, 0.01);
	CHECK_NEAR(c.before.mean, 3000, 0);
	/* And one 10 s before the end. */
	for (size_t i = 1; i < 120; i++)
		x[i] = i < 110 ? 3000 : 300;
	c = find(x, 120);
	CHECK(c.result == CLIFF_FOUND);
	CHECK_EQ_U64(c.second, 110);
}

static void test_bad_samples(struct checks *checks)
{
	double x[200];
	struct cliff c;

	for (size_t i = 0; i < 200; i++)
		x[i] = 3000;
	x[50] = NAN;
	x[51] = -1;
	x[52] = INFINITY;
	c = find(x, 200);
	CHECK(c.result == CLIFF_NONE);
	CHECK_NEAR(c.before.min, 0, 0);
	CHECK_NEAR(c.before.max, 3000, 0);
}

CHECK_MAIN(test_benchmark_cliff, test_noisy_cliff, test_flat_gp3_is_no_cliff,
	   test_first_second_outlier, test_slow_decline, test_stalls_are_not_cliffs,
	   test_drop_to_zero_and_two_steps, test_short_series, test_cliff_near_an_end,
	   test_bad_samples)
