/* test_steady.c - SNIA's steady-state window: each criterion on a series
 * made to pass or fail it (flat, drifting, noisy, stepped, a burst that ends
 * inside the window), and the least-squares slope and range alone. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "lib/lib.h"
#include "stats/stats.h"
#include "stats/internal.h"

static void test_slope_range_mean(struct checks *checks)
{
	const double line[] = { 3, 5, 7, 9, 11 }; /* y = 3 + 2x */
	const double vee[] = { 4, 2, 0, 2, 4 };	  /* symmetric: no trend */
	const double one[] = { 42 };

	CHECK_NEAR(steady_slope(line, 5), 2, 1e-12);
	CHECK_NEAR(steady_slope(vee, 5), 0, 1e-12);
	CHECK_NEAR(steady_slope(one, 1), 0, 0);
	CHECK_NEAR(steady_range(line, 5), 8, 0);
	CHECK_NEAR(steady_range(vee, 5), 4, 0);
	CHECK_NEAR(steady_range(one, 0), 0, 0);
	CHECK_NEAR(steady_mean(line, 5), 7, 1e-12);
	/* A falling line: the sign is kept, the window test takes its size. */
	CHECK_NEAR(steady_slope((const double[]){ 10, 8, 6, 4 }, 4), -2, 1e-12);
}

static void test_flat(struct checks *checks)
{
	const double y[] = { 3000, 3001, 2999, 3000, 3000, 3002, 2998 };
	struct steady_result r;

	steady_window(y, ARRAY_SIZE(y), STEADY_ROUNDS, &r);
	CHECK(r.steady);
	CHECK_EQ_U64(r.failed, STEADY_OK);
	CHECK_EQ_U64(r.first, 0);
	CHECK_EQ_U64(r.rounds, 5);
	CHECK_NEAR(r.range_pct, 2.0 / 3000 * 100, 1e-9);
	CHECK(r.slope_pct < 0.1);
}

/* Rising 4 % of the mean each round: range 16 % (holds), rise 16 % (fails). */
static void test_drifting(struct checks *checks)
{
	const double y[] = { 92, 96, 100, 104, 108, 112, 116 };
	struct steady_result r;

	steady_window(y, ARRAY_SIZE(y), STEADY_ROUNDS, &r);
	CHECK(!r.steady);
	CHECK_EQ_U64(r.failed, STEADY_FAIL_SLOPE);
	CHECK_EQ_U64(r.first, 2); /* the last window: where the series ended */
	CHECK_NEAR(r.mean, 108, 1e-9);
	CHECK_NEAR(r.slope_pct, 16.0 / 108 * 100, 1e-9);
	CHECK_NEAR(r.range_pct, 16.0 / 108 * 100, 1e-9);
	/* A rise of exactly 10 % of the mean across the window is steady. */
	steady_window((const double[]){ 95, 97.5, 100, 102.5, 105 }, 5, 5, &r);
	CHECK(r.steady);
	CHECK_NEAR(r.slope_pct, 10, 1e-9);
	/* A fall counts as a rise does. */
	steady_window((const double[]){ 116, 112, 108, 104, 100 }, 5, 5, &r);
	CHECK_EQ_U64(r.failed, STEADY_FAIL_SLOPE);
}

/* Scattered about a flat mean: no trend, a range of 30 %. */
static void test_noisy(struct checks *checks)
{
	const double y[] = { 85, 115, 100, 115, 85, 100, 85, 115 };
	struct steady_result r;

	steady_window(y, ARRAY_SIZE(y), STEADY_ROUNDS, &r);
	CHECK(!r.steady);
	CHECK_EQ_U64(r.failed, STEADY_FAIL_RANGE);
	CHECK(r.slope_pct <= STEADY_SLOPE_PCT);
	CHECK(r.range_pct > 28 && r.range_pct < 32);
	/* A range of exactly 20 % of the mean is steady. */
	steady_window((const double[]){ 90, 110, 100, 100, 100 }, 5, 5, &r);
	CHECK(r.steady);
	CHECK_NEAR(r.range_pct, 20, 1e-9);
}

/* A step from 1000 to 2000: windows across it fail both criteria, the
 * first window wholly after it is steady. */
static void test_stepped(struct checks *checks)
{
	const double y[] = { 1000, 1000, 1000, 2000, 2000, 2000, 2000, 2000, 2000 };
	struct steady_result r;

	steady_window(y, 5, STEADY_ROUNDS, &r); /* 1000 x3, 2000 x2 */
	CHECK(!r.steady);
	CHECK_EQ_U64(r.failed, STEADY_FAIL_BOTH);
	steady_window(y, ARRAY_SIZE(y), STEADY_ROUNDS, &r);
	CHECK(r.steady);
	CHECK_EQ_U64(r.first, 3);
	CHECK_NEAR(r.mean, 2000, 1e-9);
}

/* A burst bucket running dry inside the window: flat at the burst rate,
 * then flat at the baseline.  The windows that hold the drop are not
 * steady; steady starts only with the window wholly after it. */
static void test_burst_ends(struct checks *checks)
{
	const double y[] = { 3000, 3000, 3000, 3000, 3000, 3000, 300, 300, 300, 300, 300 };
	struct steady_result r;

	/* Before the drop the burst looks steady: the series alone cannot
	 * tell a bucket from a baseline (the analysis's burst rule does). */
	steady_window(y, 6, STEADY_ROUNDS, &r);
	CHECK(r.steady);
	/* Cut so every window holds the drop: never steady. */
	steady_window(y + 2, 8, STEADY_ROUNDS, &r);
	CHECK(!r.steady);
	CHECK_EQ_U64(r.failed, STEADY_FAIL_BOTH);
	steady_window(y + 2, 9, STEADY_ROUNDS, &r);
	CHECK(r.steady);
	CHECK_EQ_U64(r.first, 4); /* y[6..10]: the baseline */
	CHECK_NEAR(r.mean, 300, 1e-9);
}

static void test_short_and_empty(struct checks *checks)
{
	const double y[] = { 10, 10, 10, 10 };
	const double zero[] = { 0, 0, 0, 0, 0 };
	struct steady_result r;

	steady_window(y, ARRAY_SIZE(y), STEADY_ROUNDS, &r);
	CHECK(!r.steady);
	CHECK_EQ_U64(r.failed, STEADY_FAIL_SHORT);
	CHECK_EQ_U64(r.rounds, 4);
	steady_window(y, 0, STEADY_ROUNDS, &r);
	CHECK_EQ_U64(r.failed, STEADY_FAIL_SHORT);
	steady_window(zero, 5, STEADY_ROUNDS, &r);
	CHECK(!r.steady);
	CHECK_EQ_U64(r.failed, STEADY_FAIL_EMPTY);
}

static void test_names(struct checks *checks)
{
	enum steady_fail f;
	unsigned i;

	for (i = STEADY_OK; i <= STEADY_FAIL_EMPTY; i++)
		CHECK(steady_fail_parse(steady_fail_name((enum steady_fail)i), &f) && f == i);
	CHECK(!steady_fail_parse("wobbly", &f));
	CHECK(strcmp(steady_fail_name(STEADY_FAIL_RANGE), "range") == 0);
}

CHECK_MAIN(test_slope_range_mean, test_flat, test_drifting, test_noisy, test_stepped,
	   test_burst_ends, test_short_and_empty, test_names)
