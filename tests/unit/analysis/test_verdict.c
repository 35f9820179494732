/* test_verdict.c - every phase gets a prediction, the bound that set it and
 * a verdict: the reference gp2 (3,000 -> 300 at 2,000 s from 5.4 M
 * credits, 600 after a refill), a qd1 phase the latency bound and no
 * throttle did, sequential throughput caps, the instance's limit, Little
 * at qd1, and a gp2 that began with a part-empty bucket. */
#include <string.h>

#include "check.h"
#include "fixtures/verdict_fixture.h"
#include "analysis/verdict.h"
#include "lib/lib.h"

static void test_reference_gp2(struct checks *checks)
{
	json_t *run = verdict_fixture(FIXTURE_REFERENCE);
	const json_t *gp2 = verdict_device_of(run, "gp2");
	const json_t *state = json_object_get(gp2, "credits_at_start");
	const json_t *rr = verdict_phase_of(run, "gp2", "randread");

	CHECK(run != NULL);
	/* 2,000 s at 3,000, 700 s at 300: a mean of 2,300. */
	CHECK_NEAR(verdict_num(rr, "predicted"), 2300, 1);
	CHECK(!strcmp(verdict_str(rr, "verdict"), "as predicted"));
	CHECK(!strcmp(verdict_str(rr, "bound"), "volume IOPS"));
	CHECK_NEAR(verdict_num(rr, "tolerance"), 0.10, 1e-9);
	/* The cliff at 2,000 s says the bucket held its 5.4 M. */
	CHECK_NEAR(verdict_num(state, "credits"), 5.4e6, 5.4e6 * 0.01);
	CHECK_NEAR(verdict_num(state, "percent"), 100, 1);
	CHECK_NEAR(verdict_num(state, "full_bucket_cliff_s"), 2000, 1e-6);
	CHECK_NEAR(verdict_num(state, "bucket"), 5.4e6, 1e-6);
	CHECK(json_is_false(json_object_get(state, "low")));
	json_decref(run);
}

/* 120 s idle after the cliff refill 36,000 credits: 300 + 36,000 / 120 =
 * 600.  The qd1 phase after 60 s: 1 / 1.651 ms (its mean latency) = 606
 * is above what the bucket allows (600), so the bucket binds. */
static void test_refill_is_bucket_or_latency(struct checks *checks)
{
	json_t *run = verdict_fixture(FIXTURE_REFERENCE);
	const json_t *rw = verdict_phase_of(run, "gp2", "randwrite");
	const json_t *lat = verdict_phase_of(run, "gp2", "lat");
	const json_t *refill = json_object_get(verdict_device_of(run, "gp2"), "refill");

	CHECK_NEAR(verdict_num(rw, "predicted"), 600, 1);
	CHECK(!strcmp(verdict_str(rw, "verdict"), "as predicted"));
	CHECK_NEAR(verdict_num(lat, "predicted"), 600, 1);
	CHECK(!strcmp(verdict_str(lat, "bound"), "volume IOPS"));
	CHECK_NEAR(verdict_num(json_object_get(lat, "bounds"), "latency"), 1 / 1.651e-3, 1);
	CHECK(!strcmp(verdict_str(lat, "verdict"), "as predicted"));
	CHECK(json_array_size(refill) == 2); /* randwrite, lat: the IOPS phases */
	CHECK_NEAR(verdict_num(json_array_get(refill, 0), "expected_iops"), 600, 1);
	CHECK(!strcmp(verdict_str(json_array_get(refill, 1), "bound"), "volume IOPS"));
	json_decref(run);
}

/* The "3490 IOPS after 1.3 s idle; the refill model predicts
 * 2315": a qd1 phase after a refill that no throttle limited is bound by
 * its latency, 1 / 0.51 ms (its mean) = 1,961, below the bucket's 3,000. */
static void test_qd1_latency_bound(struct checks *checks)
{
	json_t *run = verdict_fixture(FIXTURE_QD1);
	const json_t *lat = verdict_phase_of(run, "gp2", "lat");
	const json_t *gp3 = verdict_phase_of(run, "gp3", "lat");
	const json_t *findings = json_object_get(json_object_get(run, "analysis"), "details");
	const json_t *f;
	size_t i;
	bool said = false;

	CHECK_NEAR(verdict_num(lat, "predicted"), 1 / 0.51e-3, 1);
	CHECK(!strcmp(verdict_str(lat, "bound"), "latency (iodepth / service time)"));
	CHECK(!strcmp(verdict_str(lat, "verdict"), "as predicted"));
	CHECK_NEAR(verdict_num(json_object_get(lat, "bounds"), "volume"), 3000, 1);
	CHECK_NEAR(verdict_num(gp3, "predicted"), 1 / 0.256e-3, 1);
	CHECK(!strcmp(verdict_str(gp3, "bound"), "latency (iodepth / service time)"));
	json_array_foreach(findings, i, f)
	{
		const char *s = json_string_value(f);
		CHECK(!strstr(s, "the refill model predicts"));
		if (strstr(s, "gp2 lat: 1960 IOPS after 1.3 s idle; predicted 1961, bound by "
			      "latency"))
			said = true;
	}
	CHECK(said);
	/* At qd32 the p50 latency is the throttle's queue: no latency bound. */
	CHECK(json_is_null(json_object_get(
		json_object_get(verdict_phase_of(run, "gp2", "randread"), "bounds"), "latency")));
	json_decref(run);
}

/* gp3's lat in the qd1 fixture set to `iops` with a mean latency of
 * mean_ms and a p50 of p50_ms, on a volume of 4,000 IOPS; analysed. */
static json_t *qd1_waits(double iops, double mean_ms, double p50_ms)
{
	json_t *run = verdict_fixture_raw(FIXTURE_QD1);
	struct ebs_prices prices = ebs_prices_default();
	json_t *phase;
	size_t k;

	if (!run)
		return NULL;
	json_object_set_new(
		json_object_get(json_array_get(json_object_get(run, "devices"), 1), "volume"),
		"iops", json_real(4000));
	json_array_foreach(json_object_get(run, "phases"), k, phase)
	{
		if (strcmp(json_string_value(json_object_get(phase, "phase")), "lat") ||
		    strcmp(json_string_value(json_object_get(phase, "device")), "gp3"))
			continue;
		json_t *read = json_object_get(json_object_get(phase, "job"), "read");
		json_object_set_new(read, "iops", json_real(iops));
		json_object_set_new(read, "lat_ns", json_pack("{s:f}", "mean", mean_ms * 1e6));
		json_object_set_new(json_object_get(json_object_get(read, "clat_ns"), "percentile"),
				    "50.000000", json_real(p50_ms * 1e6));
	}
	analysis_build(run, &prices);
	return run;
}

/* Issue 40's emulated gp3 of 4,000 IOPS at qd1: 3,345 IOPS, latency
 * bimodal (p50 0.056 ms, mean 0.299 ms: a throttle's waits).  One I/O in
 * flight allows 1 / 0.299 ms = 3,344: the latency bound it, as predicted,
 * neither "worse" nor bound by the volume's 4,000 (which iodepth / p50,
 * 17,857, left to bind).  At 3,800 IOPS (mean 0.263 ms) the waits are the
 * volume's: its 4,000 lies within 10 % above 1 / 0.263 ms and is named. */
static void test_qd1_bimodal_mean(struct checks *checks)
{
	json_t *run = qd1_waits(3345, 0.299, 0.056);
	const json_t *lat = verdict_phase_of(run, "gp3", "lat");
	const char *why = verdict_str(lat, "explanation");

	CHECK_NEAR(verdict_num(lat, "predicted"), 1 / 0.299e-3, 1);
	CHECK(!strcmp(verdict_str(lat, "bound"), "latency (iodepth / service time)"));
	CHECK(!strcmp(verdict_str(lat, "verdict"), "as predicted"));
	CHECK_NEAR(verdict_num(json_object_get(lat, "bounds"), "volume"), 4000, 1e-6);
	CHECK(strstr(why, "qd1 / 0.299 ms (mean latency) 3344") != NULL);
	CHECK(!strstr(why, "worse") && !strstr(why, "bound by volume IOPS"));
	json_decref(run);

	run = qd1_waits(3800, 1 / 3.8e3 * 1e3, 0.056);
	lat = verdict_phase_of(run, "gp3", "lat");
	CHECK_NEAR(verdict_num(lat, "predicted"), 4000, 1e-6);
	CHECK(!strcmp(verdict_str(lat, "bound"), "volume IOPS"));
	CHECK(!strcmp(verdict_str(lat, "verdict"), "as predicted"));
	json_decref(run);
}

/* 1 MiB sequential I/O counts as four 256 KiB units: gp2 500 GiB and the
 * 250 MiB/s gp3 are throughput-bound at 250 MiB/s. */
static void test_sequential_verdicts(struct checks *checks)
{
	json_t *run = verdict_fixture(FIXTURE_QD1);
	const json_t *sr = verdict_phase_of(run, "gp2", "seqread");
	const json_t *sw = verdict_phase_of(run, "gp3", "seqwrite");

	CHECK(!strcmp(verdict_str(sr, "unit"), "MiB/s"));
	CHECK_NEAR(verdict_num(sr, "predicted"), 250, 0.01);
	CHECK(!strcmp(verdict_str(sr, "bound"), "volume throughput"));
	CHECK(!strcmp(verdict_str(sr, "verdict"), "as predicted"));
	CHECK_NEAR(verdict_num(sw, "measured"), 180, 0.5);
	CHECK(!strcmp(verdict_str(sw, "verdict"), "worse"));
	json_decref(run);
	/* Twice the cap is better than predicted. */
	run = verdict_fixture_raw(FIXTURE_QD1);
	json_t *p = json_array_get(json_object_get(run, "phases"), 9); /* seqread gp3 */
	json_t *read = json_object_get(json_object_get(p, "job"), "read");
	struct ebs_prices prices = ebs_prices_default();
	CHECK(!strcmp(verdict_str(p, "phase"), "seqread") &&
	      !strcmp(verdict_str(p, "device"), "gp3"));
	json_object_set_new(read, "iops", json_real(500));
	analysis_build(run, &prices);
	CHECK(!strcmp(verdict_str(verdict_phase_of(run, "gp3", "seqread"), "verdict"), "better"));
	json_decref(run);
}

/* SSD volumes count I/O in 256 KiB units and merge sequential I/O from
 * 32 KiB: 64 KiB sequential on 6,000 IOPS is 24,000 I/O a second (1,500
 * MiB/s, the gp3's cap), 16 KiB sequential 6,000 (93.75 MiB/s). */
static void test_sequential_units(struct checks *checks)
{
	json_t *run = verdict_fixture_raw(FIXTURE_QD1);
	json_t *phases = json_object_get(run, "phases");
	struct ebs_prices prices = ebs_prices_default();

	json_object_set_new(
		json_object_get(json_array_get(json_object_get(run, "devices"), 1), "volume"),
		"throughput_mibs", json_real(1500));
	/* No instance limit in the way (m5.2xlarge's baseline is 274 MiB/s). */
	json_object_set_new(json_object_get(run, "environment"), "instance_type", json_null());
	json_object_set_new(json_array_get(phases, 9), "bs", json_real(65536));
	json_object_set_new(json_array_get(phases, 11), "bs", json_real(16384));
	analysis_build(run, &prices);
	const json_t *sr = verdict_phase_of(run, "gp3", "seqread");
	const json_t *sw = verdict_phase_of(run, "gp3", "seqwrite");
	CHECK_NEAR(verdict_num(sr, "predicted"), 1500, 0.01);
	CHECK(!strcmp(verdict_str(sr, "bound"), "volume throughput"));
	CHECK_NEAR(verdict_num(sw, "predicted"), 93.75, 0.01);
	CHECK(!strcmp(verdict_str(sw, "bound"), "volume IOPS"));
	json_decref(run);
}

/* m5.large: its 30-minute burst is spent by the time gp3's randread runs
 * (after gp2's 4,860 s), so its 3,600-IOPS baseline binds. */
static void test_instance_bound(struct checks *checks)
{
	json_t *run = verdict_fixture_raw(FIXTURE_QD1);
	struct ebs_prices prices = ebs_prices_default();

	json_object_set_new(json_object_get(run, "environment"), "instance_type",
			    json_string("m5.large"));
	analysis_build(run, &prices);
	const json_t *rr = verdict_phase_of(run, "gp3", "randread");
	CHECK_NEAR(verdict_num(rr, "predicted"), 3600, 1e-6);
	CHECK(!strcmp(verdict_str(rr, "bound"), "instance IOPS"));
	CHECK(!strcmp(verdict_str(rr, "verdict"), "better"));
	/* The first phase is inside the burst: 593.75 MB/s does not bind. */
	CHECK(!strcmp(verdict_str(verdict_phase_of(run, "gp2", "layout"), "bound"),
		      "volume throughput"));
	json_decref(run);
}

/* A rated phase (--rate_iops) asks for its rate and no more: 1,500 on a
 * 6,000-IOPS gp3 is predicted at 1,500, bound by the offered load, and a
 * rate above the volume's limit is bound by the volume again.  The record
 * is the one --rate_iops=R writes: R for both directions, of which a
 * randread offers only the read's. */
static void test_rated_phase(struct checks *checks)
{
	static const struct {
		double rate, measured, predicted;
		const char *bound;
	} cases[] = { { 1500, 1502, 1500, "the offered load (rate_iops)" },
		      { 9000, 6000, 6000, "volume IOPS" } };

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		json_t *run = verdict_fixture_raw(FIXTURE_QD1);
		struct ebs_prices prices = ebs_prices_default();
		size_t k;
		json_t *phase;

		if (!CHECK(run != NULL))
			return;
		json_array_foreach(json_object_get(run, "phases"), k, phase)
		{
			json_t *job = json_object_get(phase, "job");
			if (strcmp(json_string_value(json_object_get(phase, "phase")),
				   "randread") ||
			    strcmp(json_string_value(json_object_get(phase, "device")), "gp3"))
				continue;
			json_object_set_new(json_object_get(job, "read"), "iops",
					    json_real(cases[i].measured));
			json_object_set_new(job, "ebsbench",
					    json_pack("{s:{s:f,s:f,s:s}}", "rate", "read_iops",
						      cases[i].rate, "write_iops", cases[i].rate,
						      "process", "linear"));
		}
		analysis_build(run, &prices);
		const json_t *rr = verdict_phase_of(run, "gp3", "randread");
		CHECK_NEAR(verdict_num(rr, "predicted"), cases[i].predicted, 1e-6);
		CHECK(!strcmp(verdict_str(rr, "bound"), cases[i].bound));
		CHECK(!strcmp(verdict_str(rr, "verdict"), "as predicted"));
		CHECK(strstr(verdict_str(rr, "explanation"), "the offered load (rate_iops)") !=
		      NULL);
		json_decref(run);
	}
}

/* The bucket held 3.18 M credits when randread began: its cliff at
 * 1,178 s says so within 5 %, and the TL;DR flag is up. */
static void test_part_empty_start(struct checks *checks)
{
	json_t *run = verdict_fixture(FIXTURE_PART_EMPTY);
	const json_t *state = json_object_get(verdict_device_of(run, "gp2"), "credits_at_start");
	const json_t *rr = verdict_phase_of(run, "gp2", "randread");

	CHECK_NEAR(verdict_num(state, "credits"), FIXTURE_PART_EMPTY_CREDITS,
		   0.05 * FIXTURE_PART_EMPTY_CREDITS);
	CHECK_NEAR(verdict_num(state, "percent"), 100 * FIXTURE_PART_EMPTY_CREDITS / 5.4e6, 5);
	CHECK(json_is_true(json_object_get(state, "low")));
	CHECK_NEAR(verdict_num(state, "cliff_s"), 1178, 1);
	CHECK(strstr(verdict_str(state, "sentence"), "the cliff came at 1178 s, not 2000 s") !=
	      NULL);
	/* The ledger expected a full bucket; the evidence overrules it, so the
	 * phase is predicted from the balance its cliff gives (as predicted,
	 * not "worse" than a full bucket), and says what a full start would
	 * have left. */
	CHECK_NEAR(verdict_num(state, "expected_credits"), 5.4e6, 1);
	CHECK(!strcmp(verdict_str(rr, "verdict"), "as predicted"));
	CHECK(strstr(verdict_str(rr, "explanation"), "(its bucket 59 % full at the start, by its "
						     "cliff)") != NULL);
	CHECK(strstr(verdict_str(rr, "explanation"), "bucket about 59 % full (from its cliff), not "
						     "the 100 %") != NULL);
	CHECK(strstr(verdict_str(rr, "explanation"), "100 % full at the start") == NULL);
	/* However full it began, the bucket was empty after the cliff: the
	 * 120 s idle refilled 36,000 credits, 600 IOPS over randwrite. */
	CHECK_NEAR(verdict_num(verdict_phase_of(run, "gp2", "randwrite"), "predicted"), 600, 1);
	json_decref(run);
}

/* Little's law at qd1 is service time, never a queue. */
static void test_little_at_qd1(struct checks *checks)
{
	json_t *run = verdict_fixture(FIXTURE_QD1);
	const json_t *l;
	size_t i;
	int qd1 = 0;

	json_array_foreach(json_object_get(verdict_device_of(run, "gp2"), "little"), i, l)
	{
		if (verdict_num(l, "iodepth") != 1)
			continue;
		qd1++;
		CHECK(strstr(verdict_str(l, "verdict"), "service time, no queue") != NULL);
		CHECK(!strstr(verdict_str(l, "verdict"), "queue the IOPS limit builds"));
	}
	CHECK(qd1 == 1);
	json_decref(run);
}

/* Where the model does not apply the phase says so, with no number. */
static void test_not_applicable(struct checks *checks)
{
	json_t *run = verdict_fixture_raw(FIXTURE_QD1);
	struct ebs_prices prices = ebs_prices_default();

	json_object_set_new(json_array_get(json_object_get(run, "devices"), 1), "kind",
			    json_string("instance-store"));
	json_object_set_new(json_object_get(run, "plan"), "time_scale", json_real(0));
	analysis_build(run, &prices);
	const json_t *rr = verdict_phase_of(run, "gp3", "randread");
	CHECK(!strcmp(verdict_str(rr, "verdict"), "not predicted"));
	CHECK(json_is_null(json_object_get(rr, "predicted")));
	CHECK(strstr(verdict_str(rr, "explanation"), "not an EBS volume") != NULL);
	CHECK(!strcmp(ebs_verdict_name(EBS_ABOVE_PREDICTION), "better"));
	CHECK(!strcmp(ebs_verdict_name(EBS_BELOW_PREDICTION), "worse"));
	json_decref(run);
}

CHECK_MAIN(test_rated_phase, test_reference_gp2, test_refill_is_bucket_or_latency,
	   test_qd1_latency_bound, test_qd1_bimodal_mean, test_sequential_verdicts,
	   test_sequential_units, test_instance_bound, test_part_empty_start, test_little_at_qd1,
	   test_not_applicable)
