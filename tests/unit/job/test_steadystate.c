/* test_steadystate.c - fio's steady-state criteria (job/steadystate.c) on
 * flat, drifting, noisy and stepped windows, the ring of samples fio's JSON
 * reports, and the ss options as fio parses them. */
#include <string.h>

#include "check.h"
#include "job/options.h"
#include "job/steadystate.h"
#include "job/internal.h"

static struct ss_options crit(bool iops, bool slope, bool pct, double limit)
{
	return (struct ss_options){ .dur_ns = 10000000000ull,
				    .interval_ns = 1000000000ull,
				    .limit = limit,
				    .iops = iops,
				    .slope = slope,
				    .pct = pct };
}

static struct ss_verdict judge(struct ss_options o, const uint64_t *y, unsigned n)
{
	struct ss_verdict v;
	steadystate_judge(&o, y, n, &v);
	return v;
}

static void test_flat_is_steady_by_every_criterion(struct checks *checks)
{
	const uint64_t y[] = { 3000, 3000, 3000, 3000, 3000 };
	struct ss_verdict v = judge(crit(true, false, true, 10), y, 5);
	CHECK(v.steady);
	CHECK_NEAR(v.criterion, 0, 1e-12);
	v = judge(crit(true, true, true, 0.01), y, 5);
	CHECK(v.steady);
	CHECK_NEAR(v.slope, 0, 1e-12);
	v = judge(crit(false, false, false, 1), y, 5); /* bw:1 (bytes/s) */
	CHECK(v.steady);
}

/* A line rising 10 per sample from 1000: the slope is exactly 10, the
 * deviation 45 of a mean of 1045. */
static void test_drift(struct checks *checks)
{
	uint64_t y[10];
	for (unsigned i = 0; i < 10; i++)
		y[i] = 1000 + 10 * i;
	struct ss_verdict v = judge(crit(true, true, true, 0.1), y, 10);
	CHECK_NEAR(v.slope, 10, 1e-9);
	CHECK_NEAR(v.criterion, 100.0 * 10 / 1045, 1e-9);
	CHECK(!v.steady); /* 0.96 % per sample */
	CHECK(judge(crit(true, true, true, 1), y, 10).steady);
	CHECK(!judge(crit(true, true, false, 10), y, 10).steady); /* slope 10, not < 10 */
	CHECK(judge(crit(true, true, false, 10.5), y, 10).steady);
	/* fio's deviation criterion lets the same drift through. */
	v = judge(crit(true, false, true, 10), y, 10);
	CHECK_NEAR(v.deviation, 45, 1e-9);
	CHECK_NEAR(v.criterion, 100.0 * 45 / 1045, 1e-9);
	CHECK(v.steady);
	/* Falling as fast: the slope's size counts, not its sign. */
	for (unsigned i = 0; i < 10; i++)
		y[i] = 1090 - 10 * i;
	v = judge(crit(true, true, true, 0.1), y, 10);
	CHECK_NEAR(v.slope, -10, 1e-9);
	CHECK(!v.steady);
	CHECK(judge(crit(true, true, true, 1), y, 10).steady);
}

/* Noise around 1000: every sample within 8 % passes iops:10%; one at
 * 1150 fails it though the line stays flat. */
static void test_noise(struct checks *checks)
{
	uint64_t y[] = { 1000, 920, 1080, 1000, 960, 1040, 1000, 1000 };
	struct ss_verdict v = judge(crit(true, false, true, 10), y, 8);
	CHECK_NEAR(v.deviation, 80, 1e-9);
	CHECK_NEAR(v.criterion, 8, 1e-9);
	CHECK(v.steady);
	CHECK(!judge(crit(true, false, true, 8), y, 8).steady); /* 8 % is not below 8 % */
	CHECK(!judge(crit(true, false, false, 80), y, 8).steady);
	CHECK(judge(crit(true, false, false, 81), y, 8).steady); /* iops:81 */
	y[3] = 1150;
	v = judge(crit(true, false, true, 10), y, 8);
	CHECK(!v.steady);
	CHECK_NEAR(v.criterion, 100.0 * (1150 - 1018.75) / 1018.75, 1e-9);
}

/* A step from 1000 to 2000 halfway: neither criterion is met. */
static void test_step(struct checks *checks)
{
	const uint64_t y[] = { 1000, 1000, 1000, 2000, 2000, 2000 };
	CHECK(!judge(crit(true, false, true, 10), y, 6).steady);
	CHECK(!judge(crit(true, true, true, 10), y, 6).steady);
}

/* fio's percentages of a slope divide by the integer mean; a mean of 0 is
 * never steady in percent, while an absolute limit takes zeros as flat. */
static void test_integer_mean_and_zeros(struct checks *checks)
{
	const uint64_t rise[] = { 1, 2 }, zeros[] = { 0, 0, 0 }, half[] = { 0, 1 };
	struct ss_verdict v = judge(crit(true, true, true, 1000), rise, 2);
	CHECK_NEAR(v.criterion, 100, 1e-9); /* slope 1 over the mean 1, not 1.5 */
	v = judge(crit(true, true, true, 1000), half, 2);
	CHECK(!v.steady);
	CHECK(!judge(crit(true, false, true, 1000), zeros, 3).steady);
	CHECK(!judge(crit(true, true, true, 1000), zeros, 3).steady);
	CHECK(judge(crit(true, false, false, 1), zeros, 3).steady);
	CHECK(judge(crit(true, true, false, 1), zeros, 3).steady);
}

/* The ring: a window of 3; the JSON's samples are the last 3 in order,
 * zeros after those taken while it fills; the judged series is the
 * criterion's (IOPS or bandwidth); a steady window stops the sampling. */
static void test_ring(struct checks *checks)
{
	struct steadystate ss;
	struct ss_options o = crit(false, false, true, 10);
	char err[128];
	o.dur_ns = 3000000000ull;
	CHECK(steadystate_init(&ss, &o, err, sizeof(err)) == 0);
	CHECK_EQ_U64(ss.n, 3);
	/* IOPS flat, bandwidth far apart: bw:10% is not met. */
	CHECK(!steadystate_add(&ss, 100, 1000));
	CHECK_EQ_U64(steadystate_sample(&ss, false, 0), 1000);
	CHECK_EQ_U64(steadystate_sample(&ss, false, 1), 0);
	CHECK_EQ_U64(steadystate_mean(&ss, false), 333);
	CHECK(!steadystate_add(&ss, 100, 5000));
	CHECK(!steadystate_add(&ss, 100, 9000));
	CHECK(ss.last.criterion > 10);
	CHECK(!steadystate_add(&ss, 100, 9100));
	CHECK_EQ_U64(steadystate_sample(&ss, false, 0), 5000);
	CHECK_EQ_U64(steadystate_sample(&ss, false, 2), 9100);
	CHECK(steadystate_add(&ss, 100, 9050)); /* 9000, 9100, 9050 */
	CHECK(ss.attained);
	CHECK_EQ_U64(steadystate_sample(&ss, false, 0), 9000);
	CHECK_EQ_U64(steadystate_sample(&ss, false, 1), 9100);
	CHECK_EQ_U64(steadystate_sample(&ss, false, 2), 9050);
	CHECK_EQ_U64(steadystate_mean(&ss, false), 9050);
	CHECK_EQ_U64(steadystate_mean(&ss, true), 100);
	CHECK(steadystate_add(&ss, 100, 1)); /* nothing more is taken */
	CHECK_EQ_U64(steadystate_sample(&ss, false, 2), 9050);
	steadystate_free(&ss);
	o.dur_ns = 0;
	CHECK(steadystate_init(&ss, &o, err, sizeof(err)) == 0);
	CHECK_EQ_U64(ss.n, 0);
	CHECK(!steadystate_add(&ss, 1, 1));
}

static int set(struct job_options *o, const char *name, const char *value)
{
	char err[256];
	return options_set(o, name, value, err, sizeof(err));
}

static void test_options(struct checks *checks)
{
	struct job_options o;
	char err[256];
	options_defaults(&o);
	/* fio's default criterion, iops_slope:0.01%, and 1 s samples. */
	CHECK(o.ss.iops && o.ss.slope && o.ss.pct);
	CHECK_NEAR(o.ss.limit, 0.01, 1e-12);
	CHECK_EQ_U64(o.ss.interval_ns, 1000000000ull);
	CHECK(set(&o, "ss", "iops:10%") == 0 && o.ss.iops && !o.ss.slope && o.ss.pct);
	CHECK_NEAR(o.ss.limit, 10, 1e-12);
	CHECK(set(&o, "steadystate", "bw_slope:.1%") == 0 && !o.ss.iops && o.ss.slope);
	CHECK_NEAR(o.ss.limit, 0.1, 1e-12);
	CHECK(set(&o, "ss", "bw:1m") == 0 && !o.ss.pct);
	CHECK_NEAR(o.ss.limit, 1048576, 1e-6);
	CHECK(set(&o, "ss", "iops:2.5") == 0 && o.ss.iops && !o.ss.pct);
	CHECK_NEAR(o.ss.limit, 2.5, 1e-12);
	const char *bad[] = { "iops",	 "iops:",   "iop:1",  "iops_slopes:1",
			      "iops:-1", "iops:1x", "bw:1.5", "iops:%" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		CHECK(set(&o, "ss", bad[i]) != 0);
	CHECK_NEAR(o.ss.limit, 2.5, 1e-12); /* a refused value changes nothing */
	CHECK(set(&o, "ss_dur", "30s") == 0 && o.ss.dur_ns == 30000000000ull);
	CHECK(set(&o, "ss_ramp", "500ms") == 0 && o.ss.ramp_ns == 500000000ull);
	CHECK(set(&o, "io_limit", "1g") == 0 && o.io_size == (1ull << 30));
	CHECK(set(&o, "number_ios", "1000") == 0 && o.number_ios == 1000);
	/* The window: a multiple of ss_interval (at least 1 s), and longer. */
	CHECK(set(&o, "name", "x") == 0 && set(&o, "filename", "f") == 0);
	CHECK(options_validate(&o, err, sizeof(err)) == 0);
	CHECK(set(&o, "ss_interval", "500ms") == 0);
	CHECK(options_validate(&o, err, sizeof(err)) != 0 && strstr(err, "ss_interval"));
	CHECK(set(&o, "ss_interval", "10") == 0 && set(&o, "ss_dur", "25") == 0);
	CHECK(options_validate(&o, err, sizeof(err)) != 0 && strstr(err, "ss_dur"));
	CHECK(set(&o, "ss_dur", "10") == 0);
	CHECK(options_validate(&o, err, sizeof(err)) != 0);
	CHECK(set(&o, "ss_dur", "20") == 0);
	CHECK(options_validate(&o, err, sizeof(err)) == 0);
}

/* SNIA's window (stats/steady.h): the range within 20 % of the mean and
 * the fitted line's rise across the 5 samples within 10 %, both needed. */
static struct ss_options snia(bool iops, bool p99)
{
	return (struct ss_options){ .dur_ns = 5000000000ull,
				    .interval_ns = 1000000000ull,
				    .iops = iops,
				    .snia = true,
				    .p99 = p99 };
}

static void test_snia_window(struct checks *checks)
{
	const uint64_t flat[] = { 3000, 3010, 2990, 3005, 2995 };
	struct ss_verdict v = judge(snia(true, false), flat, 5);
	CHECK(v.steady);
	CHECK(v.range_pct < 1 && v.slope_pct < 1);
	/* A range of 22 % of the mean, no trend: the range fails alone. */
	const uint64_t wide[] = { 1000, 1250, 1000, 1250, 1125 };
	v = judge(snia(true, false), wide, 5);
	CHECK(!v.steady);
	CHECK_NEAR(v.range_pct, 100.0 * 250 / 1125, 1e-9);
	CHECK_NEAR(v.slope_pct, 100.0 * 100 / 1125, 1e-9);
	/* Rising 30 a sample from 1000: range 120 of 1060 (11 %) passes, the
	 * line's rise across the window (4 x 30 = 120, 11 %) does not. */
	const uint64_t rising[] = { 1000, 1030, 1060, 1090, 1120 };
	v = judge(snia(true, false), rising, 5);
	CHECK(!v.steady);
	CHECK_NEAR(v.slope_pct, 100.0 * 120 / 1060, 1e-9);
	/* Rising 20 a sample: the rise is 80 of 1040 (7.7 %), steady. */
	const uint64_t slow[] = { 1000, 1020, 1040, 1060, 1080 };
	CHECK(judge(snia(true, false), slow, 5).steady);
	/* fio's iops:10% deviation criterion would call the rising one steady. */
	CHECK(judge(crit(true, false, true, 10), rising, 5).steady);
	/* Exactly at the range's limit passes: 20 of a mean of 100. */
	const uint64_t edge[] = { 90, 110, 100, 90, 110 };
	CHECK(judge(snia(true, false), edge, 5).steady);
	const uint64_t zeros[] = { 0, 0, 0, 0, 0 };
	CHECK(!judge(snia(true, false), zeros, 5).steady);
}

/* The ring judges the metric asked for, and ss_floor holds a steady window
 * back until the measured time reaches it. */
static void test_snia_floor_and_metric(struct checks *checks)
{
	struct steadystate ss;
	struct ss_options o = snia(false, false); /* snia_bw */
	char err[128];
	o.floor_ns = 7000000000ull;
	CHECK(steadystate_init(&ss, &o, err, sizeof(err)) == 0);
	CHECK(ss.p99 == NULL);
	/* IOPS all over the place, bandwidth flat: snia_bw is steady. */
	const uint64_t iops[] = { 10, 500, 90, 3000, 7, 60, 1 };
	for (unsigned i = 0; i < 5; i++) {
		struct ss_round r = { .iops = iops[i],
				      .bw = 1000000,
				      .measured_ns = (i + 1) * 1000000000ull };
		CHECK(!steadystate_add_round(&ss, &r)); /* the floor: 7 s */
	}
	CHECK(ss.last.steady && !ss.attained);
	struct ss_round r = { .iops = 60, .bw = 1000000, .measured_ns = 6000000000ull };
	CHECK(!steadystate_add_round(&ss, &r));
	r.measured_ns = 7000000000ull;
	CHECK(steadystate_add_round(&ss, &r));
	CHECK(ss.attained);
	steadystate_free(&ss);
	/* snia_p99 judges the p99 ring, whatever IOPS and bandwidth do. */
	CHECK(steadystate_init(&ss,
			       &(struct ss_options){ .dur_ns = 5000000000ull,
						     .interval_ns = 1000000000ull,
						     .snia = true,
						     .p99 = true },
			       err, sizeof(err)) == 0);
	CHECK(ss.p99 != NULL);
	const uint64_t p99[] = { 900000, 1000000, 1000000, 1000000, 1000000 };
	for (unsigned i = 0; i < 5; i++) {
		struct ss_round q = { .iops = iops[i],
				      .bw = i * 100000,
				      .p99_ns = p99[i],
				      .measured_ns = (i + 1) * 1000000000ull };
		CHECK(steadystate_add_round(&ss, &q) == (i == 4));
	}
	CHECK_EQ_U64(steadystate_judged(&ss, 0), 900000);
	steadystate_free(&ss);
}

/* A sample's p99 is of the completions since the last one, not of all. */
static void test_snia_round_p99(struct checks *checks)
{
	struct steadystate ss;
	char err[128];
	CHECK(steadystate_init(&ss,
			       &(struct ss_options){ .dur_ns = 5000000000ull,
						     .interval_ns = 1000000000ull,
						     .snia = true,
						     .p99 = true },
			       err, sizeof(err)) == 0);
	struct histogram cumulative;
	histogram_init(&cumulative);
	const uint64_t round_ns[] = { 1000, 2000, 1000 };
	for (unsigned r = 0; r < 3; r++) {
		for (int i = 0; i < 1000; i++)
			histogram_add(&cumulative, round_ns[r]);
		*ss.hist_now = cumulative;
		uint64_t p99 = steadystate_round_p99(&ss);
		CHECK(p99 > round_ns[r] * 99 / 100 && p99 < round_ns[r] * 101 / 100);
	}
	/* All of it: 3,000 I/Os whose p99 is 2 us; the last round's was 1 us. */
	CHECK(histogram_percentile(&cumulative, 99) > 1900);
	*ss.hist_now = cumulative; /* nothing since */
	CHECK_EQ_U64(steadystate_round_p99(&ss), 0);
	steadystate_free(&ss);
}

static void test_snia_options(struct checks *checks)
{
	struct job_options o;
	char err[256];
	options_defaults(&o);
	CHECK(set(&o, "name", "x") == 0 && set(&o, "filename", "f") == 0);
	CHECK(set(&o, "ss", "snia_p99") == 0 && o.ss.snia && o.ss.p99 && !o.ss.slope);
	CHECK(set(&o, "ss", "snia_bw") == 0 && o.ss.snia && !o.ss.p99 && !o.ss.iops);
	CHECK(set(&o, "ss", "snia_iops") == 0 && o.ss.snia && o.ss.iops);
	CHECK(set(&o, "ss", "snia_lat") != 0 && set(&o, "ss", "snia_iops:10%") != 0);
	CHECK(set(&o, "ss", "iops:10%") == 0 && !o.ss.snia); /* fio's again */
	CHECK(set(&o, "ss", "snia_iops") == 0);
	CHECK(set(&o, "ss_floor", "10s") == 0 && o.ss.floor_ns == 10000000000ull);
	CHECK(set(&o, "steadystate_floor", "250ms") == 0 && o.ss.floor_ns == 250000000ull);
	/* A time-scaled plan's rounds: shorter than fio's second, SNIA's only. */
	CHECK(set(&o, "ss_interval", "100ms") == 0 && set(&o, "ss_dur", "500ms") == 0);
	CHECK(options_validate(&o, err, sizeof(err)) == 0);
	CHECK(set(&o, "ss", "iops:10%") == 0);
	CHECK(options_validate(&o, err, sizeof(err)) != 0 && strstr(err, "ss_interval"));
	CHECK(set(&o, "ss", "snia_p99") == 0 && set(&o, "group_reporting", NULL) == 0);
	CHECK(options_validate(&o, err, sizeof(err)) != 0 && strstr(err, "group_reporting"));
}

CHECK_MAIN(test_flat_is_steady_by_every_criterion, test_drift, test_noise, test_step,
	   test_integer_mean_and_zeros, test_ring, test_options, test_snia_window,
	   test_snia_floor_and_metric, test_snia_round_p99, test_snia_options)
