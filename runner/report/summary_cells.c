/* summary_cells.c - the text of each table cell in summary.md, worded as
 * the reference benchmark words it: "3,001 -> 300, cliff at 2,000 s", "601 (partly
 * refilled bucket; predicted 600)", "mean 1.65 ms, bimodal: ...". */
#include "report/summary_cells.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "lib/lib.h"
#include "results/results.h"
#include "report/report_format.h"

/* qd1 latency is bimodal (the reference benchmark's throttled gp2: p50
 * 0.60, p95 3.39 ms) when p95 is this many times p50: a mean alone would
 * hide it. */
#define BIMODAL_RATIO 3.0
#define ARROW "\xe2\x86\x92" /* U+2192 */

static double dir_num(const json_t *phase, const char *key)
{
	return results_num(json_object_get(results_direction(phase), key));
}

static double mean_lat_ns(const json_t *phase)
{
	return results_num(RESULTS_GET(results_direction(phase), "lat_ns", "mean"));
}

static double seconds_of(const json_t *phase, size_t samples)
{
	return (double)samples * results_window_s(phase);
}

/* A flat series is the analysis' verdict, not ours to claim without it. */
static bool analysed_flat(const struct summary_cell_ctx *c)
{
	const json_t *status =
		RESULTS_GET(results_analysis_device(c->run, c->device), "cliff", "status");
	return results_str_is(status, "none") || results_str_is(status, "no cliff");
}

static void rr_iops_cell(char *buf, size_t len, const struct summary_cell_ctx *c)
{
	const json_t *cliff = results_cliff_found(c->run, c->device);
	struct results_series s = results_series_stats(json_object_get(c->phase, "iops_series"));
	char a[REPORT_NUM_LEN], b[REPORT_NUM_LEN], d[REPORT_NUM_LEN];

	if (!c->phase) {
		report_missing(buf, len);
		return;
	}
	if (cliff) {
		report_count(a, sizeof(a), results_num(RESULTS_GET(cliff, "before", "mean")));
		report_count(b, sizeof(b), results_num(RESULTS_GET(cliff, "after", "mean")));
		report_count(d, sizeof(d), results_num(json_object_get(cliff, "second")));
		snprintf(buf, len, "%s " ARROW " %s, cliff at %s s", a, b, d);
		return;
	}
	if (!s.used) {
		double iops = dir_num(c->phase, "iops");
		if (!isfinite(iops)) {
			report_missing(buf, len);
			return;
		}
		snprintf(buf, len, "%s mean", report_count(a, sizeof(a), iops));
		return;
	}
	report_count(a, sizeof(a), s.mean);
	report_count(b, sizeof(b), seconds_of(c->phase, s.samples));
	report_count(d, sizeof(d), s.min);
	snprintf(buf, len, "%s mean, %sover %s s (min %s)", a, analysed_flat(c) ? "flat " : "", b,
		 d);
}

static void rr_p99_cell(char *buf, size_t len, const struct summary_cell_ctx *c)
{
	char a[REPORT_NUM_LEN];

	report_ms(a, sizeof(a), results_clat_pct_ns(results_direction(c->phase), "99.000000"));
	snprintf(buf, len, "%s%s", a,
		 c->phase && results_cliff_found(c->run, c->device)
			 ? " (mostly the time after the cliff)"
			 : "");
}

static const json_t *refill_for(const struct summary_cell_ctx *c, const char *phase)
{
	const json_t *r;
	size_t i;

	json_array_foreach(json_object_get(results_analysis_device(c->run, c->device), "refill"), i,
			   r)
	{
		if (results_str_is(json_object_get(r, "phase"), phase))
			return r;
	}
	return NULL;
}

/* Why a drained gp2 beats its baseline: the idle gap before refilled it. */
static void rw_iops_cell(char *buf, size_t len, const struct summary_cell_ctx *c)
{
	double expected = results_num(json_object_get(refill_for(c, "randwrite"), "expected_iops"));
	char a[REPORT_NUM_LEN];

	report_count(a, sizeof(a), dir_num(c->phase, "iops"));
	if (c->phase && isfinite(expected)) {
		char b[REPORT_NUM_LEN];
		snprintf(buf, len, "%s (partly refilled bucket; predicted %s)", a,
			 report_count(b, sizeof(b), expected));
	} else {
		snprintf(buf, len, "%s", a);
	}
}

/* Throttling shows in the shape, not the mean: name p50 and p95 when
 * they are far apart. */
static void qd1_cell(char *buf, size_t len, const struct summary_cell_ctx *c)
{
	const json_t *dir = results_direction(c->phase);
	double p50 = results_clat_pct_ns(dir, "50.000000"),
	       p95 = results_clat_pct_ns(dir, "95.000000");
	char a[REPORT_NUM_LEN], b[REPORT_NUM_LEN];

	if (!c->phase) {
		report_missing(buf, len);
		return;
	}
	report_ms(a, sizeof(a), mean_lat_ns(c->phase));
	if (p95 > BIMODAL_RATIO * p50) {
		char d[REPORT_NUM_LEN];
		report_ms(b, sizeof(b), p50);
		report_ms(d, sizeof(d), p95);
		snprintf(buf, len, "mean %s, bimodal: p50 %s / p95 %s", a, b, d);
	} else {
		report_ms(b, sizeof(b), results_clat_pct_ns(dir, "99.000000"));
		snprintf(buf, len, "mean %s / p99 %s", a, b);
	}
}

static const char *whole_mibs(char *buf, size_t len, const json_t *phase)
{
	double bw = dir_num(phase, "bw_bytes");

	if (!phase || !isfinite(bw))
		report_missing(buf, len);
	else
		snprintf(buf, len, "%.0f", bw / MIB);
	return buf;
}

static void seq_cell(char *buf, size_t len, const struct summary_cell_ctx *c)
{
	char a[REPORT_NUM_LEN], b[REPORT_NUM_LEN];

	whole_mibs(a, sizeof(a), results_phase(c->run, "seqread", c->device));
	whole_mibs(b, sizeof(b), results_phase(c->run, "seqwrite", c->device));
	if (!strcmp(a, REPORT_MISSING) && !strcmp(b, REPORT_MISSING)) {
		report_missing(buf, len);
		return;
	}
	snprintf(buf, len, "%s / %s MiB/s", a, b);
}

static double cost_of(const struct summary_cell_ctx *c, const char *key)
{
	return results_num(RESULTS_GET(results_analysis_device(c->run, c->device), "cost", key));
}

void summary_cells_monthly(char *buf, size_t len, const struct summary_cell_ctx *c)
{
	report_usd(buf, len, cost_of(c, "monthly_usd"));
}

void summary_cells_per_3000(char *buf, size_t len, const struct summary_cell_ctx *c)
{
	report_usd(buf, len, cost_of(c, "per_3000_iops_usd"));
}

static void iops_cell(char *buf, size_t len, const struct summary_cell_ctx *c)
{
	report_count(buf, len, dir_num(c->phase, "iops"));
}

static void series_mean_cell(char *buf, size_t len, const struct summary_cell_ctx *c)
{
	report_count(buf, len, results_series_stats(json_object_get(c->phase, "iops_series")).mean);
}

static void series_range_cell(char *buf, size_t len, const struct summary_cell_ctx *c)
{
	struct results_series s = results_series_stats(json_object_get(c->phase, "iops_series"));
	char a[REPORT_NUM_LEN], b[REPORT_NUM_LEN];

	if (!s.used) {
		report_missing(buf, len);
		return;
	}
	snprintf(buf, len, "%s / %s", report_count(a, sizeof(a), s.min),
		 report_count(b, sizeof(b), s.max));
}

static void throughput_cell(char *buf, size_t len, const struct summary_cell_ctx *c)
{
	report_mibs(buf, len, dir_num(c->phase, "bw_bytes"));
}

static void mean_lat_cell(char *buf, size_t len, const struct summary_cell_ctx *c)
{
	report_ms(buf, len, mean_lat_ns(c->phase));
}

static void percentiles_cell(char *buf, size_t len, const struct summary_cell_ctx *c)
{
	const json_t *dir = results_direction(c->phase);
	char a[REPORT_NUM_LEN], b[REPORT_NUM_LEN], d[REPORT_NUM_LEN];

	if (!json_is_object(RESULTS_GET(dir, "clat_ns", "percentile"))) {
		report_missing(buf, len);
		return;
	}
	snprintf(buf, len, "%s / %s / %s",
		 report_ms(a, sizeof(a), results_clat_pct_ns(dir, "50.000000")),
		 report_ms(b, sizeof(b), results_clat_pct_ns(dir, "95.000000")),
		 report_ms(d, sizeof(d), results_clat_pct_ns(dir, "99.000000")));
}

static double phase_seconds(const json_t *phase)
{
	return (results_num(json_object_get(phase, "ended_ms")) -
		results_num(json_object_get(phase, "started_ms"))) /
	       1e3;
}

/* Who throttled the phase by EBS's own counters, and for how long. */
static void ebs_cell(char *buf, size_t len, const struct summary_cell_ctx *c)
{
	const json_t *stats = json_object_get(c->phase, "ebs_stats");
	const char *by = json_string_value(json_object_get(stats, "throttled_by"));
	char key[48], a[REPORT_NUM_LEN], b[REPORT_NUM_LEN];

	if (json_is_false(json_object_get(stats, "available"))) {
		const char *why = json_string_value(json_object_get(stats, "reason"));
		snprintf(buf, len, "not available (%s)", why ? why : "no reason given");
		return;
	}
	if (!by) {
		report_missing(buf, len);
		return;
	}
	if (!strcmp(by, "none")) {
		snprintf(buf, len, "none");
		return;
	}
	/* "volume IOPS" or "volume-iops" -> volume_exceeded_iops_us. */
	snprintf(key, sizeof(key), "%s_exceeded_%s_us",
		 strncmp(by, "instance", 8) ? "volume" : "instance",
		 strstr(by, "throughput") ? "throughput" : "iops");
	report_count(a, sizeof(a), results_num(json_object_get(stats, key)) / 1e6);
	report_count(b, sizeof(b), phase_seconds(c->phase));
	snprintf(buf, len, "%s, exceeded %s s of %s s", by, a, b);
}

static const char *little_word(enum little_verdict v)
{
	if (v == LITTLE_CONSISTENT)
		return "consistent";
	if (v == LITTLE_SERVICE_TIME)
		return "service time, no queue";
	if (v == LITTLE_RATED)
		return "rated: rate x latency";
	if (v == LITTLE_RATED_BEHIND)
		return "rated, behind its rate";
	return v == LITTLE_UNDERFILLED ? "fewer than iodepth" : "more than iodepth";
}

/* IOPS x mean latency = I/Os in flight: equal to iodepth, the latency is
 * the queue an IOPS limit builds, not a slow device. */
static void little_cell(char *buf, size_t len, const struct summary_cell_ctx *c)
{
	double qd = results_num(json_object_get(c->phase, "iodepth"));
	struct little_check l = little_judge_phase(c->phase);

	if (l.verdict == LITTLE_NO_DATA) {
		report_missing(buf, len);
		return;
	}
	snprintf(buf, len, "%.1f in flight at qd%.0f: %s", l.in_flight, qd, little_word(l.verdict));
}

/* The kernel's count of I/Os on the device against the engine's: proof
 * the I/O reached the disk and nothing else used it. */
static void disk_check_cell(char *buf, size_t len, const struct summary_cell_ctx *c)
{
	const json_t *check = json_object_get(c->phase, "disk_check");
	const json_t *agrees = json_object_get(check, "agrees");
	char a[REPORT_NUM_LEN], b[REPORT_NUM_LEN];

	if (!json_is_object(check)) {
		report_missing(buf, len);
		return;
	}
	report_count(a, sizeof(a), results_num(json_object_get(check, "kernel_ios")));
	report_count(b, sizeof(b), results_num(json_object_get(check, "engine_ios")));
	snprintf(buf, len, "%s / %s: %s", a, b,
		 json_is_true(agrees)	 ? "agree"
		 : json_is_false(agrees) ? "DISAGREE"
					 : REPORT_MISSING);
}

/* The analysis' verdict object for the cell's phase (the first of its
 * name on the device, as results_phase finds it), or NULL. */
static const json_t *verdict_for(const struct summary_cell_ctx *c)
{
	const char *name = json_string_value(json_object_get(c->phase, "phase"));
	const json_t *v;
	size_t i;

	json_array_foreach(json_object_get(results_analysis_device(c->run, c->device), "phases"), i,
			   v)
	{
		if (name && results_str_is(json_object_get(v, "phase"), name))
			return v;
	}
	return NULL;
}

/* "steady after 42 s", "not steady in 600 s: range 34 %", "not steady: on
 * burst credit (...)": the analysis's word (steady_state.h). */
static void steady_cell(char *buf, size_t len, const struct summary_cell_ctx *c)
{
	const char *word = json_string_value(RESULTS_GET(verdict_for(c), "steady", "word"));

	if (!word)
		report_missing(buf, len);
	else
		snprintf(buf, len, "%s", word);
}

/* "2,000 IOPS, bound by latency (iodepth / service time)". */
static void predicted_cell(char *buf, size_t len, const struct summary_cell_ctx *c)
{
	const json_t *v = verdict_for(c);
	const char *unit = json_string_value(json_object_get(v, "unit"));
	const char *bound = json_string_value(json_object_get(v, "bound"));
	char a[REPORT_NUM_LEN];

	if (!v || !unit) {
		report_missing(buf, len);
		return;
	}
	if (!bound || !json_is_number(json_object_get(v, "predicted"))) {
		snprintf(buf, len, "not predicted");
		return;
	}
	snprintf(buf, len, "%s %s, bound by %s",
		 report_count(a, sizeof(a), results_num(json_object_get(v, "predicted"))), unit,
		 bound);
}

/* "as predicted: 1,381 vs 1,373 IOPS (±10 %)": the verdict beside the
 * two numbers it was drawn from. */
static void verdict_cell(char *buf, size_t len, const struct summary_cell_ctx *c)
{
	const json_t *v = verdict_for(c);
	const char *word = json_string_value(json_object_get(v, "verdict"));
	const char *unit = json_string_value(json_object_get(v, "unit"));
	double tol = results_num(json_object_get(v, "tolerance"));
	char a[REPORT_NUM_LEN], b[REPORT_NUM_LEN];

	if (!word || !unit) {
		report_missing(buf, len);
		return;
	}
	if (!json_is_number(json_object_get(v, "predicted")) || !isfinite(tol)) {
		snprintf(buf, len, "%s", word);
		return;
	}
	snprintf(buf, len, "%s: %s vs %s %s (\xc2\xb1%.0f %%)", word,
		 report_count(a, sizeof(a), results_num(json_object_get(v, "measured"))),
		 report_count(b, sizeof(b), results_num(json_object_get(v, "predicted"))), unit,
		 tol * 100);
}

/* Whether the phase name appeared earlier in the list. */
static bool seen_before(const json_t *list, size_t upto, const char *name)
{
	for (size_t k = 0; k < upto; k++)
		if (results_str_is(json_object_get(json_array_get(list, k), "phase"), name))
			return true;
	return false;
}

/* "as predicted" for a phase run once; "6 steps: 4 as predicted, 2 worse"
 * for one run in steps (the load curve, the sweep), each word counted. */
static int phase_verdicts(char *buf, size_t len, const json_t *list, size_t from, const char *name)
{
	size_t count[EBS_NOT_PREDICTED + 1] = { 0 }, steps = 0, k;
	const char *only = NULL;
	const json_t *v;
	json_array_foreach(list, k, v)
	{
		if (k < from || !results_str_is(json_object_get(v, "phase"), name))
			continue;
		const char *word = json_string_value(json_object_get(v, "verdict"));
		only = word;
		steps++;
		for (int w = EBS_AS_PREDICTED; word && w <= EBS_NOT_PREDICTED; w++)
			count[w] += !strcmp(word, ebs_verdict_name((enum ebs_verdict)w));
	}
	if (steps <= 1)
		return snprintf(buf, len, " %s", only ? only : REPORT_MISSING);
	int used = snprintf(buf, len, " (%zu steps:", steps);
	const char *sep = " ";
	for (int w = EBS_AS_PREDICTED; w <= EBS_NOT_PREDICTED && used >= 0; w++) {
		if (!count[w] || (size_t)used >= len)
			continue;
		used += snprintf(buf + used, len - (size_t)used, "%s%zu %s", sep, count[w],
				 ebs_verdict_name((enum ebs_verdict)w));
		sep = ", ";
	}
	if (used >= 0 && (size_t)used < len)
		used += snprintf(buf + used, len - (size_t)used, ")");
	return used;
}

/* One verdict per phase, in run order: "randread as predicted · lat better
 * · loadcurve (6 steps: 5 as predicted, 1 worse)". */
static void verdicts_cell(char *buf, size_t len, const struct summary_cell_ctx *c)
{
	const json_t *list = json_object_get(results_analysis_device(c->run, c->device), "phases");
	const json_t *v;
	size_t i, used = 0;

	buf[0] = '\0';
	json_array_foreach(list, i, v)
	{
		const char *name = json_string_value(json_object_get(v, "phase"));
		if (name && seen_before(list, i, name))
			continue;
		int n = snprintf(buf + used, len - used, "%s%s", used ? " \xc2\xb7 " : "",
				 name ? name : REPORT_MISSING);
		if (n >= 0 && (size_t)n < len - used)
			n += phase_verdicts(buf + used + (size_t)n, len - used - (size_t)n, list, i,
					    name ? name : "");
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
	if (!used)
		report_missing(buf, len);
}

/* AWS's design target (analysis.devices[].design_target): "met: 99.8 % of
 * 599 s at 2,700 IOPS or more (99 % needed)", "too short to judge: 5 s of
 * the 100 needed", "not judged: still loading". */
static void design_target_cell(char *buf, size_t len, const struct summary_cell_ctx *c)
{
	const json_t *t =
		json_object_get(results_analysis_device(c->run, c->device), "design_target");
	const char *verdict = json_string_value(json_object_get(t, "verdict"));
	double seconds = results_num(json_object_get(t, "seconds"));
	double of_time = results_num(json_object_get(t, "of_time"));
	char level[REPORT_NUM_LEN];

	if (!verdict || !isfinite(seconds) || !isfinite(of_time)) {
		report_missing(buf, len);
		return;
	}
	report_count(level, sizeof(level), results_num(json_object_get(t, "level")));
	if (!strcmp(verdict, "too short to judge"))
		snprintf(buf, len, "too short to judge: %.0f s of the %.0f needed", seconds,
			 ceil(1 / (1 - of_time) - 1e-9));
	else if (!isfinite(results_num(json_object_get(t, "share"))))
		snprintf(buf, len, "%s", verdict); /* no second judged: the verdict says why */
	else
		snprintf(buf, len, "%s: %.1f %% of %.0f s at %s %s or more (%g %% needed)", verdict,
			 100 * results_num(json_object_get(t, "share")), seconds, level,
			 json_string_value(json_object_get(t, "unit")), 100 * of_time);
}

const struct summary_row summary_cells_tldr_rows[] = {
	{ "Random read IOPS", "randread", rr_iops_cell },
	{ "Random read p99 latency", "randread", rr_p99_cell },
	{ "Random write IOPS", "randwrite", rw_iops_cell },
	{ "Random read latency", "lat", qd1_cell },
	{ "Sequential read / write", "seqread", seq_cell },
	{ "Monthly cost", NULL, summary_cells_monthly },
	{ "Verdict per phase", NULL, verdicts_cell },
	{ "AWS design target (90 % of provisioned)", NULL, design_target_cell },
};
const size_t summary_cells_tldr_count = ARRAY_SIZE(summary_cells_tldr_rows);

const struct summary_row summary_cells_phase_rows[] = {
	{ "IOPS (whole phase)", NULL, iops_cell },
	{ "IOPS per window, mean (first excluded)", NULL, series_mean_cell },
	{ "IOPS per window, min / max", NULL, series_range_cell },
	{ "Throughput", NULL, throughput_cell },
	{ "Mean latency", NULL, mean_lat_cell },
	{ "Latency p50 / p95 / p99", NULL, percentiles_cell },
	{ "EBS: throttled by", NULL, ebs_cell },
	{ "Little's law", NULL, little_cell },
	{ "Kernel / engine I/Os", NULL, disk_check_cell },
	{ "Predicted", NULL, predicted_cell },
	{ "Verdict", NULL, verdict_cell },
	{ "Steady state", NULL, steady_cell },
};
const size_t summary_cells_phase_count = ARRAY_SIZE(summary_cells_phase_rows);
