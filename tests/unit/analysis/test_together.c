/* test_together.c - the instance's EBS ceiling from the together phase:
 * three gp3 of 3,000 IOPS (9,000 summed) driven at once, 4 KiB reads:
 * on an m5.xlarge whose burst (18,750) allows more, the volumes set the
 * 9,000 they hold; when the burst runs out at 1,800 s the sum falls to
 * 6,000, the instance's baseline: the instance's cliff, the instance
 * named.  On an m5.large (3,600) the instance sets it from the start
 * once its burst is spent; an unknown instance type is not judged; a sum
 * near neither limit names neither; a later phase after an instance's
 * fall counts a group's sum (instance_cliff.c). */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "fixtures/verdict_fixture.h"
#include "analysis/analysis.h"
#include "model/model.h"
#include "results/results.h"

#define WINDOWS 2700 /* one a second */

/* A run of three gp3 of 3,000 IOPS, their together phase holding
 * `before` in all until second `fall` (0: no fall), `after` from there. */
static json_t *together_run(const char *instance, double before, double fall, double after)
{
	const char *labels[] = { "gp3a", "gp3b", "gp3c" };
	json_t *devices = json_array(), *phases = json_array();

	for (size_t d = 0; d < 3; d++) {
		json_t *series = json_array();
		double sum = 0;
		for (size_t k = 0; k < WINDOWS; k++) {
			double v = (fall > 0 && k >= fall ? after : before) / 3;
			json_array_append_new(series, json_real(v));
			sum += v;
		}
		json_array_append_new(devices,
				      json_pack("{s:s,s:s,s:{s:s,s:f,s:f,s:f}}", "label", labels[d],
						"kind", "ebs", "volume", "type", "gp3", "size_gib",
						100.0, "iops", 3000.0, "throughput_mibs", 125.0));
		json_array_append_new(
			phases,
			json_pack(
				"{s:i,s:s,s:s,s:I,s:i,s:i,s:s,s:i,s:o,s:{s:{s:f},s:I},s:{s:i,s:i}}",
				"step", 0 + (int)d, "phase", "together", "device", labels[d],
				"started_ms", (json_int_t)1788362160000 + (json_int_t)d, "bs", 4096,
				"iodepth", 32, "rw", "randread", "window_ms", 1000, "iops_series",
				series, "job", "read", "iops", sum / WINDOWS, "job_runtime",
				(json_int_t)WINDOWS * 1000, "together", "group", 0, "devices", 3));
	}
	json_t *run = json_pack("{s:i,s:o,s:o,s:{s:f},s:{}}", "schema", 4, "devices", devices,
				"phases", phases, "plan", "time_scale", 1.0, "environment");
	if (instance)
		json_object_set_new(json_object_get(run, "environment"), "instance_type",
				    json_string(instance));
	struct ebs_prices prices = ebs_prices_default();
	analysis_build(run, &prices);
	return run;
}

static const json_t *group_of(const json_t *run)
{
	return json_array_get(RESULTS_GET(run, "analysis", "together"), 0);
}

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

static bool finding(const json_t *run, const char *needle)
{
	const json_t *f;
	size_t i;
	json_array_foreach(RESULTS_GET(run, "analysis", "findings"), i, f)
	{
		if (json_string_value(f) && strstr(json_string_value(f), needle))
			return true;
	}
	return false;
}

/* How many findings hold needle. */
static size_t count_said(const json_t *run, const char *needle)
{
	const json_t *f;
	size_t i, n = 0;
	json_array_foreach(RESULTS_GET(run, "analysis", "details"), i, f)
	{
		n += json_string_value(f) && strstr(json_string_value(f), needle);
	}
	return n;
}

/* m5.xlarge: 9,000 then 6,000 at 1,800 s. */
static void test_volumes_then_instance_cliff(struct checks *checks)
{
	json_t *run = together_run("m5.xlarge", 9000, 1800, 6000);
	const json_t *g = group_of(run), *c = json_object_get(g, "cliff");

	CHECK(g != NULL);
	CHECK_NEAR(json_number_value(json_object_get(g, "iops")), 9000, 1);
	CHECK_NEAR(json_number_value(json_object_get(g, "volumes_iops")), 9000, 1);
	CHECK(!strcmp(str(g, "bound"), "volumes"));
	CHECK(!strcmp(str(c, "kind"), "instance"));
	CHECK(!strcmp(str(c, "bound_after"), "instance"));
	CHECK_NEAR(json_number_value(json_object_get(c, "second")), 1800, 1);
	CHECK_NEAR(json_number_value(json_object_get(c, "after_iops")), 6000, 1);
	CHECK(json_array_size(json_object_get(g, "series")) == WINDOWS);
	CHECK(strstr(str(g, "sentence"),
		     "gp3a, gp3b and gp3c driven at once (4 KiB randread): 9000 IOPS (36.9 MB/s) "
		     "in "
		     "all until 1800.0 s, the volumes set it: their limits sum to 9000 (the "
		     "m5.xlarge allows 18750 on its EBS burst, 6000 after it); then 6000 IOPS "
		     "(24.6 MB/s), the m5.xlarge's EBS limit set it (6000, its baseline), not the "
		     "volumes (their limits sum to 9000): the m5.xlarge's EBS burst ran out at "
		     "1800.0 s of the run") != NULL);
	CHECK(finding(run, "gp3a, gp3b and gp3c driven at once"));
	/* Named once: one finding; each device's phase is not judged alone. */
	CHECK(count_said(run, "driven at once (4 KiB") == 1);
	CHECK(count_said(run, "gp3a together: not predicted (driven at once") == 1);
	CHECK(!finding(run, "less than it is sold as"));
	json_decref(run);
}

/* m5.large with its burst spent: 3,600 from the start, the instance's. */
static void test_instance_sets_it(struct checks *checks)
{
	json_t *run = together_run("m5.large", 3610, 0, 0);
	const json_t *g = group_of(run);

	CHECK(!strcmp(str(g, "bound"), "instance"));
	CHECK(json_is_null(json_object_get(g, "cliff")));
	CHECK(strstr(str(g, "sentence"), "3610 IOPS (14.8 MB/s) in all; the m5.large's EBS limit "
					 "set it (3600, its baseline), not the volumes (their "
					 "limits sum to 9000).") != NULL);
	json_decref(run);
}

/* No instance type: the volumes are named where the sum is theirs, and
 * the instance is never blamed. */
static void test_unknown_instance(struct checks *checks)
{
	json_t *run = together_run(NULL, 8990, 0, 0);
	const json_t *g = group_of(run);

	CHECK(!strcmp(str(g, "bound"), "volumes"));
	CHECK(json_is_null(json_object_get(g, "instance")));
	CHECK(strstr(str(g, "sentence"), "the instance's own limit is not known") != NULL);
	json_decref(run);
	run = together_run("x9.unknown", 5000, 0, 0);
	g = group_of(run);
	CHECK(!strcmp(str(g, "bound"), "unknown"));
	CHECK(strstr(str(g, "sentence"), "whether the instance's EBS limit set it cannot be "
					 "told (its type is not in the model's instance table)"));
	json_decref(run);
}

/* 4,500 on an m5.xlarge: neither the volumes' 9,000 nor 6,000 / 18,750. */
static void test_neither(struct checks *checks)
{
	json_t *run = together_run("m5.xlarge", 4500, 0, 0);
	const json_t *g = group_of(run);

	CHECK(!strcmp(str(g, "bound"), "neither"));
	CHECK(strstr(str(g, "sentence"), "neither limit set it") != NULL);
	CHECK(!strstr(str(g, "sentence"), "set it (")); /* nobody named as the bound */
	json_decref(run);
}

/* A run without the phase keeps analysis as it was: no "together". */
static void test_no_group(struct checks *checks)
{
	json_t *run = together_run("m5.xlarge", 9000, 0, 0);
	json_t *phases = json_object_get(run, "phases"), *p;
	size_t i;
	json_array_foreach(phases, i, p)
	{
		json_object_del(p, "together");
	}
	struct ebs_prices prices = ebs_prices_default();
	analysis_build(run, &prices);
	CHECK(json_object_get(json_object_get(run, "analysis"), "together") == NULL);
	json_decref(run);
}

/* After the m5.large's fall (test_instance_cliff.c's fixture: gp3a falls
 * to 3,600 at 1,800 s of the run), a together group counts as its sum:
 * three devices at 1,000 each (3,000 in all) are held by the instance; at
 * 1,500 each (4,500, above 3,600) the instance was not holding them, though
 * each device alone ran below its baseline. */
static void test_group_after_instance_fall(struct checks *checks)
{
	const double each[] = { 1000, 1500 };
	for (size_t c = 0; c < 2; c++) {
		json_t *run =
			verdict_fixture_raw(VERDICT_FIXTURE_DIR "results-instance-cliff.json");
		json_t *phases = json_object_get(run, "phases");
		const char *labels[] = { "gp3a", "gp3b", "gp3a" };
		if (!CHECK(run != NULL))
			return;
		for (int d = 0; d < 3; d++) /* a third member on gp3a: its own volume twice */
			json_array_append_new(
				phases,
				json_pack(
					"{s:i,s:s,s:s,s:I,s:I,s:i,s:i,s:s,s:{s:{s:f}},s:{s:i,s:i}}",
					"step", 10 + d, "phase", "together", "device", labels[d],
					"started_ms", (json_int_t)1788365600000, "ended_ms",
					(json_int_t)1788365660000, "bs", 4096, "iodepth", 32, "rw",
					"randread", "job", "read", "iops", each[c], "together",
					"group", 10, "devices", 3));
		struct ebs_prices prices = ebs_prices_default();
		analysis_build(run, &prices);
		const char *kind =
			json_string_value(RESULTS_GET(run, "analysis", "instance_cliff", "kind"));
		CHECK(kind && !strcmp(kind, c ? "volume" : "instance"));
		const char *why = json_string_value(json_array_get(
			RESULTS_GET(run, "analysis", "instance_cliff", "sentences"), 0));
		CHECK(!c || (why && strstr(why, "gp3a together ran at 4500 IOPS with the devices "
						"driven with it after it")));
		json_decref(run);
	}
}

/* A gp2's bucket spent in a together phase: the phase is not judged alone,
 * but the phase after it starts from what it left (verdict.c's ledger).  A
 * 100 GiB gp2 (5.4 M credits, 300 a second) reading 1,000 IOPS for 1,000 s
 * spends 700,000 net of refill: its randwrite starts at 4.7 M, not full. */
static void test_gp2_ledger_after_together(struct checks *checks)
{
	json_t *run = json_pack(
		"{s:i,s:[{s:s,s:s,s:{s:s,s:f}}],s:["
		"{s:i,s:s,s:s,s:I,s:I,s:i,s:i,s:s,s:{s:{s:f},s:I},s:{s:i,s:i}},"
		"{s:i,s:s,s:s,s:I,s:I,s:i,s:i,s:s,s:{s:{s:f},s:I}}],s:{s:f},s:{}}",
		"schema", 4, "devices", "label", "gp2", "kind", "ebs", "volume", "type", "gp2",
		"size_gib", 100.0, "phases", "step", 0, "phase", "together", "device", "gp2",
		"started_ms", (json_int_t)1788362160000, "ended_ms", (json_int_t)1788363160000,
		"bs", 4096, "iodepth", 32, "rw", "randread", "job", "read", "iops", 1000.0,
		"job_runtime", (json_int_t)1000000, "together", "group", 0, "devices", 1, "step", 1,
		"phase", "randwrite", "device", "gp2", "started_ms", (json_int_t)1788363160000,
		"ended_ms", (json_int_t)1788363220000, "bs", 4096, "iodepth", 32, "rw", "randwrite",
		"job", "write", "iops", 3000.0, "job_runtime", (json_int_t)60000, "plan",
		"time_scale", 1.0, "environment");
	if (!CHECK(run != NULL))
		return;
	struct ebs_prices prices = ebs_prices_default();
	analysis_build(run, &prices);
	const json_t *phases = RESULTS_GET(results_analysis_device(run, "gp2"), "phases");
	const json_t *rw = json_array_get(phases, 1);
	CHECK(results_str_is(json_object_get(rw, "phase"), "randwrite"));
	CHECK_NEAR(results_num_or(rw, "credits_at_start", 0), 5.4e6 - 7e5, 1e3);
	json_decref(run);
}

CHECK_MAIN(test_volumes_then_instance_cliff, test_instance_sets_it, test_unknown_instance,
	   test_neither, test_no_group, test_group_after_instance_fall,
	   test_gp2_ledger_after_together)
