/* test_summary.c - summary.md from the seed's run says what the seed says
 * (3,001 -> 300 at the cliff, 601 from a refilled bucket, $11.40 against
 * $9.12), and a results.json with most keys missing renders dashes
 * instead of crashing. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "analysis/analysis.h"
#include "cli/cli.h"
#include "fixtures/results_fixture.h"
#include "lib/lib.h"
#include "report/report_format.h"
#include "report/summary.h"

static char *render_summary(json_t *const *runs, size_t nruns)
{
	int rc = -1;
	char *text = fixture_render(summary_write, runs, nruns, &rc);
	return rc == 0 ? text : (free(text), NULL);
}

static bool has(const char *text, const char *what)
{
	if (text && strstr(text, what))
		return true;
	fprintf(stderr, "summary lacks: %s\n", what);
	return false;
}

static void test_counts_and_times(struct checks *checks)
{
	char buf[REPORT_NUM_LEN];

	CHECK(!strcmp(report_count(buf, sizeof(buf), 0), "0"));
	CHECK(!strcmp(report_count(buf, sizeof(buf), 999.4), "999"));
	CHECK(!strcmp(report_count(buf, sizeof(buf), 2999.6), "3,000"));
	CHECK(!strcmp(report_count(buf, sizeof(buf), 1234567), "1,234,567"));
	CHECK(!strcmp(report_count(buf, sizeof(buf), -1500), "-1,500"));
	CHECK(!strcmp(report_count(buf, sizeof(buf), NAN), REPORT_MISSING));
	CHECK(!strcmp(report_ms(buf, sizeof(buf), 109.6e6), "109.6 ms"));
	CHECK(!strcmp(report_ms(buf, sizeof(buf), 1.651e6), "1.65 ms"));
	CHECK(!strcmp(report_ms(buf, sizeof(buf), 0.564e6), "0.564 ms"));
	CHECK(!strcmp(report_usd(buf, sizeof(buf), 11.4), "$11.40"));
}

static void test_benchmark_tldr(struct checks *checks)
{
	json_t *run = fixture_load();
	struct ebs_prices prices = ebs_prices_default();
	analysis_build(run, &prices); /* the fixture's analysis predates the design target */
	char *md = render_summary(&run, 1);

	CHECK(md != NULL);
	CHECK(has(md, "| Measured | gp2 (gp2, 100 GiB) | gp3 (gp3, 100 GiB) |"));
	CHECK(has(md, "| Random read IOPS (4k, qd32) | 3,001 \xe2\x86\x92 300, cliff at 2,000 s | "
		      "3,001 mean, flat over 600 s (min 2,991) |"));
	CHECK(has(md, "| Random read p99 latency (4k, qd32) | 109.6 ms"));
	CHECK(has(md, "| 601 (partly refilled bucket; predicted 600) | 3,025 |"));
	CHECK(has(md, "mean 1.65 ms, bimodal: p50 0.602 ms / p95 3.39 ms"));
	CHECK(has(md, "mean 0.564 ms / p99 0.872 ms"));
	CHECK(has(md,
		  "| Sequential read / write (1 MiB, qd8) | 130 / 129 MiB/s | 127 / 126 MiB/s |"));
	CHECK(has(md, "| Monthly cost | $11.40 | $9.12 |"));
	CHECK(has(md, "| AWS design target (90 % of provisioned) | met: 100.0 % of 2699 s at 270 "
		      "IOPS or more (99 % needed) | met: 100.0 % of 599 s at 2,700 IOPS or more "
		      "(99 % needed) |"));
	CHECK(has(md, "![IOPS timeline](iops_timeline.svg)"));
	CHECK(has(md, "![Latency percentiles](latency_percentiles.svg)"));
	CHECK(has(md, "Instance **m5.xlarge**"));
	CHECK(!strstr(md, "Time scale"));
	free(md);
	json_decref(run);
}

static void test_benchmark_sections(struct checks *checks)
{
	json_t *run = fixture_load();
	char *md = render_summary(&run, 1), line[128];
	const json_t *p;
	size_t i;

	CHECK(has(md, "### gp2: credit cliff at 2,000 s"));
	CHECK(has(md, "| Mean IOPS | 3,001 | 300 |"));
	/* Little's law: 32 / 3,001 and 32 / 300.2. */
	CHECK(has(md, "| Mean latency by Little's law (qd32) | 10.7 ms | 106.6 ms |"));
	CHECK(has(md, "| IOPS per window, min / max | 290 / 3,005 | 2,991 / 3,002 |"));
	CHECK(has(md, "| EBS: throttled by | volume-iops, exceeded 699 s of 2,700 s |"));
	CHECK(has(md, "| Little's law | 32.0 in flight at qd32: consistent |"));
	CHECK(has(md, "| Kernel / engine I/Os | 6,210,543 / 6,210,540: agree |"));
	/* The fixture's own analysis predates steady state: no row, no dashes. */
	CHECK(!strstr(md, "| Steady state |"));
	CHECK(has(md, "- gp2: 3,001 IOPS until 2,000 s, then 300 IOPS: the credit cliff"));
	CHECK(has(md, "| gp2 (gp2, 100 GiB) | $11.40 | $114.00 |"));
	CHECK(has(md, "| gp3 (gp3, 100 GiB) | $9.12 | $9.12 |"));
	CHECK(has(md, "Prices: ap-northeast-2, as of 2026-09."));
	/* A section per phase kind and a line per phase, in run order. */
	CHECK(has(md, "## Random write \xe2\x80\x94 randwrite (4k, qd32)"));
	CHECK(has(md, "## Latency at queue depth 1 \xe2\x80\x94 lat (4k, qd1)"));
	CHECK(has(md, "## Sequential write \xe2\x80\x94 seqwrite (1 MiB, qd8)"));
	json_array_foreach(json_object_get(run, "phases"), i, p)
	{
		snprintf(line, sizeof(line), "| %zu | %s | %s | %s |", i + 1,
			 json_string_value(json_object_get(p, "phase")),
			 json_string_value(json_object_get(p, "device")),
			 json_string_value(json_object_get(p, "rw")));
		CHECK(has(md, line));
	}
	CHECK(has(md, "| 5 | randwrite | gp3 | randwrite | 4k | 32 | 120 s | 2,700 s |"));
	free(md);
	json_decref(run);
}

/* Analysed again, each phase's table says its steady state: gp2 at its
 * baseline from the first 90 s round wholly after its cliff (rounds 23..27
 * of 30), gp3 flat from its start (rounds 0..4); the lat phases keep no
 * histogram windows to take a p99 from. */
static void test_steady_rows(struct checks *checks)
{
	json_t *run = fixture_load();
	struct ebs_prices prices = ebs_prices_default();
	char *md;

	analysis_build(run, &prices);
	md = render_summary(&run, 1);
	CHECK(has(md, "| Steady state | steady after 2520 s | steady after 100 s |"));
	CHECK(has(md, "| Steady state | not judged: no latency windows recorded | not judged: no "
		      "latency windows recorded |"));
	free(md);
	json_decref(run);
}

/* analysis.c names a found cliff "cliff" (cliff_result_name), results.h
 * says "found": both render. */
/* A cliff the quick plan's 15 s randread stopped short of: the TL;DR and
 * the randread section say it is predicted, not measured, and when; no
 * before/after table claims a measured cliff. */
static void test_predicted_cliff(struct checks *checks)
{
	json_t *run = fixture_load();
	struct ebs_prices prices = ebs_prices_default();
	if (!CHECK(run != NULL))
		return;
	fixture_cut_gp2_randread(run, 15);
	analysis_build(run, &prices);
	char *md = render_summary(&run, 1);
	const char *note = "> **Credit cliff:** gp2: the credit cliff is predicted, not measured: "
			   "randread ran 15.0 s";
	const char *first = md ? strstr(md, note) : NULL;
	const char *layout = md ? strstr(md, "## Layout") : NULL;
	const char *randread = md ? strstr(md, "## Random read: the credit cliff") : NULL;
	CHECK(first && layout && first < layout); /* under the TL;DR */
	const char *second = first ? strstr(first + 1, note) : NULL;
	CHECK(second && randread && second > randread); /* and in the randread section */
	CHECK(has(md, "so measuring it takes a randread of"));
	CHECK(md && !strstr(md, "Before the cliff"));
	free(md);
	json_decref(run);
}

static void test_cliff_status_names(struct checks *checks)
{
	json_t *run = fixture_load();
	json_t *cliff = json_object_get(
		json_array_get(json_object_get(json_object_get(run, "analysis"), "devices"), 0),
		"cliff");
	char *md;

	json_object_set_new(cliff, "status", json_string("cliff"));
	md = render_summary(&run, 1);
	CHECK(has(md, "cliff at 2,000 s"));
	free(md);
	json_decref(run);
}

static void test_without_analysis(struct checks *checks)
{
	json_t *run = fixture_load();
	char *md;

	json_object_del(run, "analysis");
	json_object_set_new(json_object_get(run, "plan"), "time_scale", json_real(0.1));
	md = render_summary(&run, 1);
	CHECK(has(md, "| Monthly cost | \xe2\x80\x94 | \xe2\x80\x94 |"));
	/* No analysis, no claim of flatness or a cliff: just the numbers. */
	CHECK(has(md,
		  "| 2,300 mean, over 2,700 s (min 290) | 3,001 mean, over 600 s (min 2,991) |"));
	CHECK(has(md, "| 601 | 3,025 |"));
	CHECK(has(md, "no analysis in this results.json"));
	CHECK(has(md, "**Time scale 0.1.**"));
	CHECK(md && !strstr(md, "credit cliff at"));
	free(md);
	json_decref(run);
}

static const char *const sparse_docs[] = {
	"{}",
	"{\"schema\": 1, \"devices\": [{\"label\": \"gp2\"}], \"phases\": "
	"[{\"phase\": \"randread\", \"device\": \"gp2\"}, {\"phase\": \"lat\", \"device\": "
	"\"gp2\", "
	"\"job\": {}}, {\"phase\": 7}, {\"device\": \"x\"}]}",
	"{\"devices\": 3, \"phases\": \"no\", \"analysis\": {\"devices\": [{\"device\": \"gp2\", "
	"\"cliff\": {\"status\": \"found\"}, \"cost\": {\"monthly_usd\": \"lots\"}}], "
	"\"findings\": [3, null]}}",
	"{\"phases\": [{\"phase\": \"randread\", \"device\": \"solo\", \"iops_series\": [1, \"x\", "
	"null], \"job\": {\"read\": {\"clat_ns\": {\"percentile\": {}}}}, \"ebs_stats\": "
	"{\"available\": true}, \"disk_check\": {}}]}",
};

static void test_sparse_documents_render_dashes(struct checks *checks)
{
	for (size_t i = 0; i < ARRAY_SIZE(sparse_docs); i++) {
		json_t *run = json_loads(sparse_docs[i], 0, NULL);
		char *md = render_summary(&run, 1);
		CHECK(run != NULL);
		CHECK(has(md, "## TL;DR"));
		CHECK(has(md, REPORT_MISSING));
		free(md);
		json_decref(run);
	}
	json_t *run = json_loads(sparse_docs[1], 0, NULL);
	char *md = render_summary(&run, 1);
	CHECK(has(md, "| Measured | gp2 (\xe2\x80\x94, \xe2\x80\x94 GiB) |"));
	CHECK(has(md, "| Random read IOPS | \xe2\x80\x94 |"));
	free(md);
	json_decref(run);
	/* Devices only named by the phases still get a column. */
	run = json_loads(sparse_docs[3], 0, NULL);
	md = render_summary(&run, 1);
	CHECK(has(md, "| Measured | solo (\xe2\x80\x94, \xe2\x80\x94 GiB) |"));
	free(md);
	json_decref(run);
}

static void test_fleet(struct checks *checks)
{
	json_t *runs[2] = { fixture_load(), fixture_load() };
	json_t *env = json_object_get(runs[1], "environment");
	char *md;

	json_object_set_new(env, "instance_id", json_string("i-0fleet"));
	json_object_set_new(env, "started", json_string("2026-09-03T08:00:00Z"));
	json_object_set_new(env, "stopped_early", json_true());
	json_object_set_new(json_object_get(runs[1], "plan"), "time_scale", json_real(0.1));
	md = render_summary(runs, 2);
	CHECK(has(md, "started 2026-09-03T08:00:00Z \xc2\xb7 **time scale 0.1: durations scaled** "
		      "\xc2\xb7 **stopped early**\n"));
	CHECK(has(md, "# EBS benchmark: 2 runs"));
	CHECK(has(md,
		  "| Measured | run 1 \xc2\xb7 i-0123456789abcdef0 \xc2\xb7 2026-09-02T15:16:00Z"
		  "<br>gp2 (gp2, 100 GiB) |"));
	CHECK(has(
		md,
		"| run 2 \xc2\xb7 i-0fleet \xc2\xb7 2026-09-03T08:00:00Z<br>gp3 (gp3, 100 GiB) |"));
	CHECK(has(md, "| Monthly cost | $11.40 | $9.12 | $11.40 | $9.12 |"));
	CHECK(has(md, "| run 2: gp3 (gp3, 100 GiB) | $9.12 | $9.12 |"));
	CHECK(has(md, "## Run 2 findings"));
	/* Per-run measurement sections are left to each run's own summary. */
	CHECK(md && !strstr(md, "## Random write"));
	free(md);
	json_decref(runs[0]);
	json_decref(runs[1]);
}

/* A resumed run states each gap in one sentence: the steps done, the cut
 * step (and that the ledger never saw its spend) when there was one; the
 * fleet's header line a short mark.  No "resumes": no sentence. */
static void test_resumed(struct checks *checks)
{
	json_t *run = fixture_load();
	char *md = render_summary(&run, 1);
	CHECK(md && !strstr(md, "Resumed"));
	free(md);
	json_object_set_new(run, "resumes",
			    json_pack("[{sfsisis{ssss}},{sfsisiso}]", "gap_s", 42.04, "steps_done",
				      2, "steps", 4, "cut", "phase", "randwrite", "device", "gp2",
				      "gap_s", 5.0, "steps_done", 3, "steps", 4, "cut",
				      json_null()));
	md = render_summary(&run, 1);
	CHECK(has(md, "> **Resumed.** The run stopped with 2 of 4 steps done (randwrite on gp2 was "
		      "cut and ran again whole) and resumed 42.0 s later; each device's idle time "
		      "before its next phase includes the gap, over which a gp2's credit ledger "
		      "refills (not counting what the cut step spent before the stop).\n"));
	CHECK(has(md, "> **Resumed.** The run stopped with 3 of 4 steps done and resumed 5.0 s "
		      "later; each device's idle time before its next phase includes the gap, over "
		      "which a gp2's credit ledger refills.\n"));
	free(md);
	json_t *runs[2] = { run, fixture_load() };
	md = render_summary(runs, 2);
	CHECK(has(md, "\xc2\xb7 **resumed after 42.0 s** \xc2\xb7 **resumed after 5.0 s**"));
	free(md);
	json_decref(runs[0]);
	json_decref(runs[1]);
}

static void test_markdown_escaping_and_tldr_only(struct checks *checks)
{
	json_t *run = fixture_load();
	char *md;
	int rc = -1;

	json_object_set_new(json_array_get(json_object_get(run, "devices"), 0), "label",
			    json_string("a|b<c"));
	md = render_summary(&run, 1);
	CHECK(has(md, "| a\\|b&lt;c (gp2, 100 GiB) |"));
	free(md);
	md = fixture_render(summary_write_tldr, &run, 1, &rc);
	CHECK(rc == 0);
	CHECK(has(md, "| Monthly cost |"));
	CHECK(md && !strstr(md, "## Findings"));
	free(md);
	json_decref(run);
}

static bool file_exists(const char *dir, const char *name)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !stat(path, &st) && st.st_size > 0;
}

/* `ebsbench report`: writes into the one directory, wants --out for
 * several, names a directory without results.json. */
static void test_cmd_report(struct checks *checks)
{
	char dir[64], path[512], out[96];
	json_t *run = fixture_load();

	if (!CHECK(check_temp_dir(dir, sizeof(dir), "report")))
		return;
	snprintf(path, sizeof(path), "%s/results.json", dir);
	CHECK(json_dump_file(run, path, JSON_COMPACT) == 0);
	CHECK(cmd_report(1, (char *[]){ dir, NULL }, NULL) == 0);
	CHECK(file_exists(dir, "summary.md"));
	CHECK(file_exists(dir, "iops_timeline.svg"));
	CHECK(file_exists(dir, "latency_percentiles.svg"));
	CHECK(file_exists(dir, "latency_heatmap.svg"));
	CHECK(cmd_report(2, (char *[]){ dir, dir, NULL }, NULL) == 2);
	CHECK(cmd_report(1, (char *[]){ "--bogus", NULL }, NULL) == 2);
	CHECK(cmd_report(0, (char *[]){ NULL }, NULL) == 2);
	CHECK(cmd_report(1, (char *[]){ "/nonexistent-ebsbench", NULL }, NULL) == 1);
	/* A fleet report goes beside its inputs, never into one. */
	snprintf(out, sizeof(out), "%s/fleet", dir);
	CHECK(cmd_report(4, (char *[]){ "--out", out, dir, dir, NULL }, NULL) == 2);
	snprintf(out, sizeof(out), "%s-fleet", dir);
	CHECK(cmd_report(4, (char *[]){ "--out", out, dir, dir, NULL }, NULL) == 0);
	CHECK(file_exists(out, "summary.md"));
	CHECK(file_exists(out, "fleet.md"));
	check_remove_tree(out);
	/* A plan with neither randread nor lat gets no heatmap, and no link to one. */
	json_object_set_new(json_object_get(run, "plan"), "phases", json_pack("[s]", "seqread"));
	snprintf(out, sizeof(out), "%s-seq", dir);
	CHECK(mkdir(out, 0755) == 0);
	snprintf(path, sizeof(path), "%s/results.json", out);
	CHECK(json_dump_file(run, path, JSON_COMPACT) == 0);
	CHECK(cmd_report(1, (char *[]){ out, NULL }, NULL) == 0);
	CHECK(file_exists(out, "summary.md") && !file_exists(out, "latency_heatmap.svg"));
	json_t *seq = json_load_file(path, 0, NULL);
	char *md = render_summary(&seq, 1);
	CHECK(has(md, "iops_timeline.svg") && !has(md, "latency_heatmap.svg"));
	free(md);
	json_decref(seq);
	json_decref(run);
	check_remove_tree(out);
	check_remove_tree(dir);
}

/* Devices that are not EBS volumes: the header says so, and what the
 * instance line then is (QEMU's host says m5.xlarge, it is none). */
static void test_devices_not_ebs(struct checks *checks)
{
	json_t *run = fixture_load();
	char *md = render_summary(&run, 1);
	CHECK(md && !strstr(md, "**Emulated.**") && !strstr(md, "**Not EBS.**"));
	free(md);
	json_t *second = json_array_get(json_object_get(run, "devices"), 1);
	json_object_set_new(second, "model", json_string("QEMU NVMe Ctrl"));
	md = render_summary(&run, 1);
	CHECK(has(md, "> **Emulated.** The devices are QEMU NVMe Ctrl drives under QEMU, not "
		      "Amazon EBS volumes: the instance above is what the emulated host's metadata "
		      "said"));
	free(md);
	json_object_set_new(second, "model", json_string("Samsung SSD 980"));
	md = render_summary(&run, 1);
	CHECK(has(md, "> **Not EBS.** The devices are Samsung SSD 980 drives, not Amazon EBS "
		      "volumes: the limits met are theirs"));
	CHECK(md && !strstr(md, "**Emulated.**"));
	free(md);
	json_decref(run);
}

/* An st1 of 500 GiB: its cliff table under seqread, its cliff phase, in
 * MiB/s (122 MiB/s for 4,993 s of 1 MiB reads, then its 20 MiB/s
 * baseline); none under randread, which HDD's plan does not run. */
static double st1_mibs(size_t second)
{
	return second < 4993 ? 122 : 20;
}

static void test_st1_cliff_section(struct checks *checks)
{
	json_t *run = fixture_load_st1(6741, st1_mibs);
	struct ebs_prices prices = ebs_prices_default();
	if (!CHECK(run != NULL))
		return;
	analysis_build(run, &prices);
	char *md = render_summary(&run, 1);
	const char *sr = md ? strstr(md, "## Sequential read") : NULL;
	CHECK(sr && strstr(sr, "### gp2: credit cliff at 4,993 s") &&
	      strstr(sr, "| Mean MiB/s | 122 | 20 |"));
	CHECK(md && sr && !strstr(md, "### gp2: credit cliff at 2,000 s"));
	free(md);
	json_decref(run);
}

CHECK_MAIN(test_st1_cliff_section, test_predicted_cliff, test_counts_and_times, test_benchmark_tldr,
	   test_devices_not_ebs, test_benchmark_sections, test_steady_rows, test_cliff_status_names,
	   test_without_analysis, test_sparse_documents_render_dashes, test_fleet, test_resumed,
	   test_markdown_escaping_and_tldr_only, test_cmd_report)
