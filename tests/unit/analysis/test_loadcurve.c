/* test_loadcurve.c - the knee of a latency-vs-load curve (the lowest load
 * whose p99 passes 4x the lowest load's, steps on burst left out) and
 * what results.json's analysis and findings say about it: the knee
 * named with the volume's cap, a curve with no knee, a step on burst,
 * and a device the EBS model does not cover. */
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "fixtures/loadcurve_fixture.h"
#include "analysis/analysis.h"
#include "analysis/finding.h"
#include "analysis/internal.h"
#include "results/results.h"

static void test_knee(struct checks *checks)
{
	struct loadcurve_knee k;
	CHECK(loadcurve_find_knee(fixture_gp3_curve, FIXTURE_GP3_STEPS, &k) == 0);
	CHECK(k.found);
	CHECK_EQ_U64(k.base, 0);
	CHECK_EQ_U64(k.knee, 4); /* 20 ms > 4 x 0.6 ms */
	CHECK_EQ_U64(k.last_good, 3);
	CHECK_NEAR(k.threshold_ms, 2.4, 1e-12);
	/* Exactly 4x is not past the knee; a hair more is. */
	struct loadcurve_step edge[2] = { fixture_gp3_curve[0], fixture_gp3_curve[1] };
	edge[1].p99_ms = 2.4;
	CHECK(loadcurve_find_knee(edge, 2, &k) == 0 && !k.found);
	edge[1].p99_ms = 2.41;
	CHECK(loadcurve_find_knee(edge, 2, &k) == 0 && k.found && k.knee == 1);
	/* No reference: no percentiles at all. */
	edge[0].p99_ms = edge[1].p99_ms = NAN;
	CHECK(loadcurve_find_knee(edge, 2, &k) == -1);
	/* A busy machine spikes the 75 % step's p99 (18 ms with p50 flat), the
	 * 90 % step is back under: the knee stays at 100 %, the cap. */
	struct loadcurve_step spiked[FIXTURE_GP3_STEPS];
	memcpy(spiked, fixture_gp3_curve, sizeof(spiked));
	spiked[2].p99_ms = 18.0;
	CHECK(loadcurve_find_knee(spiked, FIXTURE_GP3_STEPS, &k) == 0 && k.found);
	CHECK_EQ_U64(k.knee, 4);
	CHECK_EQ_U64(k.last_good, 3);
	/* Past the threshold at the top only when it stays there: a spike at
	 * 100 % with 110 % back under is no knee. */
	spiked[2].p99_ms = 0.9;
	spiked[5].p99_ms = 1.0;
	CHECK(loadcurve_find_knee(spiked, FIXTURE_GP3_STEPS, &k) == 0 && !k.found);
}

/* A step on burst is never the knee nor the reference. */
static void test_burst_left_out(struct checks *checks)
{
	struct loadcurve_step s[FIXTURE_GP3_STEPS];
	struct loadcurve_knee k;
	memcpy(s, fixture_gp3_curve, sizeof(s));
	s[0].on_burst = true; /* the reference moves to 50 % */
	s[4].on_burst = true; /* 100 % skipped: the knee moves to 110 % */
	CHECK(loadcurve_find_knee(s, FIXTURE_GP3_STEPS, &k) == 0);
	CHECK_EQ_U64(k.base, 1);
	CHECK(k.found);
	CHECK_EQ_U64(k.knee, 5);
	CHECK_EQ_U64(k.last_good, 3);
}

static void test_analysis_names_the_knee(struct checks *checks)
{
	json_t *results =
		fixture_loadcurve_results(fixture_gp3_curve, FIXTURE_GP3_STEPS, "ebs", 3000, false);
	json_t *findings = json_array();
	json_t *lc = loadcurve_analyse(results, "vol", 0, findings);
	const char *sentence = json_string_value(json_object_get(lc, "sentence"));
	if (!CHECK(sentence != NULL))
		return;
	fprintf(stderr, "  %s\n", sentence);
	CHECK(strstr(sentence, "vol: p99 stays under 1.2 ms up to 2700 IOPS (90 %); at 3000 "
			       "offered (100 %) it reaches 20 ms: the volume's cap (3000 IOPS "
			       "sustained, the volume's provisioned IOPS).") == sentence);
	CHECK_EQ_U64(json_array_size(findings), 1);
	CHECK(!strcmp(finding_text(json_array_get(findings, 0)), sentence));
	/* Steps by rising load, whatever order they ran in. */
	const json_t *steps = json_object_get(lc, "steps");
	CHECK_EQ_U64(json_array_size(steps), FIXTURE_GP3_STEPS);
	CHECK_NEAR(json_number_value(json_object_get(json_array_get(steps, 0), "percent")), 25, 0);
	CHECK_NEAR(json_number_value(json_object_get(json_array_get(steps, 5), "p99_9_ms")), 50,
		   1e-9);
	CHECK(json_is_false(json_object_get(json_array_get(steps, 5), "held"))); /* 3000/3300 */
	CHECK(json_is_true(json_object_get(json_array_get(steps, 4), "held")));
	CHECK_NEAR(json_number_value(RESULTS_GET(lc, "knee", "percent")), 100, 0);
	CHECK_NEAR(json_number_value(RESULTS_GET(lc, "knee", "offered_iops")), 3000, 0);
	CHECK(json_is_true(json_object_get(lc, "model_applies")));
	json_decref(lc);
	json_decref(findings);
	json_decref(results);
	/* A device that ran no loadcurve: null, nothing said. */
	findings = json_array();
	results = fixture_loadcurve_results(fixture_gp3_curve, 0, "ebs", 3000, false);
	CHECK(json_is_null(loadcurve_analyse(results, "vol", 0, findings)));
	CHECK_EQ_U64(json_array_size(findings), 0);
	json_decref(findings);
	json_decref(results);
}

/* A volume that delivers 1,500 of its 3,000: the knee at 3,000 offered is
 * the limit it delivers, not its provisioned cap. */
static void test_knee_at_the_delivered_limit(struct checks *checks)
{
	json_t *results =
		fixture_loadcurve_results(fixture_gp3_curve, FIXTURE_GP3_STEPS, "ebs", 3000, false);
	json_t *findings = json_array();
	json_t *lc = loadcurve_analyse(results, "vol", 1500, findings);
	const char *s = json_string_value(json_object_get(lc, "sentence"));
	if (CHECK(s != NULL)) {
		fprintf(stderr, "  %s\n", s);
		CHECK(strstr(s, "it reaches 20 ms: the limit the volume delivers (1500 IOPS, not "
				"the 3000 it is sold as).") != NULL);
		CHECK(strstr(s, "the volume's cap") == NULL);
	}
	json_decref(lc);
	json_decref(findings);
	json_decref(results);
}

/* Flat to 110 %: no knee; the top step served above the sustained rate is
 * on burst credits only on a volume with a bucket (gp2 of 100 GiB), above
 * its limit on one without (gp3); a device the model does not cover names
 * no cap. */
static void test_no_knee_burst_and_no_model(struct checks *checks)
{
	struct loadcurve_step flat[FIXTURE_GP3_STEPS];
	memcpy(flat, fixture_gp3_curve, sizeof(flat));
	flat[4].p99_ms = flat[5].p99_ms = 1.5;
	json_t *findings = json_array();
	json_t *results = fixture_loadcurve_results(flat, FIXTURE_GP3_STEPS, "ebs", 3000, true);
	json_t *lc = loadcurve_analyse(results, "vol", 0, findings);
	const char *s = json_string_value(json_object_get(lc, "sentence"));
	if (CHECK(s != NULL)) {
		fprintf(stderr, "  %s\n", s);
		CHECK(strstr(s, "at every load measured") != NULL);
		CHECK(strstr(s, "no knee") != NULL);
		CHECK(strstr(s, "The 110 % step was served above the sustained rate") != NULL);
		CHECK(strstr(s, "no burst bucket") != NULL);
		CHECK(strstr(s, "burst credits") == NULL); /* a gp3 has none */
	}
	CHECK(json_is_null(json_object_get(lc, "knee")));
	json_t *top = json_array_get(json_object_get(lc, "steps"), FIXTURE_GP3_STEPS - 1);
	CHECK(json_is_true(json_object_get(top, "above_limit")));
	CHECK(json_is_false(json_object_get(top, "on_burst")));
	json_decref(lc);
	json_t *volume =
		json_object_get(json_array_get(json_object_get(results, "devices"), 0), "volume");
	json_object_set_new(volume, "type", json_string("gp2"));
	lc = loadcurve_analyse(results, "vol", 0, findings);
	s = json_string_value(json_object_get(lc, "sentence"));
	if (CHECK(s != NULL))
		CHECK(strstr(s, "The 110 % step ran on burst credits") != NULL);
	top = json_array_get(json_object_get(lc, "steps"), FIXTURE_GP3_STEPS - 1);
	CHECK(json_is_true(json_object_get(top, "on_burst")));
	CHECK(json_is_false(json_object_get(top, "above_limit")));
	CHECK(json_is_null(json_object_get(lc, "knee")));
	json_decref(lc);
	json_decref(results);
	results = fixture_loadcurve_results(fixture_gp3_curve, FIXTURE_GP3_STEPS, "instance-store",
					    3000, false);
	lc = loadcurve_analyse(results, "vol", 0, findings);
	s = json_string_value(json_object_get(lc, "sentence"));
	if (CHECK(s != NULL)) {
		CHECK(strstr(s, "the EBS model gives no sustained rate for this device") != NULL);
		CHECK(strstr(s, "cap (") == NULL);
	}
	CHECK(json_is_false(json_object_get(lc, "model_applies")));
	json_decref(lc);
	json_decref(results);
	json_decref(findings);
}

CHECK_MAIN(test_knee, test_burst_left_out, test_analysis_names_the_knee,
	   test_knee_at_the_delivered_limit, test_no_knee_burst_and_no_model)
