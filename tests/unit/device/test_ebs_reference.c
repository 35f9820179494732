/* test_ebs_reference.c - the EBS stats parser against pages built from the
 * public struct definitions (nvme-cli's amzn plugin, amazon-ec2-utils'
 * ebsnvme) by tests/unit/fixtures/ebs_log_pages.py, not from the parser's
 * own offsets: every field of every page, the delta results.json records
 * for a phase (.phases[].ebs_stats: counters, who throttled, histograms)
 * and the summary's "EBS: throttled by" cell, for each of the four limits,
 * none, and an idle phase.  `make` writes the pages into EBS_PAGES_DIR;
 * tests run from the repository root. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "device/ebs_stats.h"
#include "fixtures/results_fixture.h"
#include "lib/lib.h"
#include "run/run_record.h"
#include "run/internal.h"
#include "report/summary.h"

#define EBS_PAGES_DIR "build/ebs-log-pages"

/* A counter by its public name (nvme-cli's struct amzn_latency_log_page_base),
 * where the parser keeps it, and its key in results.json's ebs_stats. */
struct public_counter {
	const char *name;
	size_t offset;
	const char *record_key;
};

static const struct public_counter counters[] = {
	{ "total_read_ops", offsetof(struct ebs_stats, read_ops), "read_ops" },
	{ "total_write_ops", offsetof(struct ebs_stats, write_ops), "write_ops" },
	{ "total_read_bytes", offsetof(struct ebs_stats, read_bytes), "read_bytes" },
	{ "total_write_bytes", offsetof(struct ebs_stats, write_bytes), "write_bytes" },
	{ "total_read_time", offsetof(struct ebs_stats, read_time_us), "read_time_us" },
	{ "total_write_time", offsetof(struct ebs_stats, write_time_us), "write_time_us" },
	{ "ebs_volume_performance_exceeded_iops",
	  offsetof(struct ebs_stats, volume_iops_exceeded_us), "volume_exceeded_iops_us" },
	{ "ebs_volume_performance_exceeded_tp",
	  offsetof(struct ebs_stats, volume_throughput_exceeded_us),
	  "volume_exceeded_throughput_us" },
	{ "ec2_instance_performance_exceeded_iops",
	  offsetof(struct ebs_stats, instance_iops_exceeded_us), "instance_exceeded_iops_us" },
	{ "ec2_instance_performance_exceeded_tp",
	  offsetof(struct ebs_stats, instance_throughput_exceeded_us),
	  "instance_exceeded_throughput_us" },
	{ "volume_queue_length", offsetof(struct ebs_stats, queue_length), "queue_length" },
};
#define COUNTER_COUNT (ARRAY_SIZE(counters))

/* The parser's value of a counter. */
static uint64_t counter_of(const struct ebs_stats *s, const struct public_counter *c)
{
	uint64_t v;
	memcpy(&v, (const char *)s + c->offset, sizeof(v));
	return v;
}

/* A JSON integer as u64; UINT64_MAX when it is missing or not an integer. */
static uint64_t json_u64(const json_t *v)
{
	return json_is_integer(v) ? (uint64_t)json_integer_value(v) : UINT64_MAX;
}

/* expected.json, written by the generator; NULL (and why) if absent. */
static json_t *expected_load(void)
{
	json_error_t err;
	json_t *doc = json_load_file(EBS_PAGES_DIR "/expected.json", 0, &err);
	if (!doc)
		fprintf(stderr,
			"%s/expected.json: %s (make writes it; run from the repository root)\n",
			EBS_PAGES_DIR, err.text);
	return doc;
}

/* Reads and parses EBS_PAGES_DIR/name.bin; returns ebs_stats_parse's status,
 * or EBS_STATS_SHORT if the file cannot be read whole. */
static int page_parse(const char *name, struct ebs_stats *out)
{
	char path[256];
	uint8_t page[EBS_STATS_PAGE_BYTES + 1];
	snprintf(path, sizeof(path), "%s/%s.bin", EBS_PAGES_DIR, name);
	FILE *f = fopen(path, "rb");
	size_t got = f ? fread(page, 1, sizeof(page), f) : 0;
	if (f)
		fclose(f);
	if (got != EBS_STATS_PAGE_BYTES) {
		fprintf(stderr, "%s: %zu bytes, want %d\n", path, got, EBS_STATS_PAGE_BYTES);
		memset(out, 0, sizeof(*out));
		return EBS_STATS_SHORT;
	}
	return ebs_stats_parse(page, got, out);
}

/* The parsed histogram holds exactly the bins the page was given. */
static void check_histogram(struct checks *checks, const struct ebs_latency_histogram *h,
			    const json_t *want)
{
	CHECK_EQ_U64(h->bins, json_array_size(want));
	for (unsigned i = 0; i < h->bins && i < json_array_size(want); i++) {
		const json_t *bin = json_array_get(want, i);
		CHECK_EQ_U64(h->bin[i].lower_us, json_u64(json_object_get(bin, "lower")));
		CHECK_EQ_U64(h->bin[i].upper_us, json_u64(json_object_get(bin, "upper")));
		CHECK_EQ_U64(h->bin[i].count, json_u64(json_object_get(bin, "count")));
	}
}

/* Every page: magic, version, the eleven counters, both histograms. */
static void test_every_field_of_every_page(struct checks *checks)
{
	json_t *doc = expected_load();
	const char *name;
	json_t *want;
	CHECK(doc != NULL);
	CHECK(json_object_size(json_object_get(doc, "pages")) >= 8);
	json_object_foreach(json_object_get(doc, "pages"), name, want)
	{
		struct ebs_stats s;
		if (!CHECK_EQ_U64(page_parse(name, &s), EBS_STATS_OK))
			continue;
		uint64_t magic = json_u64(json_object_get(want, "magic"));
		CHECK(s.source ==
		      (magic == EBS_STATS_MAGIC_EBS ? EBS_STATS_VOLUME : EBS_STATS_INSTANCE_STORE));
		CHECK_EQ_U64(s.version, json_u64(json_object_get(want, "version")));
		for (size_t c = 0; c < COUNTER_COUNT; c++)
			CHECK_EQ_U64(counter_of(&s, &counters[c]),
				     json_u64(json_object_get(want, counters[c].name)));
		check_histogram(checks, &s.read_latency,
				json_object_get(want, "read_io_latency_histogram"));
		check_histogram(checks, &s.write_latency,
				json_object_get(want, "write_io_latency_histogram"));
	}
	json_decref(doc);
}

/* The ebs_stats object results.json gets for a phase from before to after;
 * NULL if a page does not parse. */
static json_t *scenario_record(const json_t *scenario, uint64_t phase_us)
{
	struct ebs_sample before = { .ok = true }, after = { .ok = true };
	const char *b = json_string_value(json_object_get(scenario, "before"));
	const char *a = json_string_value(json_object_get(scenario, "after"));
	if (!a || !b || page_parse(b, &before.stats) != EBS_STATS_OK ||
	    page_parse(a, &after.stats) != EBS_STATS_OK)
		return NULL;
	return run_record_ebs_stats(&before, &after, phase_us);
}

/* A recorded histogram: the after page's bounds, the delta's counts. */
static void check_recorded_histogram(struct checks *checks, const json_t *got, const json_t *bounds,
				     const json_t *counts)
{
	CHECK_EQ_U64(json_array_size(got), json_array_size(counts));
	for (size_t i = 0; i < json_array_size(got) && i < json_array_size(counts); i++) {
		const json_t *bin = json_array_get(got, i), *want = json_array_get(bounds, i);
		CHECK_EQ_U64(json_u64(json_object_get(bin, "lower_us")),
			     json_u64(json_object_get(want, "lower")));
		CHECK_EQ_U64(json_u64(json_object_get(bin, "upper_us")),
			     json_u64(json_object_get(want, "upper")));
		CHECK_EQ_U64(json_u64(json_object_get(bin, "count")),
			     json_u64(json_array_get(counts, i)));
	}
}

/* .phases[].ebs_stats for each scenario: counters, limiter, histograms. */
static void test_recorded_deltas(struct checks *checks)
{
	json_t *doc = expected_load(), *scenario;
	size_t i;
	uint64_t phase_us = json_u64(json_object_get(doc, "phase_us"));
	CHECK(json_array_size(json_object_get(doc, "scenarios")) == 6);
	json_array_foreach(json_object_get(doc, "scenarios"), i, scenario)
	{
		const char *name = json_string_value(json_object_get(scenario, "name"));
		const json_t *delta = json_object_get(scenario, "delta");
		const json_t *after =
			json_object_get(json_object_get(doc, "pages"),
					json_string_value(json_object_get(scenario, "after")));
		json_t *rec = scenario_record(scenario, phase_us);
		if (!CHECK(rec != NULL) || !CHECK(json_is_true(json_object_get(rec, "available"))))
			continue;
		for (size_t c = 0; c < COUNTER_COUNT; c++)
			CHECK_EQ_U64(json_u64(json_object_get(rec, counters[c].record_key)),
				     json_u64(json_object_get(delta, counters[c].name)));
		const char *by = json_string_value(json_object_get(rec, "throttled_by"));
		const char *want = json_string_value(json_object_get(scenario, "throttled_by"));
		if (!CHECK(by && want && !strcmp(by, want)))
			fprintf(stderr, "  %s: throttled_by %s, want %s\n", name, by, want);
		check_recorded_histogram(checks, json_object_get(rec, "read_histogram"),
					 json_object_get(after, "read_io_latency_histogram"),
					 json_object_get(delta, "read_io_latency_histogram"));
		check_recorded_histogram(checks, json_object_get(rec, "write_histogram"),
					 json_object_get(after, "write_io_latency_histogram"),
					 json_object_get(delta, "write_io_latency_histogram"));
		json_decref(rec);
	}
	json_decref(doc);
}

/* A one-device, one-phase results.json holding ebs_stats (taken). */
static json_t *one_phase_run(json_t *ebs_stats, uint64_t phase_us)
{
	return json_pack("{s[{ssss}]s[{sssssIsIso}]}", "devices", "label", "vol", "type", "gp3",
			 "phases", "phase", "randread", "device", "vol", "started_ms",
			 (json_int_t)0, "ended_ms", (json_int_t)(phase_us / 1000), "ebs_stats",
			 ebs_stats);
}

/* summary.md's "EBS: throttled by" row for each scenario. */
static void test_summary_throttled_by_cell(struct checks *checks)
{
	json_t *doc = expected_load(), *scenario;
	size_t i;
	uint64_t phase_us = json_u64(json_object_get(doc, "phase_us"));
	json_array_foreach(json_object_get(doc, "scenarios"), i, scenario)
	{
		json_t *rec = scenario_record(scenario, phase_us);
		if (!CHECK(rec != NULL))
			continue;
		json_t *run = one_phase_run(rec, phase_us);
		int rc = -1;
		char *md = fixture_render(summary_write, &run, 1, &rc), row[160];
		snprintf(row, sizeof(row), "| EBS: throttled by | %s |",
			 json_string_value(json_object_get(scenario, "summary_cell")));
		CHECK(rc == 0);
		if (!CHECK(md && strstr(md, row)))
			fprintf(stderr, "  summary lacks: %s\n", row);
		free(md);
		json_decref(run);
	}
	json_decref(doc);
}

CHECK_MAIN(test_every_field_of_every_page, test_recorded_deltas, test_summary_throttled_by_cell)
