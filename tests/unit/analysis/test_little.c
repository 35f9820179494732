/* test_little.c - Little's law on the seed's phases: qd32 at 3,000 IOPS
 * is 10.67 ms of queueing, and every measured phase is consistent; a rated
 * step keeps its rate x latency in flight and is never an underfilled
 * queue. */
#include <string.h>

#include "check.h"
#include "analysis/little.h"
#include "analysis/internal.h"

static void test_predicted_latency(struct checks *checks)
{
	CHECK_NEAR(little_latency_s(32, 3000) * 1e3, 10.67, 0.005);
	CHECK_NEAR(little_latency_s(32, 300) * 1e3, 106.67, 0.005);
	CHECK(isnan(little_latency_s(32, 0)));
	CHECK(isnan(little_latency_s(32, NAN)));
}

static void test_benchmark_phases_are_consistent(struct checks *checks)
{
	/* gp3 randread qd32, gp2 randwrite after the cliff, gp3 qd1. */
	struct little_check c = little_judge(3001, 10.4e-3, 32, LITTLE_TOLERANCE);

	CHECK(c.verdict == LITTLE_CONSISTENT);
	CHECK_NEAR(c.in_flight, 31.21, 0.01);
	CHECK_NEAR(c.ratio, 0.975, 0.001);
	CHECK_NEAR(c.predicted_latency_s * 1e3, 10.66, 0.01);
	CHECK(little_judge(601, 52.0e-3, 32, LITTLE_TOLERANCE).verdict == LITTLE_CONSISTENT);
	/* qd1: one in flight by construction, no queue. */
	CHECK(little_judge(1759, 0.564e-3, 1, LITTLE_TOLERANCE).verdict == LITTLE_SERVICE_TIME);
	CHECK(strstr(little_note(LITTLE_SERVICE_TIME), "service time, no queue") != NULL);
	CHECK(strstr(little_note(LITTLE_SERVICE_TIME), "queue the IOPS limit builds") == NULL);
}

static void test_inconsistent_and_missing(struct checks *checks)
{
	struct little_check c = little_judge(1000, 10e-3, 32, LITTLE_TOLERANCE);

	CHECK(c.verdict == LITTLE_UNDERFILLED);
	CHECK_NEAR(c.ratio, 10.0 / 32, 1e-12);
	CHECK(little_judge(3000, 20e-3, 32, LITTLE_TOLERANCE).verdict == LITTLE_OVERFILLED);
	c = little_judge(0, 10e-3, 32, LITTLE_TOLERANCE);
	CHECK(c.verdict == LITTLE_NO_DATA);
	CHECK(isnan(c.ratio));
	CHECK(little_judge(3000, 10e-3, 0, LITTLE_TOLERANCE).verdict == LITTLE_NO_DATA);
	CHECK(little_judge(3000, NAN, 32, LITTLE_TOLERANCE).verdict == LITTLE_NO_DATA);
	CHECK(strstr(little_note(LITTLE_UNDERFILLED), "fewer") != NULL);
	CHECK(strstr(little_note(LITTLE_NO_DATA), "not enough") != NULL);
}

/* A load-curve step at 750 IOPS offered, qd32, 10.4 ms from the scheduled
 * issue: 7.8 in flight is the rate's, not a queue the submitter let run dry. */
static void test_rated_step(struct checks *checks)
{
	struct little_check c = little_judge_rated(750, 10.4e-3, 32, 750, LITTLE_TOLERANCE);
	CHECK(c.verdict == LITTLE_RATED);
	CHECK_NEAR(c.in_flight, 7.8, 1e-9);
	/* Served 600 of 1,000 offered: behind, whatever is in flight. */
	CHECK(little_judge_rated(600, 60e-3, 32, 1000, LITTLE_TOLERANCE).verdict ==
	      LITTLE_RATED_BEHIND);
	/* No rate: the closed loop's verdicts. */
	CHECK(little_judge_rated(750, 10.4e-3, 32, 0, LITTLE_TOLERANCE).verdict ==
	      LITTLE_UNDERFILLED);
	CHECK(strstr(little_note(LITTLE_RATED), "submitter did not") == NULL);
	CHECK(strstr(little_note(LITTLE_RATED_BEHIND), "submitter did not") == NULL);
}

/* A phase as results.json holds it: rated by job.ebsbench.rate (read and
 * write rates added), both directions' IOPS and lat_ns together. */
static void test_phase_from_results(struct checks *checks)
{
	json_t *rated = json_loads("{\"iodepth\": 32, \"job\": {"
				   " \"read\": {\"iops\": 500, \"lat_ns\": {\"mean\": 8e6}},"
				   " \"write\": {\"iops\": 250, \"lat_ns\": {\"mean\": 14e6}},"
				   " \"ebsbench\": {\"rate\": {\"read_iops\": 500,"
				   "                             \"write_iops\": 250}}}}",
				   0, NULL);
	struct little_check c = little_judge_phase(rated);
	CHECK(c.verdict == LITTLE_RATED);
	CHECK_NEAR(c.in_flight, 500 * 8e-3 + 250 * 14e-3, 1e-9);
	json_object_del(json_object_get(rated, "job"), "ebsbench");
	CHECK(little_judge_phase(rated).verdict == LITTLE_UNDERFILLED);
	json_decref(rated);
}

CHECK_MAIN(test_predicted_latency, test_benchmark_phases_are_consistent,
	   test_inconsistent_and_missing, test_rated_step, test_phase_from_results)
