/* test_compare.c - `ebsbench compare`'s document on seed 000's run
 * (tests/unit/fixtures/results-seed000.json) against copies of it changed
 * here, one fact at a time: the matching of devices and phases, the gp2
 * burst and the level after its cliff compared apart, a real change found
 * and noise not, the cliff time's change and resolution, and every
 * warning, each naming both values. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "test_rng.h"
#include "analysis/analysis.h"
#include "decide/decide.h"
#include "decide/internal.h"
#include "results/results.h"

#define SEED "tests/unit/fixtures/results-seed000.json"
#define SEED_LOADCURVE "tests/unit/fixtures/results-seed000-loadcurve.json"
#define NOISE 30.0 /* IOPS of window-to-window noise added to every series */

/* results_phase, writable: the copies are changed here. */
static json_t *phase_of(json_t *run, const char *phase, const char *device)
{
	return (json_t *)results_phase(run, phase, device);
}

/* Every series with seeded noise (the fixture's are flat), then the analysis. */
static json_t *load(const char *path, uint64_t seed)
{
	struct test_rng rng = { seed };
	json_t *run = json_load_file(path, 0, NULL), *p, *v;
	size_t i, j;
	if (!run) {
		fprintf(stderr, "%s: cannot read (run from the repository root)\n", path);
		return NULL;
	}
	json_array_foreach(json_object_get(run, "phases"), i, p)
	{
		json_t *series = json_object_get(p, "iops_series");
		json_array_foreach(series, j, v) json_array_set_new(
			series, j, json_real(json_number_value(v) + NOISE * test_rng_bell(&rng)));
	}
	return run;
}

static json_t *compared(json_t *a, json_t *b)
{
	struct ebs_prices prices = ebs_prices_default();
	analysis_build(a, &prices);
	analysis_build(b, &prices);
	return compare_build(a, b, "A", "B");
}

static bool warned(const json_t *doc, const char *text)
{
	const json_t *w;
	size_t i;
	json_array_foreach(json_object_get(doc, "warnings"), i, w)
	{
		if (strstr(json_string_value(w), text))
			return true;
	}
	fprintf(stderr, "no warning says \"%s\"\n", text);
	return false;
}

/* The metric of one level of one matched phase; NULL if none. */
static const json_t *metric_of(const json_t *doc, const char *device, const char *phase,
			       const char *level, const char *metric)
{
	const json_t *row, *m;
	size_t i, j;
	json_array_foreach(json_object_get(doc, "phases"), i, row)
	{
		if (strcmp(json_string_value(json_object_get(row, "device")), device) ||
		    strcmp(json_string_value(json_object_get(row, "phase")), phase) ||
		    strcmp(json_string_value(json_object_get(row, "level")), level))
			continue;
		json_array_foreach(json_object_get(row, "metrics"), j, m)
		{
			if (!strcmp(json_string_value(json_object_get(m, "metric")), metric))
				return m;
		}
	}
	return NULL;
}

static const char *verdict(const json_t *doc, const char *device, const char *phase,
			   const char *level, const char *metric)
{
	const char *v = json_string_value(
		json_object_get(metric_of(doc, device, phase, level, metric), "verdict"));
	return v ? v : "(none)";
}

static const json_t *cliff_of(const json_t *doc, const char *device)
{
	const json_t *c;
	size_t i;
	json_array_foreach(json_object_get(doc, "cliffs"), i, c)
	{
		if (!strcmp(json_string_value(json_object_get(c, "device")), device))
			return c;
	}
	return NULL;
}

/* gp2's randread cliff moved to `second` (the fixture's is at 2,000 s). */
static void move_cliff(json_t *run, size_t second)
{
	json_t *series = json_object_get(phase_of(run, "randread", "gp2"), "iops_series");
	for (size_t i = 1; i < json_array_size(series); i++)
		json_array_set_new(series, i, json_real(i < second ? 3001 : 300));
}

static void same_run(struct checks *checks)
{
	json_t *a = load(SEED, 1), *b = load(SEED, 1);
	json_t *doc = compared(a, b);

	CHECK(json_array_size(json_object_get(doc, "warnings")) == 0);
	/* gp2's randread is two levels, gp3's one. */
	CHECK(metric_of(doc, "gp2", "randread", "burst", "iops") != NULL);
	CHECK(metric_of(doc, "gp2", "randread", "after the cliff", "iops") != NULL);
	CHECK(metric_of(doc, "gp2", "randread", "whole", "iops") == NULL);
	CHECK(metric_of(doc, "gp3", "randread", "whole", "iops") != NULL);
	const json_t *row, *m;
	size_t i, j, rows = 0;
	json_array_foreach(json_object_get(doc, "phases"), i, row)
	{
		json_array_foreach(json_object_get(row, "metrics"), j, m)
		{
			const char *v = json_string_value(json_object_get(m, "verdict"));
			CHECK(!strcmp(v, "not significant") || !strcmp(v, "no interval"));
			rows++;
		}
	}
	/* 6 phases x 2 devices, gp2's randread twice: 13 levels of 4 metrics. */
	CHECK(rows == 13 * 4);
	const json_t *burst = metric_of(doc, "gp2", "randread", "burst", "iops");
	CHECK_NEAR(results_num(RESULTS_GET(burst, "a", "estimate")), 3001, 5);
	const json_t *after = metric_of(doc, "gp2", "randread", "after the cliff", "iops");
	CHECK_NEAR(results_num(RESULTS_GET(after, "a", "estimate")), 300, 5);
	const json_t *c = cliff_of(doc, "gp2");
	CHECK(results_str_is(json_object_get(c, "verdict"), "not significant"));
	CHECK_NEAR(results_num(json_object_get(c, "change_s")), 0, 1e-9);
	CHECK_NEAR(results_num(json_object_get(c, "resolution_s")), 1, 1e-9);
	CHECK(cliff_of(doc, "gp3") == NULL);
	json_decref(doc);
	json_decref(a);
	json_decref(b);
}

/* Each verdict as its intervals say: overlapping "not significant", B's
 * above A's "higher", below "lower", either missing "no interval". */
static void verdicts_agree(struct checks *checks, const json_t *doc)
{
	const json_t *row, *m;
	size_t i, j;
	json_array_foreach(json_object_get(doc, "phases"), i, row)
	{
		json_array_foreach(json_object_get(row, "metrics"), j, m)
		{
			double al = results_num(RESULTS_GET(m, "a", "low"));
			double ah = results_num(RESULTS_GET(m, "a", "high"));
			double bl = results_num(RESULTS_GET(m, "b", "low"));
			double bh = results_num(RESULTS_GET(m, "b", "high"));
			const char *want = isnan(al) || isnan(bl) ? "no interval"
					   : bl > ah		  ? "higher"
					   : bh < al		  ? "lower"
								  : "not significant";
			CHECK(results_str_is(json_object_get(m, "verdict"), want));
		}
	}
}

/* Noise of another seed is not significant; 5 % more IOPS on gp3 is. */
static void changes(struct checks *checks)
{
	json_t *a = load(SEED, 1), *b = load(SEED, 2), *v;
	size_t i;
	json_t *doc = compared(a, b);
	CHECK(!strcmp(verdict(doc, "gp3", "randread", "whole", "iops"), "not significant"));
	CHECK(!strcmp(verdict(doc, "gp2", "randread", "burst", "iops"), "not significant"));
	json_decref(doc);

	json_t *series = json_object_get(phase_of(b, "randread", "gp3"), "iops_series");
	json_array_foreach(series, i, v)
		json_array_set_new(series, i, json_real(json_number_value(v) + 150));
	doc = compared(a, b);
	const json_t *m = metric_of(doc, "gp3", "randread", "whole", "iops");
	CHECK(!strcmp(verdict(doc, "gp3", "randread", "whole", "iops"), "higher"));
	CHECK_NEAR(results_num(json_object_get(m, "change")), 150, 10);
	CHECK_NEAR(results_num(json_object_get(m, "change_percent")), 5, 0.4);
	m = metric_of(doc, "gp3", "randread", "whole", "throughput");
	CHECK_NEAR(results_num(json_object_get(m, "change")), 150 * 4096, 10 * 4096);
	CHECK(!strcmp(verdict(doc, "gp3", "randread", "whole", "throughput"), "higher"));
	verdicts_agree(checks, doc);
	/* The change is B's: the other way round it is lower. */
	json_decref(doc);
	doc = compared(b, a);
	CHECK(!strcmp(verdict(doc, "gp3", "randread", "whole", "iops"), "lower"));
	json_decref(doc);
	json_decref(a);
	json_decref(b);
}

static void cliff_times(struct checks *checks)
{
	json_t *a = load(SEED, 1), *b = load(SEED, 1);
	move_cliff(b, 2010);
	json_t *doc = compared(a, b);
	const json_t *c = cliff_of(doc, "gp2");
	CHECK(results_str_is(json_object_get(c, "verdict"), "later"));
	CHECK_NEAR(results_num(json_object_get(c, "change_s")), 10, 1e-9);
	CHECK_NEAR(results_num(json_object_get(c, "b_s")), 2010, 1e-9);
	json_decref(doc);
	/* One window later is within the resolution. */
	move_cliff(b, 2001);
	doc = compared(a, b);
	CHECK(results_str_is(json_object_get(cliff_of(doc, "gp2"), "verdict"), "not significant"));
	json_decref(doc);
	/* No cliff in B: said, and the phase compared whole. */
	move_cliff(b, 100000);
	doc = compared(a, b);
	CHECK(results_str_is(json_object_get(cliff_of(doc, "gp2"), "verdict"), "only in A"));
	CHECK(warned(doc, "gp2 randread: a cliff in A (at 2000.00 s) and none in B"));
	CHECK(metric_of(doc, "gp2", "randread", "whole", "iops") != NULL);
	json_decref(doc);
	json_decref(a);
	json_decref(b);
}

/* One change to B, and the warning it must give. */
static void warns(struct checks *checks, const char *path, void (*change)(json_t *),
		  const char *text)
{
	json_t *a = load(path, 1), *b = load(path, 1);
	change(b);
	json_t *doc = compared(a, b);
	CHECK(warned(doc, text));
	json_decref(doc);
	json_decref(a);
	json_decref(b);
}

static void to_m5_large(json_t *b)
{
	json_object_set_new(json_object_get(b, "environment"), "instance_type",
			    json_string("m5.large"));
}

static void to_version_2(json_t *b)
{
	json_object_set_new(json_object_get(b, "ebsbench"), "version", json_string("0.2.0"));
}

static void to_scale(json_t *b)
{
	json_object_set_new(json_object_get(b, "plan"), "time_scale", json_real(0.01));
}

static void to_libaio(json_t *b)
{
	json_t *p;
	size_t i;
	json_array_foreach(json_object_get(b, "phases"), i, p) json_object_set_new(
		json_object_get(p, "job"), "ebsbench", json_pack("{ss}", "ioengine", "libaio"));
}

static void without_seqwrite(json_t *b)
{
	json_t *phases = json_object_get(b, "phases"),
	       *plan = json_object_get(json_object_get(b, "plan"), "phases");
	for (size_t i = json_array_size(phases); i-- > 0;) {
		if (results_str_is(json_object_get(json_array_get(phases, i), "phase"), "seqwrite"))
			json_array_remove(phases, i);
	}
	json_array_remove(plan, json_array_size(plan) - 1);
}

static void to_6000_iops(json_t *b)
{
	json_t *d = json_array_get(json_object_get(b, "devices"), 1);
	json_object_set_new(json_object_get(d, "volume"), "iops", json_integer(6000));
}

static void longer_idle(json_t *b)
{
	json_object_set_new(phase_of(b, "randread", "gp2"), "idle_before_s", json_real(2000));
}

static void half_bucket(json_t *b)
{
	move_cliff(b, 1000);
}

/* B's gp2 never burst: its randread held the 300 IOPS baseline from the
 * first second, so its bucket was empty (no cliff to date it by). */
static void spent_bucket(json_t *b)
{
	json_t *p;
	size_t i;
	json_array_foreach(json_object_get(b, "phases"), i, p)
	{
		if (!results_str_is(json_object_get(p, "device"), "gp2") ||
		    !results_str_is(json_object_get(p, "phase"), "randread"))
			continue;
		json_t *series = json_array();
		for (int k = 0; k < 2700; k++)
			json_array_append_new(series, json_real(300 + k % 3));
		json_object_set_new(p, "iops_series", series);
		json_object_set_new(json_object_get(json_object_get(p, "job"), "read"), "iops",
				    json_real(301));
	}
}

static void served_above_on(json_t *b, const char *device)
{
	json_t *p;
	size_t i;
	json_array_foreach(json_object_get(b, "phases"), i, p)
	{
		if (results_str_is(json_object_get(p, "device"), device) &&
		    results_num(RESULTS_GET(p, "load", "percent")) == 110)
			json_object_set_new(json_object_get(p, "load"), "on_burst", json_true());
	}
}

/* B's 110 % step was served above the sustained rate: on burst on the gp2,
 * above its limit on the gp3, which has no bucket. */
static void burst_step(json_t *b)
{
	served_above_on(b, "gp2");
}

static void above_limit_step(json_t *b)
{
	served_above_on(b, "gp3");
}

static void relabel_gp3(json_t *b)
{
	json_t *p;
	size_t i;
	json_object_set_new(json_array_get(json_object_get(b, "devices"), 1), "label",
			    json_string("fast"));
	json_array_foreach(json_object_get(b, "phases"), i, p)
	{
		if (results_str_is(json_object_get(p, "device"), "gp3"))
			json_object_set_new(p, "device", json_string("fast"));
	}
}

static void gp3_to_io2(json_t *b)
{
	relabel_gp3(b);
	json_object_set_new(
		json_object_get(json_array_get(json_object_get(b, "devices"), 1), "volume"), "type",
		json_string("io2"));
}

static void warnings(struct checks *checks)
{
	warns(checks, SEED, to_m5_large,
	      "A ran on instance type m5.xlarge, B on m5.large: the instance's EBS limits differ.");
	warns(checks, SEED, to_version_2, "A was written by ebsbench 0.1.0, B by ebsbench 0.2.0.");
	warns(checks, SEED, to_scale, "A ran at time scale 1, B at 0.01");
	warns(checks, SEED, to_libaio, "A ran the unknown engine, B the libaio engine.");
	warns(checks, SEED, without_seqwrite,
	      "A's plan ran layout, randread, randwrite, lat, seqread, seqwrite; B's ran layout, "
	      "randread, randwrite, lat, seqread.");
	warns(checks, SEED, without_seqwrite, "gp2 seqwrite ran only in A.");
	warns(checks, SEED, to_6000_iops,
	      "gp3: the volumes differ: A's is gp3, 100 GiB, 3000 IOPS, 125 MiB/s; B's is gp3, "
	      "100 GiB, 6000 IOPS, 125 MiB/s.");
	warns(checks, SEED, longer_idle,
	      "gp2: A's randread began after 600.0 s idle, B's after "
	      "2000.0 s");
	warns(checks, SEED, half_bucket,
	      "gp2: A's randread began with about 100 % of the bucket (by its cliff at 2000.00 s), "
	      "B's with about 50 % (by its cliff at 1000.00 s).");
	warns(checks, SEED, spent_bucket,
	      "gp2: A's randread began with about 100 % of the bucket (by its cliff at 2000.00 s), "
	      "B's with about 0 % (it never burst).");
	warns(checks, SEED_LOADCURVE, burst_step,
	      "gp2 loadcurve 110 %: served on burst in B, not in A.");
	warns(checks, SEED_LOADCURVE, above_limit_step,
	      "gp3 loadcurve 110 %: served above its limit in B, not in A.");
	warns(checks, SEED, relabel_gp3,
	      "A's device gp3 is compared with B's fast: the same volume type, gp3.");
	warns(checks, SEED, gp3_to_io2,
	      "A's device gp3 (gp3) has no counterpart in B (no label or volume type to match it "
	      "by): its 6 phases ran only in A.");
	warns(checks, SEED, gp3_to_io2,
	      "B's device fast (io2) has no counterpart in A (no label or volume type to match it "
	      "by): its 6 phases ran only in B.");
}

/* By label first; by type only when one unmatched device of B has it. */
static void matching(struct checks *checks)
{
	json_t *a = json_pack("[{ss s{ss}}, {ss s{ss}}]", "label", "gp2", "volume", "type", "gp2",
			      "label", "gp3", "volume", "type", "gp3");
	json_t *one = json_pack("[{ss s{ss}}, {ss s{ss}}]", "label", "new", "volume", "type", "gp3",
				"label", "gp2", "volume", "type", "gp2");
	json_t *two = json_pack("[{ss s{ss}}, {ss s{ss}}]", "label", "x", "volume", "type", "gp3",
				"label", "y", "volume", "type", "gp3");
	size_t match[2];

	compare_match_devices(a, one, match);
	CHECK(match[0] == 1 && match[1] == 0);
	compare_match_devices(a, two, match);
	CHECK(match[0] == SIZE_MAX && match[1] == SIZE_MAX);
	json_decref(a);
	json_decref(one);
	json_decref(two);
}

/* Every gp3 load-curve step's p99 from the scheduled issue time set to ns. */
static void scheduled_p99(json_t *run, double ns)
{
	json_t *p;
	size_t i;
	json_array_foreach(json_object_get(run, "phases"), i, p)
	{
		if (results_str_is(json_object_get(p, "phase"), "loadcurve") &&
		    results_str_is(json_object_get(p, "device"), "gp3"))
			json_object_set_new(
				json_object_get(RESULTS_GET(p, "job", "read"), "lat_ns"),
				"percentile", json_pack("{s:f}", "99.000000", ns));
	}
}

/* A rated step is compared by its latency from the scheduled issue time,
 * the one the load curve and recommend quote for it, and says so; a
 * closed-loop phase by its completion latency. */
static void one_latency_per_load(struct checks *checks)
{
	json_t *a = load(SEED_LOADCURVE, 7), *b = load(SEED_LOADCURVE, 8);
	if (!CHECK(a && b))
		return;
	scheduled_p99(a, 2e6);
	scheduled_p99(b, 4e6);
	json_t *doc = compared(a, b);
	const json_t *row, *m;
	size_t i, j, steps = 0;
	json_array_foreach(json_object_get(doc, "phases"), i, row)
	{
		bool rated = results_str_is(json_object_get(row, "phase"), "loadcurve");
		bool step = rated && results_str_is(json_object_get(row, "device"), "gp3");
		json_array_foreach(json_object_get(row, "metrics"), j, m)
		{
			if (!results_str_is(json_object_get(m, "metric"), "p99"))
				continue;
			CHECK(results_str_is(json_object_get(m, "latency"),
					     rated ? "scheduled" : "completion"));
			if (!step)
				continue;
			steps++;
			CHECK_NEAR(results_num(RESULTS_GET(m, "a", "estimate")), 2e6, 0);
			CHECK_NEAR(results_num(RESULTS_GET(m, "b", "estimate")), 4e6, 0);
		}
	}
	CHECK(steps >= 5);
	json_decref(doc);
	json_decref(a);
	json_decref(b);
}

CHECK_MAIN(same_run, changes, cliff_times, warnings, matching, one_latency_per_load)
