/* test_cliff_predicted.c - a gp2 cliff the run stopped short of
 * (analysis/cliff_predicted.c): the quick plan's 15 s randread on the
 * gp2/gp3 fixture gives a cliff "predicted, not measured" at the model's
 * second from a full bucket, with how long a randread that measures it
 * runs, said once among the findings; a measured cliff, a missing one and
 * a volume with no bucket give none. */
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "check.h"
#include "analysis/analysis.h"
#include "fixtures/results_fixture.h"
#include "lib/lib.h"
#include "model/model.h"

static json_t *cliff_of(json_t *run, const char *label)
{
	json_t *d;
	size_t i;
	json_array_foreach(json_object_get(json_object_get(run, "analysis"), "devices"), i, d)
	{
		if (!strcmp(json_string_value(json_object_get(d, "device")), label))
			return json_object_get(d, "cliff");
	}
	return NULL;
}

/* How many entries of findings and details (which repeats them all)
 * contain text. */
static size_t findings_with(json_t *run, const char *text)
{
	static const char *const lists[] = { "findings", "details" };
	json_t *f;
	size_t i, n = 0;
	for (size_t k = 0; k < 2; k++)
		json_array_foreach(json_object_get(json_object_get(run, "analysis"), lists[k]), i,
				   f)
		{
			n += strstr(json_string_value(f), text) != NULL;
		}
	return n;
}

/* The fixture analysed with gp2's randread cut to its first `seconds`. */
static json_t *gp2_randread_of(size_t seconds)
{
	json_t *run = fixture_load();
	if (!run)
		return NULL;
	fixture_cut_gp2_randread(run, seconds);
	struct ebs_prices prices = ebs_prices_default();
	analysis_build(run, &prices);
	return run;
}

static void test_short_randread(struct checks *checks)
{
	json_t *run = gp2_randread_of(15);
	if (!CHECK(run != NULL))
		return;
	json_t *cliff = cliff_of(run, "gp2");
	json_t *p = json_object_get(cliff, "predicted");
	CHECK(!strcmp(json_string_value(json_object_get(cliff, "status")), "too-short"));
	if (!CHECK(json_is_object(p))) {
		json_decref(run);
		return;
	}
	/* A 100 GiB gp2 from a full bucket: 5.4 M / (3,000 - 300) = 2,000 s,
	 * less what the layout before it drew; the run saw only a lower
	 * bound, so the prediction starts full. */
	double second = json_number_value(json_object_get(p, "second"));
	CHECK(second > 1900 && second <= 2000);
	CHECK(json_is_false(json_object_get(p, "measured")));
	CHECK(json_is_true(json_object_get(p, "full_start")));
	CHECK_NEAR(json_number_value(json_object_get(p, "measure_s")), second, 1e-9);
	const char *s = json_string_value(json_object_get(p, "sentence"));
	char tail[96];
	snprintf(tail, sizeof(tail), "so measuring it takes a randread of %.0f s.", second);
	CHECK(s && strstr(s, "gp2: the credit cliff is predicted, not measured: randread ran "
			     "15.0 s"));
	CHECK(s && strstr(s, tail));
	/* One cause, one finding: the prediction (ranked among the findings,
	 * and in the details as every one), not also "no cliff". */
	CHECK_EQ_U64(findings_with(run, "predicted, not measured"), 2);
	CHECK_EQ_U64(findings_with(run, "with no cliff"), 1); /* gp3's own */
	/* The ledger starts from the lower bound the short randread showed: a
	 * dry time from it is the earliest the bucket would run dry. */
	json_t *d, *ph;
	size_t i, k;
	const char *word = NULL;
	json_array_foreach(json_object_get(json_object_get(run, "analysis"), "devices"), i, d)
	{
		json_array_foreach(json_object_get(d, "phases"), k, ph)
		{
			if (!strcmp(json_string_value(json_object_get(d, "device")), "gp2") &&
			    !strcmp(json_string_value(json_object_get(ph, "phase")), "randread"))
				word = json_string_value(
					json_object_get(json_object_get(ph, "steady"), "word"));
		}
	}
	if (!CHECK(word && strstr(word, "would run dry at") && strstr(word, "at the earliest")))
		fprintf(stderr, "  gp2 randread: %s\n", word ? word : "(no word)");
	/* gp3 has no bucket: nothing predicted. */
	CHECK(!json_object_get(cliff_of(run, "gp3"), "predicted"));
	json_decref(run);
}

/* The whole 2,700 s: the cliff is measured; 2,100 s with no cliff though
 * the model puts it at 2,000 s: missing, not predicted. */
static void test_measured_or_missing(struct checks *checks)
{
	json_t *run = fixture_load();
	struct ebs_prices prices = ebs_prices_default();
	if (!CHECK(run != NULL))
		return;
	analysis_build(run, &prices);
	CHECK(!json_object_get(cliff_of(run, "gp2"), "predicted"));
	CHECK_EQ_U64(findings_with(run, "not measured"), 0);
	json_decref(run);
	run = fixture_load();
	if (!CHECK(run != NULL))
		return;
	json_t *rr = fixture_phase(run, "randread", "gp2");
	json_t *flat = json_array();
	for (int i = 0; i < 2100; i++)
		json_array_append_new(flat, json_real(3000));
	json_object_set_new(rr, "iops_series", flat);
	json_object_set_new(json_object_get(rr, "job"), "job_runtime", json_integer(2100000));
	analysis_build(run, &prices);
	json_t *cliff = cliff_of(run, "gp2");
	CHECK(!json_object_get(cliff, "predicted"));
	CHECK(!strcmp(json_string_value(json_object_get(cliff, "verdict")), "cliff missing"));
	json_decref(run);
}

static double at_burst(size_t second)
{
	(void)second;
	return 122;
}

/* The quick plan on an st1 of 500 GiB: its cliff phase is seqread, 15 s
 * at the 122 MiB/s burst; the model puts the cliff at 512,000 MiB of
 * credit / (122.07 - 19.53) MiB/s = 4,993 s of seqread from a full bucket
 * (less what the layout drew), said in MiB/s and GiB of credit. */
static void test_short_seqread_st1(struct checks *checks)
{
	json_t *run = fixture_load_st1(15, at_burst);
	struct ebs_prices prices = ebs_prices_default();
	if (!CHECK(run != NULL))
		return;
	/* HDD's plan: layout, seqread, seqwrite (no 4k phase, each of whose
	 * I/O would cost a MiB of credit). */
	json_t *phases = json_object_get(run, "phases");
	for (size_t i = json_array_size(phases); i-- > 0;) {
		const json_t *ph = json_array_get(phases, i);
		const char *name = json_string_value(json_object_get(ph, "phase"));
		if (!strcmp(json_string_value(json_object_get(ph, "device")), "gp2") &&
		    (!strcmp(name, "randread") || !strcmp(name, "randwrite") ||
		     !strcmp(name, "lat")))
			json_array_remove(phases, i);
	}
	json_t *job = json_object_get(fixture_phase(run, "seqread", "gp2"), "job");
	json_object_set_new(job, "job_runtime", json_integer(15000));
	json_object_set_new(json_object_get(job, "read"), "iops", json_real(122));
	analysis_build(run, &prices);
	json_t *p = json_object_get(cliff_of(run, "gp2"), "predicted");
	if (!CHECK(json_is_object(p))) {
		json_decref(run);
		return;
	}
	double second = json_number_value(json_object_get(p, "second"));
	CHECK(second > 4900 && second <= 512000 / (122.0703125 - 19.53125) + 1e-6);
	const char *s = json_string_value(json_object_get(p, "sentence"));
	char tail[96];
	snprintf(tail, sizeof(tail), "so measuring it takes a seqread of %.0f s.", second);
	if (!CHECK(s &&
		   strstr(s, "gp2: the credit cliff is predicted, not measured: seqread ran "
			     "15.0 s at 122 MiB/s") &&
		   strstr(s, " GiB of credit at seqread's start") && strstr(s, tail)))
		fprintf(stderr, "  %s\n", s ? s : "(none)");
	CHECK_EQ_U64(findings_with(run, "predicted, not measured"), 2);
	json_decref(run);
}

CHECK_MAIN(test_short_randread, test_measured_or_missing, test_short_seqread_st1)
