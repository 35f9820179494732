/* test_steady_state.c - each phase's steady state in the analysis, and the
 * burst rule: a gp2 randread whose bucket runs dry inside it is steady
 * only after the cliff, a randwrite on burst credit to its end is never
 * steady, a gp3 phase that is flat is, a noisy one fails on its range, and
 * a gp3 above its instance's EBS baseline inside the instance's burst is
 * not steady either.  Every series is built here, 1 s windows at time
 * scale 1, so each round is 10 s (300 windows / 30 rounds). */
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "check.h"
#include "analysis/analysis.h"
#include "lib/lib.h"
#include "results/results.h"

#define START_MS 1788000000000.0

/* level(i) for i = 0..n-1, as iops_series. */
typedef double level_fn(size_t i);

static double cliff_at_100(size_t i)
{
	return i < 100 ? 3000 : 300;
}

static double burst_flat(size_t i)
{
	(void)i;
	return 3000;
}

/* fio's first window runs at twice the rate while the queue fills. */
static double flat_first_double(size_t i)
{
	return i ? 3000 : 6000;
}

/* Rounds of 10 windows alternating 2,400 and 3,600: no trend, a 40 % range. */
static double noisy(size_t i)
{
	return (i / 10) % 2 ? 3600 : 2400;
}

/* A gp2 500 GiB (baseline 1,500, burst 3,000) whose bucket runs dry one
 * second in: the first round (10 s) averages 1,650, 10 % over the
 * baseline, while the first window's mean (1,530) is within 5 % of it. */
static double dry_after_1s(size_t i)
{
	return i < 1 ? 3000 : 1500;
}

static double instance_flat(size_t i)
{
	(void)i;
	return 16000;
}

/* A phase of n one-second windows at level(i), after the phase before. */
static json_t *phase(const char *name, const char *device, const char *rw, double *at_ms, size_t n,
		     level_fn *level)
{
	json_t *series = json_array();
	double sum = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		json_array_append_new(series, json_real(level(i)));
		sum += level(i);
	}
	json_t *dir = json_pack("{s:f,s:I}", "iops", sum / (double)n, "io_bytes",
				(json_int_t)(sum * 4096));
	json_t *job = json_pack("{s:I,s:o}", "job_runtime", (json_int_t)(n * 1000),
				strstr(rw, "write") ? "write" : "read", dir);
	json_t *p = json_pack("{s:s,s:s,s:f,s:f,s:i,s:i,s:s,s:i,s:o,s:o}", "phase", name, "device",
			      device, "started_ms", *at_ms, "ended_ms", *at_ms + (double)n * 1000,
			      "iodepth", 32, "bs", 4096, "rw", rw, "window_ms", 1000, "job", job,
			      "iops_series", series);
	*at_ms += (double)n * 1000 + 60000; /* a minute's rest before the next */
	return p;
}

static json_t *run_of(const char *instance, json_t *devices, json_t *phases)
{
	return json_pack("{s:i,s:{s:s?},s:{s:f},s:o,s:o}", "schema", RESULTS_SCHEMA, "environment",
			 "instance_type", instance, "plan", "time_scale", 1.0, "devices", devices,
			 "phases", phases);
}

static json_t *device(const char *label, const char *type, double iops)
{
	json_t *volume = json_pack("{s:s,s:f}", "type", type, "size_gib", 100.0);
	if (iops > 0) {
		json_object_set_new(volume, "iops", json_real(iops));
		json_object_set_new(volume, "throughput_mibs", json_real(1000));
	}
	return json_pack("{s:s,s:s,s:o}", "label", label, "kind", "ebs", "volume", volume);
}

/* A run of one device dev (a reference taken) with one 300 s phase. */
static json_t *single_run(const char *instance, json_t *dev, const char *name, const char *rw,
			  level_fn *level)
{
	double at = START_MS;
	json_t *phases = json_array(), *devs = json_array();
	const char *label = json_string_value(json_object_get(dev, "label"));

	json_array_append_new(phases, phase(name, label, rw, &at, 300, level));
	json_array_append_new(devs, dev);
	return run_of(instance, devs, phases);
}

/* analysis.devices[d].phases[k].steady after analysing run. */
static const json_t *steady_of(json_t *run, size_t d, size_t k)
{
	struct ebs_prices prices = ebs_prices_default();

	if (!json_object_get(run, "analysis"))
		analysis_build(run, &prices);
	return json_object_get(
		json_array_get(
			RESULTS_GET(json_array_get(RESULTS_GET(run, "analysis", "devices"), d),
				    "phases"),
			k),
		"steady");
}

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

static double num(const json_t *o, const char *key)
{
	return results_num(json_object_get(o, key));
}

/* gp2: the cliff at 100 s of a 300 s randread.  The windows before it are
 * flat at the burst rate but on credit; the first window wholly after it
 * (rounds 10..14) is steady: after 150 s.  Then a randwrite on credit to
 * its end: never steady, whatever its flatness. */
static void test_burst_ends_inside(struct checks *checks)
{
	double at = START_MS;
	json_t *phases = json_array();
	json_array_append_new(phases, phase("randread", "gp2", "randread", &at, 300, cliff_at_100));
	json_array_append_new(phases, phase("randwrite", "gp2", "randwrite", &at, 60, burst_flat));
	json_t *devs = json_array();
	json_array_append_new(devs, device("gp2", "gp2", 0));
	json_t *run = run_of(NULL, devs, phases);
	const json_t *rr = steady_of(run, 0, 0), *rw = steady_of(run, 0, 1);

	CHECK(json_is_object(rr));
	CHECK(json_is_true(json_object_get(rr, "reached")));
	CHECK_NEAR(num(rr, "round_s"), 10, 1e-9);
	CHECK_NEAR(num(rr, "after_s"), 150, 1e-9);
	CHECK_NEAR(num(rr, "mean"), 300, 1e-9);
	CHECK(!strcmp(str(rr, "word"), "steady after 150 s"));
	CHECK(!strcmp(str(rr, "metric"), "IOPS"));

	CHECK(json_is_false(json_object_get(rw, "reached")));
	CHECK(json_is_null(json_object_get(rw, "after_s")));
	CHECK(!strcmp(str(rw, "failed"), "on burst credit"));
	CHECK(!strcmp(str(json_object_get(rw, "burst"), "credit"), "volume"));
	CHECK(!strncmp(str(rw, "word"), "not steady: on burst credit", 27));
	/* It looked steady: flat to the IOPS. */
	CHECK(num(rw, "range_pct") < 1);
	CHECK(strstr(str(rw, "sentence"), "gp2 randwrite: not steady: on burst credit") ==
	      str(rw, "sentence"));
	json_decref(run);
}

/* The first window (rounds 0..4) looks steady (range 9.8 %, rise 7.8 %),
 * and its mean is near the baseline, but its first round drew credit: the
 * steady window is the next, rounds 1..5, ending at 60 s. */
static void test_burst_ends_in_first_round(struct checks *checks)
{
	json_t *big = device("big", "gp2", 0);
	json_object_set_new(json_object_get(big, "volume"), "size_gib", json_real(500));
	json_t *run = single_run(NULL, big, "randwrite", "randwrite", dry_after_1s);
	const json_t *s = steady_of(run, 0, 0);

	CHECK(json_is_true(json_object_get(s, "reached")));
	CHECK_NEAR(num(s, "after_s"), 60, 1e-9);
	CHECK_NEAR(num(s, "from_s"), 10, 1e-9);
	json_decref(run);
}

/* gp3 has no bucket: flat is steady (the first window's double rate
 * keeps the first window within both limits), noisy fails its range. */
static void test_flat_and_noisy_gp3(struct checks *checks)
{
	double at = START_MS;
	json_t *phases = json_array();
	json_array_append_new(phases,
			      phase("randread", "gp3", "randread", &at, 300, flat_first_double));
	json_array_append_new(phases, phase("randwrite", "gp3", "randwrite", &at, 300, noisy));
	json_t *devs = json_array();
	json_array_append_new(devs, device("gp3", "gp3", 3000));
	json_t *run = run_of(NULL, devs, phases);
	const json_t *flat = steady_of(run, 0, 0), *wobbly = steady_of(run, 0, 1);

	CHECK(json_is_true(json_object_get(flat, "reached")));
	CHECK_NEAR(num(flat, "after_s"), 50, 1e-9);
	CHECK(json_is_null(json_object_get(flat, "failed")));
	CHECK(json_is_false(json_object_get(wobbly, "reached")));
	CHECK(!strcmp(str(wobbly, "failed"), "range"));
	CHECK_NEAR(num(wobbly, "range_pct"), 1200.0 / 3120 * 100, 1e-6); /* rounds 25..29: 3 high */
	CHECK(!strcmp(str(wobbly, "word"), "not steady in 300 s: range 38 %"));
	json_decref(run);
}

/* A gp3 of 16,000 IOPS on an m5.xlarge (EBS baseline 6,000 IOPS, burst
 * 18,750 for 30 minutes a day): flat at 16,000 in the run's first
 * minutes, so on the instance's burst, not steady. */
static void test_instance_burst(struct checks *checks)
{
	json_t *run = single_run("m5.xlarge", device("fast", "gp3", 16000), "randread", "randread",
				 instance_flat);
	const json_t *s = steady_of(run, 0, 0);

	CHECK(json_is_false(json_object_get(s, "reached")));
	CHECK(!strcmp(str(s, "failed"), "on burst credit"));
	CHECK(!strcmp(str(json_object_get(s, "burst"), "credit"), "instance"));
	CHECK(!strncmp(str(s, "word"), "not steady: on the instance's EBS burst", 39));
	json_decref(run);
}

/* A qd1 gp3 phase judged on each round's p99 from its clat_hist windows
 * (coarseness 4: 116 bins; 1,000 I/Os a window): one whose latency stays
 * in bin 60 is steady after its first 5 rounds; one whose tail moves up a
 * bin every 10 s drifts (range and slope fail). */
static void test_p99_rounds(struct checks *checks)
{
	double at = START_MS;
	json_t *phases = json_array();
	for (int drift = 0; drift < 2; drift++) {
		json_t *p = phase("lat", "gp3", "randread", &at, 300, flat_first_double);
		json_t *windows = json_array();
		char w[64];
		json_object_set_new(p, "iodepth", json_integer(1));
		for (size_t i = 0; i < 300; i++) {
			snprintf(w, sizeof(w), "%zu:980 20", 60 + (drift ? i / 10 : 0));
			json_array_append_new(windows, json_string(w));
		}
		json_object_set_new(p, "clat_hist",
				    json_pack("{s:s,s:i,s:i,s:i,s:o}", "log", "x", "window_ms",
					      1000, "coarseness", 4, "bins", 116, "windows",
					      windows));
		json_array_append_new(phases, p);
	}
	json_t *devs = json_array();
	json_array_append_new(devs, device("gp3", "gp3", 3000));
	json_t *run = run_of(NULL, devs, phases);
	const json_t *flat = steady_of(run, 0, 0), *drifting = steady_of(run, 0, 1);

	CHECK(!strcmp(str(flat, "metric"), "p99_ms"));
	CHECK(json_is_true(json_object_get(flat, "reached")));
	CHECK_NEAR(num(flat, "after_s"), 50, 1e-9);
	CHECK(num(flat, "mean") > 0);
	CHECK(!strcmp(str(drifting, "metric"), "p99_ms"));
	CHECK(json_is_false(json_object_get(drifting, "reached")));
	CHECK(!strcmp(str(drifting, "failed"), "range and slope"));
	json_decref(run);
}

CHECK_MAIN(test_burst_ends_inside, test_burst_ends_in_first_round, test_flat_and_noisy_gp3,
	   test_instance_burst, test_p99_rounds)
