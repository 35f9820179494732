/* test_instance_cliff.c - whose cliff it was: a gp2's own on a bursting
 * m5.large, the m5.large's EBS burst ending under two gp3 (one falls at
 * 1,800 s of the run, the other is held at 3,600 after it), and a run
 * whose instance type is unknown; plus the rules that make an instance
 * cliff a volume one (falls that do not line up, a device that ran
 * faster after it, log page 0xD0 saying only the volume throttled). */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "fixtures/verdict_fixture.h"
#include "report/summary.h"
#include "results/results.h"

#define FIXTURE_VOLUME_CLIFF VERDICT_FIXTURE_DIR "results-instance-volume-cliff.json"
#define FIXTURE_INSTANCE_CLIFF VERDICT_FIXTURE_DIR "results-instance-cliff.json"
#define FIXTURE_UNKNOWN VERDICT_FIXTURE_DIR "results-instance-unknown.json"

static const json_t *instance_cliff_of(const json_t *run)
{
	return RESULTS_GET(run, "analysis", "instance_cliff");
}

static const char *kind_of(const json_t *run)
{
	const char *k = json_string_value(json_object_get(instance_cliff_of(run), "kind"));
	return k ? k : "";
}

static const char *cliff_kind(const json_t *run, const char *label)
{
	const char *k =
		json_string_value(RESULTS_GET(verdict_device_of(run, label), "cliff", "kind"));
	return k ? k : "";
}

/* The n-th sentence of analysis.instance_cliff, or "". */
static const char *sentence(const json_t *run, size_t n)
{
	const char *s = json_string_value(
		json_array_get(json_object_get(instance_cliff_of(run), "sentences"), n));
	return s ? s : "";
}

/* summary.md of the run, malloc'd; NULL on failure. */
static char *summary_of(json_t *run)
{
	char *md = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&md, &len);

	if (!out)
		return NULL;
	if (summary_write(out, &run, 1)) {
		fclose(out);
		free(md);
		return NULL;
	}
	fclose(out);
	return md;
}

/* Whether a sentence of analysis[list] ("findings": the ranked ones;
 * "details": all) holds needle. */
static bool in_list(const json_t *run, const char *list, const char *needle)
{
	const json_t *f;
	size_t i;

	json_array_foreach(RESULTS_GET(run, "analysis", list), i, f)
	{
		if (json_string_value(f) && strstr(json_string_value(f), needle))
			return true;
	}
	return false;
}

/* A gp2 at 3,000 never reaches the m5.large's 3,600: its fall to 300 is
 * its own, although the instance bursts. */
static void test_volume_cliff_on_bursting_instance(struct checks *checks)
{
	json_t *run = verdict_fixture(FIXTURE_VOLUME_CLIFF);
	char *md = summary_of(run);

	CHECK(run != NULL);
	CHECK(json_is_true(json_object_get(instance_cliff_of(run), "instance_bursts")));
	CHECK(!strcmp(kind_of(run), "volume"));
	CHECK(!strcmp(cliff_kind(run, "gp2"), "volume"));
	CHECK(strstr(sentence(run, 0), "is the volume's own: it fell to 300 IOPS (the volume's "
				       "baseline is 300), not to the m5.large EBS baseline of "
				       "3600") != NULL);
	/* The volume's own cliff only confirms the cliff's sentence: a detail. */
	CHECK(in_list(run, "details",
		      "gp2: the cliff at 2000 s into randread (2664 s of the run) is the "
		      "volume's own"));
	CHECK(!in_list(run, "findings", "is the volume's own"));
	CHECK(md && strstr(md, "> **Whose cliff:** gp2: the cliff at"));
	CHECK(md && strstr(md, "### gp2: credit cliff at 2,000 s"));
	free(md);
	json_decref(run);
}

/* gp3a falls from 16,000 to 3,600 at 1,800 s of the run, the m5.large
 * baseline (its own is 16,000); gp3b after it is held at 3,601. */
static void test_instance_cliff_two_volumes(struct checks *checks)
{
	json_t *run = verdict_fixture(FIXTURE_INSTANCE_CLIFF);
	char *md = summary_of(run);
	const char *s = sentence(run, 0);

	CHECK(run != NULL);
	CHECK(!strcmp(kind_of(run), "instance"));
	CHECK(!strcmp(cliff_kind(run, "gp3a"), "instance"));
	CHECK(json_array_size(json_object_get(instance_cliff_of(run), "sentences")) == 1);
	CHECK(strstr(s, "the instance's EBS burst ended at 1800 s (the model: 1800 s at full "
			"demand): every volume fell to the m5.large baseline of 3600 IOPS "
			"together") != NULL);
	CHECK(strstr(s, "gp3a fell from 16000 to 3600; 1 phase measured after it held") != NULL);
	CHECK(strstr(s, "not the gp3 credit cliff (the volume's own baseline is 16000 IOPS)") !=
	      NULL);
	CHECK(in_list(run, "findings", "the instance's EBS burst ended at 1800 s"));
	CHECK(md && strstr(md, "> **Whose cliff:** the instance's EBS burst ended at 1800 s"));
	CHECK(md && strstr(md, "### gp3a: the instance's EBS burst ended at 1,725 s"));
	CHECK(md && !strstr(md, "nan"));
	/* gp3a's read spans the burst's end (75..2,775 s of the run): its
	 * share up to 1,800 s is predicted at the burst, the rest at 3,600;
	 * the instance alone allows 18,750 for that share. */
	const json_t *rr = verdict_phase_of(run, "gp3a", "randread");
	double share = (1800.0 - 75) / 2700;
	CHECK_NEAR(verdict_num(rr, "predicted"), share * 16000 + (1 - share) * 3600, 1);
	CHECK(!strcmp(verdict_str(rr, "verdict"), "as predicted"));
	CHECK(strstr(verdict_str(rr, "explanation"), "the instance 13279 (burst, then baseline)"));
	free(md);
	json_decref(run);
}

/* The type not recorded, or one the table does not know: not judged. */
static void test_unknown_instance(struct checks *checks)
{
	json_t *run = verdict_fixture(FIXTURE_UNKNOWN);
	struct ebs_prices prices = ebs_prices_default();

	CHECK(!strcmp(kind_of(run), "unknown"));
	CHECK(!strcmp(cliff_kind(run, "gp2"), "unknown"));
	CHECK(strstr(sentence(run, 0), "gp2: the instance could not be judged (the instance "
				       "type was not recorded), so whether the cliff at") != NULL);
	json_object_set_new(json_object_get(run, "environment"), "instance_type",
			    json_string("x9.huge"));
	analysis_build(run, &prices);
	CHECK(!strcmp(kind_of(run), "unknown"));
	CHECK(strstr(sentence(run, 0), "(x9.huge is not in the model's instance table)") != NULL);
	/* An instance without a burst of its own cannot have made it. */
	json_object_set_new(json_object_get(run, "environment"), "instance_type",
			    json_string("m5.4xlarge"));
	analysis_build(run, &prices);
	CHECK(!strcmp(kind_of(run), "volume"));
	CHECK(strstr(sentence(run, 0), "m5.4xlarge has no EBS burst of its own") != NULL);
	json_decref(run);
}

/* The i-th phase record of the run. */
static json_t *phase_at(json_t *run, size_t i)
{
	return json_array_get(json_object_get(run, "phases"), i);
}

/* gp3b runs at 16,000 after gp3a's fall: the instance held nothing. */
static void test_faster_after_is_volume(struct checks *checks)
{
	json_t *run = verdict_fixture_raw(FIXTURE_INSTANCE_CLIFF);
	struct ebs_prices prices = ebs_prices_default();
	json_t *gp3b = phase_at(run, 3);

	json_object_set_new(json_object_get(json_object_get(gp3b, "job"), "read"), "iops",
			    json_real(16000));
	analysis_build(run, &prices);
	CHECK(!strcmp(kind_of(run), "volume"));
	CHECK(!strcmp(cliff_kind(run, "gp3a"), "volume"));
	CHECK(strstr(sentence(run, 0),
		     "gp3b randread ran at 16000 IOPS after it, above the "
		     "m5.large baseline of 3600: the instance was not holding") != NULL);
	json_decref(run);
}

/* Both gp3 fall to 3,600, but 2,700 s apart: two volumes' cliffs. */
static void test_falls_not_lined_up(struct checks *checks)
{
	json_t *run = verdict_fixture_raw(FIXTURE_INSTANCE_CLIFF);
	struct ebs_prices prices = ebs_prices_default();
	json_t *gp3b = phase_at(run, 3), *series = json_array();

	for (size_t i = 0; i < 600; i++)
		json_array_append_new(series, json_integer(i == 0    ? 32000
							   : i < 300 ? 16000
								     : 3600));
	json_object_set_new(gp3b, "iops_series", series);
	analysis_build(run, &prices);
	CHECK(!strcmp(cliff_kind(run, "gp3b"), "volume"));
	CHECK(!strcmp(kind_of(run), "volume"));
	CHECK(strstr(sentence(run, 0), "the devices' falls do not line up (gp3a at 1800 s, gp3b "
				       "at") != NULL);
	json_decref(run);
}

/* Log page 0xD0 outranks the levels: volume-exceeded time and none of
 * the instance's makes the fall the volume's. */
static void test_stats_say_volume(struct checks *checks)
{
	json_t *run = verdict_fixture_raw(FIXTURE_INSTANCE_CLIFF);
	struct ebs_prices prices = ebs_prices_default();

	json_object_set_new(
		phase_at(run, 2), "ebs_stats",
		json_pack("{s:b,s:f,s:f,s:f,s:f}", "available", 1, "volume_exceeded_iops_us", 9e8,
			  "volume_exceeded_throughput_us", 0.0, "instance_exceeded_iops_us", 0.0,
			  "instance_exceeded_throughput_us", 0.0));
	analysis_build(run, &prices);
	CHECK(!strcmp(kind_of(run), "volume"));
	CHECK(strstr(sentence(run, 0), "log page 0xD0) show the volume throttling and no "
				       "instance-exceeded time") != NULL);
	json_decref(run);
}

CHECK_MAIN(test_volume_cliff_on_bursting_instance, test_instance_cliff_two_volumes,
	   test_unknown_instance, test_faster_after_is_volume, test_falls_not_lined_up,
	   test_stats_say_volume)
