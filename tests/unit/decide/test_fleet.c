/* test_fleet.c - the fleet's statistics on synthetic inputs: quartiles
 * and MAD, the outlier rule (3 scaled MADs, the 1 % floor, at least 5
 * volumes), a percentile of a merged histogram against the exact one of
 * the concatenated values (within its bin, where the mean of the
 * volumes' own p99s is not), and fleet_build over results.json documents
 * made here: classes, merged I/O counts and the outlier it names. */
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "analysis/analysis.h"
#include "decide/decide.h"
#include "decide/internal.h"
#include "report/fleet.h"
#include "results/results.h"
#include "stats/stats.h"
#include "stats/internal.h"

#define COARSE 4
#define BINS ((HISTOGRAM_FIO_GROUPS * HISTOGRAM_PER_GROUP) >> COARSE)

static void test_distribution(struct checks *checks)
{
	const double v[] = { 4, NAN, 1, 100, 3, 2 };
	struct fleet_dist d;
	fleet_dist_of(v, 6, &d);
	CHECK_EQ_U64(d.n, 5); /* the NaN left out */
	CHECK_NEAR(d.min, 1, 0);
	CHECK_NEAR(d.q1, 2, 1e-12);
	CHECK_NEAR(d.median, 3, 1e-12);
	CHECK_NEAR(d.q3, 4, 1e-12);
	CHECK_NEAR(d.max, 100, 0);
	CHECK_NEAR(d.mad, 1, 1e-12); /* |x - 3|: 0 1 1 2 97 */
	/* Quartiles between order statistics: 10 20 30 40 -> 17.5 and 32.5. */
	const double w[] = { 40, 10, 30, 20 };
	fleet_dist_of(w, 4, &d);
	CHECK_NEAR(d.q1, 17.5, 1e-12);
	CHECK_NEAR(d.median, 25, 1e-12);
	CHECK_NEAR(d.q3, 32.5, 1e-12);
	fleet_dist_of(w, 0, &d);
	CHECK_EQ_U64(d.n, 0);
	CHECK(isnan(d.median));
}

static void test_outlier_rule(struct checks *checks)
{
	const double v[] = { 100, 101, 99, 100, 102, 98, 100, 300 };
	struct fleet_dist d;
	fleet_dist_of(v, 8, &d);
	CHECK_NEAR(d.median, 100, 1e-12);
	CHECK_NEAR(d.mad, 1, 1e-12);
	CHECK(fleet_is_outlier(&d, 300));
	CHECK(!fleet_is_outlier(&d, 102));
	/* 3 scaled MADs is 4.45 here: 104 is in, 105 out, on both sides. */
	CHECK(!fleet_is_outlier(&d, 104));
	CHECK(fleet_is_outlier(&d, 105));
	CHECK(fleet_is_outlier(&d, 95));
	CHECK_NEAR(fleet_mads(&d, 300), 200 / 1.4826, 1e-9);
	/* Identical volumes: the floor (1 % of the median) decides. */
	const double same[] = { 50, 50, 50, 50, 50 };
	fleet_dist_of(same, 5, &d);
	CHECK(!fleet_is_outlier(&d, 51.4)); /* 2.8 floored MADs */
	CHECK(fleet_is_outlier(&d, 51.6));
	/* A latency percentile: nothing nearer than a histogram bin (25 % at
	 * coarseness 4) is an outlier, however tight the rest. */
	d.floor = fleet_figure_floor(FLEET_RANDREAD_P99_MS, 4, 50, 1);
	CHECK_NEAR(d.floor, 0.25 / 3, 1e-12);
	CHECK(!fleet_is_outlier(&d, 62));
	CHECK(fleet_is_outlier(&d, 63));
	CHECK(!fleet_is_outlier(&d, 38));
	CHECK(fleet_is_outlier(&d, 37));
	CHECK_NEAR(fleet_figure_floor(FLEET_SUSTAINED_IOPS, 4, 50, 1), 0.01, 0);
	/* A cliff time: two windows (0.1 s) over K of the median (2.2 s). */
	const double cliffs[] = { 2.2, 2.2, 2.2, 2.1, 2.2, 2.2 };
	fleet_dist_of(cliffs, 6, &d);
	d.floor = fleet_figure_floor(FLEET_CLIFF_S, 4, d.median, 0.1);
	CHECK_NEAR(d.floor, 0.2 / 3 / 2.2, 1e-12);
	CHECK(!fleet_is_outlier(&d, 2.0 + 1e-9));
	CHECK(fleet_is_outlier(&d, 1.95));
	CHECK(fleet_is_outlier(&d, 3.4));
	/* Four volumes are too few to judge. */
	fleet_dist_of(v + 4, 4, &d);
	CHECK(!fleet_is_outlier(&d, 1e6));
	CHECK(!fleet_is_outlier(&d, NAN));
}

/* A deterministic spread of latencies in ns around base (x1 .. x8). */
static uint64_t next_latency(uint64_t *state, double base)
{
	*state = *state * 6364136223846793005ull + 1442695040888963407ull;
	double u = (double)(*state >> 11) / 9007199254740992.0;
	return (uint64_t)(base * exp2(3 * u * u));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* The exact pct-th percentile of v[0..n) as fio ranks (the first value
 * whose rank reaches pct % of n). */
static uint64_t exact_pct(uint64_t *v, size_t n, double pct)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	double need = pct / 100 * (double)n;
	size_t rank = (size_t)ceil(need);
	return v[rank ? rank - 1 : 0];
}

static void test_merged_percentile(struct checks *checks)
{
	enum { A = 9000, B = 1000 };
	static uint64_t all[A + B];
	uint64_t counts_a[BINS] = { 0 }, counts_b[BINS] = { 0 }, merged[BINS] = { 0 };
	uint64_t state = 42;
	for (size_t i = 0; i < A + B; i++) {
		all[i] = next_latency(&state, i < A ? 200000 : 4000000); /* 0.2 ms, 4 ms */
		unsigned bin = histogram_index(all[i]) >> COARSE;
		(i < A ? counts_a : counts_b)[bin]++;
		merged[bin]++;
	}
	struct fleet_pct pa, pb, pm;
	CHECK(fleet_hist_pct(counts_a, BINS, COARSE, 99, &pa));
	CHECK(fleet_hist_pct(counts_b, BINS, COARSE, 99, &pb));
	CHECK(fleet_hist_pct(merged, BINS, COARSE, 99, &pm));
	uint64_t exact = exact_pct(all, A + B, 99);
	CHECK(pm.bin_low_ns <= (double)exact && (double)exact < pm.bin_high_ns);
	CHECK(pm.bin_low_ns <= pm.ns && pm.ns <= pm.bin_high_ns);
	/* A quarter of an octave wide at coarseness 4: at most 25 % of its low end. */
	CHECK(pm.bin_high_ns / pm.bin_low_ns <= 1.25 + 1e-9);
	/* The volumes' p99s averaged are not the fleet's p99. */
	double averaged = (pa.ns * A + pb.ns * B) / (A + B);
	CHECK(!(pm.bin_low_ns <= averaged && averaged < pm.bin_high_ns));
	uint64_t empty[BINS] = { 0 };
	CHECK(!fleet_hist_pct(empty, BINS, COARSE, 99, &pm));
	CHECK(isnan(pm.ns));
}

/* One window of counts in results.json's compact form. */
static json_t *window_json(const uint64_t *counts)
{
	char text[4096];
	size_t len = 0;
	unsigned first = 0, last = BINS;
	while (first < BINS && !counts[first])
		first++;
	while (last > first && !counts[last - 1])
		last--;
	if (first == BINS)
		return json_string("");
	len += (size_t)snprintf(text, sizeof(text), "%u:", first);
	for (unsigned j = first; j < last; j++)
		len += (size_t)snprintf(text + len, sizeof(text) - len,
					j > first ? " %llu" : "%llu",
					(unsigned long long)counts[j]);
	return json_string(text);
}

/* A one-device run of type gp3 at `iops`, with two windows of histogram. */
static json_t *run_json(double iops, uint64_t *state)
{
	uint64_t w1[BINS] = { 0 }, w2[BINS] = { 0 };
	for (int i = 0; i < 500; i++) {
		w1[histogram_index(next_latency(state, 300000)) >> COARSE]++;
		w2[histogram_index(next_latency(state, 300000)) >> COARSE]++;
	}
	json_t *run = json_pack("{si s[{sss{sssisi}}] s[{sssssisis[fff]s{sisis[oo]}}]"
				" s{s[{sss{sss{sf}}}]}}",
				"schema", 2, "devices", "label", "vol", "volume", "type", "gp3",
				"size_gib", 100, "iops", 3000, "phases", "phase", "randread",
				"device", "vol", "iodepth", 32, "bs", 4096, "iops_series", iops,
				iops, iops, "clat_hist", "coarseness", COARSE, "bins", BINS,
				"windows", window_json(w1), window_json(w2), "analysis", "devices",
				"device", "vol", "cliff", "status", "none", "before", "mean", iops);
	return run;
}

/* The HTML section: the outlier's directory escaped wherever it shows,
 * the chart inline without its XML prolog. */
static void check_html(struct checks *checks, const struct fleet *f)
{
	char *html = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&html, &len);
	if (!CHECK(out != NULL))
		return;
	CHECK(fleet_html_write(out, f) == 0);
	fclose(out);
	CHECK(strstr(html, "<section class=\"fleet\"") == html);
	CHECK(strstr(html, "&lt;r7&gt;&amp;:vol") != NULL);
	CHECK(strstr(html, "<r7>") == NULL);
	CHECK(strstr(html, "<?xml") == NULL);
	CHECK(strstr(html, "<svg") != NULL);
	CHECK(strstr(html, "class=\"outlier\"") != NULL);
	free(html);
}

static void test_fleet_build(struct checks *checks)
{
	enum { RUNS = 7 };
	json_t *runs[RUNS];
	const char *dirs[RUNS] = { "r1", "r2", "r3", "r4", "r5", "r6", "slow/<r7>&" };
	const double iops[RUNS] = { 3001, 2999, 3000, 3002, 2998, 3000, 1500 };
	uint64_t state = 7;
	for (int r = 0; r < RUNS; r++)
		runs[r] = run_json(iops[r], &state);
	/* A second class: other provisioned IOPS; another size alone is not
	 * one for gp3 (run 4), whose size sets no performance. */
	json_object_set_new(
		json_object_get(json_array_get(json_object_get(runs[5], "devices"), 0), "volume"),
		"iops", json_integer(6000));
	json_object_set_new(
		json_object_get(json_array_get(json_object_get(runs[4], "devices"), 0), "volume"),
		"size_gib", json_integer(200));
	struct fleet f;
	char err[256];
	if (!CHECK(fleet_build(&f, runs, dirs, RUNS, err, sizeof(err)) == 0))
		return;
	CHECK_EQ_U64(f.nvolumes, RUNS);
	CHECK_EQ_U64(f.ngroups, 2);
	CHECK(!strcmp(f.group[0].name, "gp3 3000 IOPS"));
	CHECK(!strcmp(f.group[1].name, "gp3 6000 IOPS"));
	CHECK_EQ_U64(f.group[0].volumes, 6);
	CHECK_EQ_U64(f.group[0].hist[FLEET_HIST_RANDREAD].ios, 6 * 1000);
	CHECK_EQ_U64(f.bins, BINS);
	CHECK_NEAR(f.group[0].dist[FLEET_SUSTAINED_IOPS].median, 2999.5, 1e-9);
	CHECK(isnan(f.volume[0].value[FLEET_BURST_IOPS]));
	/* The slow volume is named, for its IOPS alone. */
	if (CHECK_EQ_U64(f.noutliers, 1)) {
		CHECK_EQ_U64(f.outlier[0].volume, 6);
		CHECK_EQ_U64(f.outlier[0].figure, FLEET_SUSTAINED_IOPS);
		char text[FLEET_TEXT_LEN];
		fleet_outlier_text(text, sizeof(text), &f, &f.outlier[0]);
		CHECK(strstr(text, "<r7>&:vol (slow/<r7>&, gp3 3000 IOPS)") == text);
		CHECK(strstr(text, "-50.0 %") != NULL);
	}
	check_html(checks, &f);
	/* Every member's p99 lies near the merged one: same distribution. */
	double p99 = f.group[0].p99[FLEET_HIST_RANDREAD].ns / 1e6;
	CHECK(p99 > 0.3 && p99 < 2.5);
	fleet_free(&f);
	for (int r = 0; r < RUNS; r++)
		json_decref(runs[r]);
}

CHECK_MAIN(test_distribution, test_outlier_rule, test_merged_percentile, test_fleet_build)
