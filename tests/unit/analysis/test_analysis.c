/* test_analysis.c - results["analysis"] over the gp2/gp3 fixture: the
 * model's prediction, gp2's credit cliff at 2,000 s and gp3's flat line,
 * the refill after idle gaps, Little's law per phase, the cost and the
 * findings' sentences; then the same run time-scaled, a cliff that comes
 * early or never, and other regions' prices.  Every expected figure is
 * worked out here from the fixture's inputs, not read from the output. */
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "check.h"
#include "analysis/analysis.h"
#include "fixtures/results_fixture.h"
#include "lib/lib.h"

/* obj.key as a number; NaN when it is missing or not a number. */
static double num(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *str(const json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));
	return s ? s : "";
}

/* The i-th string of a list; "" when there is none. */
static const char *nth(const json_t *list, size_t i)
{
	const char *s = json_string_value(json_array_get(list, i));
	return s ? s : "";
}

/* analysis.devices[] entry of a label, or NULL. */
static json_t *device_of(json_t *run, const char *label)
{
	json_t *d;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(run, "analysis"), "devices"), i,
			   d) if (!strcmp(str(d, "device"), label)) return d;
	return NULL;
}

static json_t *analysed(json_t *run, const struct ebs_prices *prices)
{
	analysis_build(run, prices);
	return json_object_get(json_object_get(run, "analysis"), "findings");
}

/* The fixture analysed with the default (Seoul) prices; NULL if the
 * fixture cannot be read. */
static json_t *analysed_in_seoul(void)
{
	json_t *run = fixture_load();
	struct ebs_prices prices = ebs_prices_default();

	if (run)
		analysed(run, &prices);
	return run;
}

/* The fixture's own series: the plateau [start, end) of a generator. */
struct plateau {
	double mean, min, max;
};

static struct plateau plateau_of(double (*iops)(size_t), size_t start, size_t end)
{
	struct plateau p = { 0, HUGE_VAL, -HUGE_VAL };

	for (size_t i = start; i < end; i++) {
		p.mean += iops(i) / (double)(end - start);
		p.min = fmin(p.min, iops(i));
		p.max = fmax(p.max, iops(i));
	}
	return p;
}

static void check_plateau(struct checks *checks, const json_t *got, double from_s, double to_s,
			  struct plateau want)
{
	CHECK_NEAR(num(got, "from_s"), from_s, 1e-9);
	CHECK_NEAR(num(got, "to_s"), to_s, 1e-9);
	CHECK_NEAR(num(got, "mean"), want.mean, 1e-6);
	CHECK_NEAR(num(got, "min"), want.min, 0);
	CHECK_NEAR(num(got, "max"), want.max, 0);
}

/* gp2 100 GiB: 3 IOPS/GiB = 300 baseline, 3,000 burst, 5.4 M credits /
 * (3,000 - 300) = 2,000 s; the series falls there (first second at 300:
 * 2,000), after a 1 s transition at 1,999 s. */
static void test_gp2_cliff(struct checks *checks)
{
	json_t *run = analysed_in_seoul();

	if (!CHECK(run != NULL))
		return;
	json_t *gp2 = device_of(run, "gp2");
	json_t *pred = json_object_get(gp2, "prediction"), *cliff = json_object_get(gp2, "cliff");
	CHECK_NEAR(num(pred, "baseline_iops"), 3 * 100, 1e-9);
	CHECK_NEAR(num(pred, "burst_iops"), 3000, 1e-9);
	CHECK_NEAR(num(pred, "burst_seconds"), 5.4e6 / (3000 - 300), 1e-6);
	CHECK(json_is_true(json_object_get(pred, "bursts")));
	CHECK(!strcmp(str(cliff, "status"), "found"));
	CHECK_NEAR(num(cliff, "second"), FIXTURE_CLIFF_SECOND, 0);
	CHECK_NEAR(num(cliff, "transition_s"), 1, 0);
	CHECK_NEAR(num(cliff, "predicted_second"), 2000, 1e-6);
	CHECK(!strcmp(str(cliff, "verdict"), "as predicted"));
	/* The first second (fio's queue fill) belongs to neither level. */
	check_plateau(checks, json_object_get(cliff, "before"), 1, 1999,
		      plateau_of(fixture_gp2_iops, 1, 1999));
	check_plateau(checks, json_object_get(cliff, "after"), 2000, FIXTURE_GP2_SECONDS,
		      plateau_of(fixture_gp2_iops, 2000, FIXTURE_GP2_SECONDS));
	CHECK_NEAR(num(json_object_get(cliff, "after"), "min"), FIXTURE_POST_CLIFF_MIN, 0);
	json_decref(run);
}

/* gp3 3,000 IOPS: no burst, no cliff predicted, none found. */
static void test_gp3_flat(struct checks *checks)
{
	json_t *run = analysed_in_seoul();

	if (!CHECK(run != NULL))
		return;
	json_t *gp3 = device_of(run, "gp3");
	json_t *pred = json_object_get(gp3, "prediction"), *cliff = json_object_get(gp3, "cliff");
	CHECK_NEAR(num(pred, "baseline_iops"), 3000, 1e-9);
	CHECK(json_is_false(json_object_get(pred, "bursts")));
	CHECK_NEAR(num(pred, "burst_seconds"), 0, 0);
	CHECK(!strcmp(str(cliff, "status"), "none"));
	CHECK(json_is_null(json_object_get(cliff, "predicted_second")));
	CHECK(!strcmp(str(cliff, "verdict"), "as predicted"));
	CHECK(json_object_get(cliff, "after") == NULL);
	check_plateau(checks, json_object_get(cliff, "before"), 1, FIXTURE_GP3_SECONDS,
		      plateau_of(fixture_gp3_iops, 1, FIXTURE_GP3_SECONDS));
	/* Refill is only judged once the bucket ran dry. */
	CHECK_EQ_U64(json_array_size(json_object_get(gp3, "refill")), 0);
	json_decref(run);
}

/* After the cliff, I s of idle refill I x 300 credits, spent over a D s
 * test on top of the baseline: 300 + 120 x 300 / 120 = 600 for randwrite
 * (measured 601), 300 + 60 x 300 / 60 = 600 for lat (603). */
static void test_gp2_refill(struct checks *checks)
{
	json_t *run = analysed_in_seoul();

	if (!CHECK(run != NULL))
		return;
	json_t *refill = json_object_get(device_of(run, "gp2"), "refill");
	json_t *rw = json_array_get(refill, 0), *lat = json_array_get(refill, 1);
	CHECK_EQ_U64(json_array_size(refill), 2);
	CHECK(!strcmp(str(rw, "phase"), "randwrite") && !strcmp(str(lat, "phase"), "lat"));
	CHECK_NEAR(num(rw, "idle_s"), 120, 0);
	CHECK_NEAR(num(rw, "duration_s"), 120, 0);
	CHECK_NEAR(num(rw, "expected_iops"), 300 + 120.0 * 300 / 120, 1e-9);
	CHECK_NEAR(num(rw, "measured_iops"), 601, 0);
	CHECK_NEAR(num(lat, "idle_s"), 60, 0);
	CHECK_NEAR(num(lat, "expected_iops"), 300 + 60.0 * 300 / 60, 1e-9);
	CHECK_NEAR(num(lat, "measured_iops"), 603, 0);
	json_decref(run);
}

/* Whether text begins with prefix. */
static bool starts_with(const char *text, const char *prefix)
{
	return text && !strncmp(text, prefix, strlen(prefix));
}

/* Little's law from the fixture's IOPS and mean latencies (read and
 * write of each phase; one of them is zero): IOPS x latency against
 * iodepth, within 5 %. */
struct little_want {
	const char *phase;
	double iops, lat_ms, iodepth;
	bool consistent;
};

static const struct little_want gp2_little[] = {
	{ "layout", 128, 62, 8, true },		/* 7.94 of 8 */
	{ "randread", 2300.2, 13.9, 32, true }, /* 31.97 of 32 */
	{ "randwrite", 601, 52, 32, true },	/* 31.25 */
	{ "lat", 603, 1.651, 1, true },		/* 0.996 */
	{ "seqread", 130.3, 56.7, 8, false },	/* 7.39: 92 % */
	{ "seqwrite", 128.9, 57.3, 8, false },	/* 7.39 */
};

static const struct little_want gp3_little[] = {
	{ "layout", 128, 62, 8, true },	       { "randread", 3005, 10.4, 32, true },
	{ "randwrite", 3025, 10.3, 32, true }, /* 31.16: 97 % */
	{ "lat", 1759, 0.564, 1, true },       { "seqread", 127.3, 58, 8, false },
	{ "seqwrite", 126, 58.5, 8, false },
};

static void check_little(struct checks *checks, json_t *run, const char *label,
			 const struct little_want *want, size_t n)
{
	json_t *list = json_object_get(device_of(run, label), "little");

	CHECK_EQ_U64(json_array_size(list), n);
	for (size_t i = 0; i < n && i < json_array_size(list); i++) {
		json_t *l = json_array_get(list, i);
		const char *verdict = str(l, "verdict");

		CHECK(!strcmp(str(l, "phase"), want[i].phase));
		CHECK_NEAR(num(l, "in_flight"), want[i].iops * want[i].lat_ms / 1e3, 1e-9);
		CHECK_NEAR(num(l, "iodepth"), want[i].iodepth, 0);
		CHECK_NEAR(num(l, "predicted_latency_ms"), want[i].iodepth / want[i].iops * 1e3,
			   1e-9);
		const char *want_note = want[i].iodepth <= 1 ? "service time, no queue"
					: want[i].consistent ? "IOPS x latency matches"
							     : "fewer I/Os in flight";
		if (!CHECK(!strncmp(verdict, want_note, strlen(want_note))))
			fprintf(stderr, "  %s %s: %s\n", label, want[i].phase, verdict);
	}
}

static void test_little(struct checks *checks)
{
	json_t *run = analysed_in_seoul();

	if (!CHECK(run != NULL))
		return;
	check_little(checks, run, "gp2", gp2_little, ARRAY_SIZE(gp2_little));
	check_little(checks, run, "gp3", gp3_little, ARRAY_SIZE(gp3_little));
	json_decref(run);
}

/* Seoul: gp2 100 GB x $0.114 = $11.40 a month for 300 baseline IOPS, so
 * $114 per 3,000; gp3 100 GB x $0.0912 = $9.12 with 3,000 IOPS and
 * 125 MiB/s included.  us-east-1: $10.00 and $8.00.  A region without
 * prices: unknown (null), never another region's. */
static void test_cost(struct checks *checks)
{
	json_t *run = analysed_in_seoul();
	struct ebs_prices prices;

	if (!CHECK(run != NULL))
		return;
	json_t *gp2 = json_object_get(device_of(run, "gp2"), "cost");
	json_t *gp3 = json_object_get(device_of(run, "gp3"), "cost");
	CHECK_NEAR(num(gp2, "monthly_usd"), 100 * 0.114, 1e-9);
	CHECK_NEAR(num(gp2, "per_3000_iops_usd"), 100 * 0.114 * 3000 / 300, 1e-9);
	CHECK_NEAR(num(gp3, "monthly_usd"), 100 * 0.0912, 1e-9);
	CHECK_NEAR(num(gp3, "per_3000_iops_usd"), 100 * 0.0912, 1e-9);
	CHECK(ebs_prices_for_region("us-east-1", &prices));
	analysed(run, &prices);
	gp2 = json_object_get(device_of(run, "gp2"), "cost");
	CHECK_NEAR(num(gp2, "monthly_usd"), 100 * 0.10, 1e-9);
	CHECK_NEAR(num(json_object_get(device_of(run, "gp3"), "cost"), "monthly_usd"), 100 * 0.08,
		   1e-9);
	/* A provisioned gp3 pays for what is above the included. */
	json_t *vol = json_object_get(json_array_get(json_object_get(run, "devices"), 1), "volume");
	json_object_set_new(vol, "iops", json_integer(6000));
	json_object_set_new(vol, "throughput_mibs", json_integer(250));
	analysed(run, &prices);
	CHECK_NEAR(num(json_object_get(device_of(run, "gp3"), "cost"), "monthly_usd"),
		   100 * 0.08 + 3000 * 0.005 + 125 * 0.04, 1e-9);
	CHECK(!ebs_prices_for_region("eu-west-1", &prices));
	analysed(run, &prices);
	gp2 = json_object_get(device_of(run, "gp2"), "cost");
	CHECK(json_is_null(json_object_get(gp2, "monthly_usd")));
	CHECK(json_is_null(json_object_get(gp2, "per_3000_iops_usd")));
	json_decref(run);
}

/* Every sentence in analysis.details, in order: gp2's cliff, its phases
 * (the credit state before its randread), its design target and Little's
 * law where the queue was not kept full, then gp3's; last, whose the cliff
 * was (instance_cliff.c).  analysis.findings: the ones that decide, ranked:
 * the cliff, the design targets, then Little's law; the credit state
 * (100 %: it only confirms the cliff) and each phase's own sentence stay
 * details. */
static void test_findings(struct checks *checks)
{
	json_t *run = fixture_load();
	struct ebs_prices prices = ebs_prices_default();
	struct plateau before = plateau_of(fixture_gp2_iops, 1, 1999);
	struct plateau after = plateau_of(fixture_gp2_iops, 2000, FIXTURE_GP2_SECONDS);
	struct plateau flat = plateau_of(fixture_gp3_iops, 1, FIXTURE_GP3_SECONDS);
	char cliff[256], none[256];

	if (!CHECK(run != NULL))
		return;
	analysed(run, &prices);
	/* Again: the analysis is replaced, not appended to. */
	json_t *findings = analysed(run, &prices);
	json_t *details = json_object_get(json_object_get(run, "analysis"), "details");
	snprintf(cliff, sizeof(cliff),
		 "gp2: %.0f IOPS until 2000.0 s, then %.0f IOPS: the credit cliff (as predicted; "
		 "the model predicts 2000.0 s).",
		 before.mean, after.mean);
	snprintf(none, sizeof(none),
		 "gp3: %.0f IOPS over 600.0 s with no cliff (it has no credit bucket to run out "
		 "of).",
		 flat.mean);
	CHECK_EQ_U64(json_array_size(details), 20);
	CHECK(!strcmp(nth(details, 0), cliff));
	CHECK(!strncmp(
		nth(details, 2),
		"gp2: the bucket held about 100 % (5.40 M of 5.40 M credits) at the start of "
		"randread, by its cliff at 2000 s.",
		200));
	CHECK(starts_with(
		nth(details, 4),
		"gp2 randwrite: 601 IOPS after 120 s idle; predicted 600, bound by volume "
		"IOPS: as predicted (within 10 %)."));
	/* At qd1 the bucket (600), not the latency (1 / 1.651 ms), bound gp2's
	 * lat; gp3's, with no bucket to bind it, is latency-bound. */
	CHECK(starts_with(
		nth(details, 5),
		"gp2 lat: 603 IOPS after 60.0 s idle; predicted 600, bound by volume IOPS: "
		"as predicted"));
	CHECK(strstr(nth(details, 5), "qd1 / 1.651 ms (mean latency) 606") != NULL);
	CHECK(starts_with(nth(details, 9),
			  "gp2: fewer I/Os in flight than iodepth: the submitter did not keep the "
			  "queue full"));
	CHECK(strstr(nth(details, 9), "seqread 7.4 in flight at qd8, seqwrite 7.4 in flight at "
				      "qd8.") != NULL);
	CHECK(!strcmp(nth(details, 10), none));
	CHECK(starts_with(nth(details, 14),
			  "gp3 lat: 1759 IOPS; predicted 1773, bound by latency (iodepth / service "
			  "time): as predicted"));
	CHECK(starts_with(nth(details, 19), "gp2: the cliff at 2000 s into randread"));

	CHECK_EQ_U64(json_array_size(findings), 5);
	CHECK(!strcmp(nth(findings, 0), cliff));
	CHECK(starts_with(nth(findings, 1),
			  "gp2: 2699 of 2699 seconds at full demand (100.0 %) at or "
			  "above 270 IOPS (90 % of its 300): AWS's design "
			  "target, 99.0 % of the time, met in this run."));
	CHECK(starts_with(nth(findings, 2), "gp3: 599 of 599 seconds at full demand"));
	CHECK(starts_with(nth(findings, 3), "gp2: fewer I/Os in flight than iodepth"));
	json_decref(run);
}

/* Time-scaled by 0.01 (10 ms windows): the cliff at 2,000 windows is at
 * 20 s, the model's 2,000 s scaled likewise; the skipped start-up stays
 * one real second (100 windows), not one window. */
static void test_time_scaled(struct checks *checks)
{
	json_t *run = fixture_load();
	struct ebs_prices prices = ebs_prices_default();

	if (!CHECK(run != NULL))
		return;
	json_object_set_new(json_object_get(run, "plan"), "time_scale", json_real(0.01));
	json_object_set_new(fixture_phase(run, "randread", "gp2"), "window_ms", json_integer(10));
	analysed(run, &prices);
	json_t *cliff = json_object_get(device_of(run, "gp2"), "cliff");
	CHECK(!strcmp(str(cliff, "status"), "found"));
	CHECK_NEAR(num(cliff, "second"), 20, 1e-9);
	CHECK_NEAR(num(cliff, "transition_s"), 0.01, 1e-9);
	CHECK_NEAR(num(cliff, "predicted_second"), 20, 1e-9);
	CHECK(!strcmp(str(cliff, "verdict"), "as predicted"));
	check_plateau(checks, json_object_get(cliff, "before"), 1.0, 19.99,
		      plateau_of(fixture_gp2_iops, 100, 1999));
	json_decref(run);
}

/* A 200 GiB gp2 should have lasted 5.4 M / (3,000 - 600) = 2,250 s: a
 * cliff at 2,000 s is early (beyond 5 % of it), and the refill counts
 * its 600 baseline: 600 + 120 x 600 / 120 = 1,200.  A gp2 that never
 * falls inside its 2,700 s, though the model says it must: missing. */
static void test_cliff_off_prediction(struct checks *checks)
{
	json_t *run = fixture_load();
	struct ebs_prices prices = ebs_prices_default();

	if (!CHECK(run != NULL))
		return;
	json_t *vol = json_object_get(json_array_get(json_object_get(run, "devices"), 0), "volume");
	json_object_set_new(vol, "size_gib", json_integer(200));
	json_object_set_new(vol, "iops", json_integer(600));
	analysed(run, &prices);
	json_t *gp2 = device_of(run, "gp2");
	json_t *cliff = json_object_get(gp2, "cliff");
	CHECK_NEAR(num(cliff, "predicted_second"), 5.4e6 / (3000 - 600), 1e-6);
	CHECK(!strcmp(str(cliff, "verdict"), "earlier than predicted"));
	CHECK_NEAR(num(json_array_get(json_object_get(gp2, "refill"), 0), "expected_iops"),
		   600 + 120.0 * 600 / 120, 1e-9);
	json_object_set_new(vol, "size_gib", json_integer(100));
	json_object_set_new(vol, "iops", json_integer(300));
	json_object_set_new(fixture_phase(run, "randread", "gp2"), "iops_series",
			    fixture_series(FIXTURE_GP2_SECONDS, fixture_gp3_iops));
	json_t *findings = analysed(run, &prices);
	gp2 = device_of(run, "gp2");
	cliff = json_object_get(gp2, "cliff");
	CHECK(!strcmp(str(cliff, "status"), "none"));
	CHECK(!strcmp(str(cliff, "verdict"), "cliff missing"));
	if (!CHECK(strstr(nth(findings, 0), "check the volume facts")))
		fprintf(stderr, "  findings[0]: %s\n", nth(findings, 0));
	CHECK_EQ_U64(json_array_size(json_object_get(gp2, "refill")), 0);
	json_decref(run);
}

/* A gp2 whose bucket was spent before the run (a second run the same day):
 * randread holds the 300 IOPS baseline from its first second.  The
 * evidence overrules the assumed full bucket: the finding says so once,
 * the credit state is empty, and randread and every phase after it are
 * predicted from an empty bucket, not "100 % full". */
static double gp2_baseline_iops(size_t second)
{
	return 300 + (double)(second % 3); /* a throttle's jitter */
}

static void test_bucket_spent_before_the_run(struct checks *checks)
{
	json_t *run = fixture_load();
	struct ebs_prices prices = ebs_prices_default();

	if (!CHECK(run != NULL))
		return;
	json_t *rr = fixture_phase(run, "randread", "gp2");
	json_object_set_new(rr, "iops_series",
			    fixture_series(FIXTURE_GP2_SECONDS, gp2_baseline_iops));
	json_object_set_new(json_object_get(json_object_get(rr, "job"), "read"), "iops",
			    json_real(301));
	json_t *findings = analysed(run, &prices);
	json_t *gp2 = device_of(run, "gp2");
	json_t *cliff = json_object_get(gp2, "cliff");
	CHECK(!strcmp(str(cliff, "verdict"), ANALYSIS_BUCKET_EMPTY));
	CHECK(strstr(nth(findings, 0), "never burst, so its credit bucket was empty") != NULL);
	CHECK(strstr(nth(findings, 0), "check the volume facts") == NULL);
	json_t *state = json_object_get(gp2, "credits_at_start");
	CHECK_NEAR(num(state, "percent"), 0, 0);
	size_t i, checked = 0;
	bool after = false;
	json_t *p;
	json_array_foreach(json_object_get(gp2, "phases"), i, p)
	{
		after = after || !strcmp(str(p, "phase"), "randread");
		if (!after)
			continue;
		const char *why = str(p, "explanation");
		CHECK(strstr(why, "100 % full") == NULL);
		CHECK(strstr(why, "by its randread, which never burst") != NULL ||
		      strstr(why, "full at the start") == NULL);
		if (!strcmp(str(p, "phase"), "randread"))
			CHECK(!strcmp(str(p, "verdict"), "as predicted"));
		checked++;
	}
	CHECK(checked >= 3);
	json_decref(run);
}

/* An st1 of 500 GiB measured as HDD: the model's 122.07 MiB/s burst from
 * 512,000 MiB of credit, refilled at 19.53 MiB/s, lasts 512,000 / 102.54 =
 * 4,993.1 s of seqread's 1 MiB reads.  Time-scaled (0.01), a 10 ms window
 * holds one or two of them (100 or 200 IOPS), past the cliff none or one:
 * the cliff is judged over real seconds, where the levels are plain. */
static double st1_windows(size_t k)
{
	double rate = k < 4993 ? 122.0703125 : 19.53125; /* MiB/s = 1 MiB I/Os a second */
	return 100 * (floor((double)(k + 1) * rate / 100) - floor((double)k * rate / 100));
}

static void test_st1_cliff(struct checks *checks)
{
	json_t *run = fixture_load_st1(6741, st1_windows);
	struct ebs_prices prices = ebs_prices_default();

	if (!CHECK(run != NULL))
		return;
	json_object_set_new(json_object_get(run, "plan"), "time_scale", json_real(0.01));
	json_object_set_new(fixture_phase(run, "seqread", "gp2"), "window_ms", json_integer(10));
	json_t *findings = analysed(run, &prices);
	json_t *st1 = device_of(run, "gp2");
	json_t *cliff = json_object_get(st1, "cliff");
	CHECK(!strcmp(str(cliff, "status"), "found"));
	CHECK_NEAR(num(cliff, "predicted_second"), 512000 / (122.0703125 - 19.53125) * 0.01, 1e-6);
	CHECK_NEAR(num(cliff, "second"), 49.93, 1);
	CHECK(!strcmp(str(cliff, "verdict"), "as predicted"));
	CHECK_NEAR(num(json_object_get(cliff, "before"), "mean"), 122.07, 122.07 * 0.02);
	CHECK_NEAR(num(json_object_get(cliff, "after"), "mean"), 19.53, 19.53 * 0.05);
	/* The levels' medians too (instance_cliff.c judges by them): a 10 ms
	 * window's would be 100 and 0. */
	CHECK_NEAR(num(json_object_get(cliff, "before"), "median"), 122, 1);
	CHECK_NEAR(num(json_object_get(cliff, "after"), "median"), 19.5, 0.5);
	if (!CHECK(fixture_count_with(findings, "MiB/s: the credit cliff (as predicted; the model "
						"predicts 49.9 s).") == 1))
		fprintf(stderr, "  findings[0]: %s\n", nth(findings, 0));
	CHECK(fixture_count_with(findings, "IOPS until") == 0);
	json_decref(run);
}

CHECK_MAIN(test_st1_cliff, test_gp2_cliff, test_gp3_flat, test_gp2_refill, test_little, test_cost,
	   test_findings, test_time_scaled, test_cliff_off_prediction,
	   test_bucket_spent_before_the_run)
