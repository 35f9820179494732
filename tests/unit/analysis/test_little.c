/* test_little.c - Little's law on the seed's phases: qd32 at 3,000 IOPS
 * is 10.67 ms of queueing, and every measured phase is consistent. */
#include <string.h>

#include "check.h"
#include "analysis/little.h"

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

CHECK_MAIN(test_predicted_latency, test_benchmark_phases_are_consistent,
	   test_inconsistent_and_missing)
