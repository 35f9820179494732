/* compare_cells.c - the words and numbers of `ebsbench compare`'s tables
 * and sentences, shared by compare.md and report.html's section, in the
 * report's number formats (report_format.h). */
#include "lib/lib.h"
#include "report/compare.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "report/report_format.h"
#include "results/results.h"

#define EN_DASH "\xe2\x80\x93"

/* A value in the metric's unit: "3,001", "127.3 MiB/s", "1.65 ms". */
static const char *unit_text(char *buf, size_t len, const char *unit, double v)
{
	if (!strcmp(unit, "ns"))
		return report_ms(buf, len, v);
	if (!strcmp(unit, "bytes/s"))
		return report_mibs(buf, len, v);
	return report_count(buf, len, v);
}

/* A formatted value without its unit ("1.65 ms" -> "1.65"): the bounds
 * after the estimate, which names it. */
static const char *bare(char *text)
{
	char *space = strchr(text, ' ');

	if (space)
		*space = '\0';
	return text;
}

const char *compare_cell_value(char *buf, size_t len, const json_t *metric, const char *side)
{
	const char *unit = json_string_value(json_object_get(metric, "unit"));
	const json_t *iv = json_object_get(metric, side);
	char est[REPORT_NUM_LEN], low[REPORT_NUM_LEN], high[REPORT_NUM_LEN];
	double lo = results_num(json_object_get(iv, "low"));

	unit = unit ? unit : "IOPS";
	unit_text(est, sizeof(est), unit, results_num(json_object_get(iv, "estimate")));
	if (!isfinite(lo)) {
		snprintf(buf, len, "%s", est);
		return buf;
	}
	/* report_ms has no negative values: a low bound under 0 is 0. */
	unit_text(low, sizeof(low), unit, fmax(0, lo));
	unit_text(high, sizeof(high), unit, results_num(json_object_get(iv, "high")));
	snprintf(buf, len, "%s (%s " EN_DASH " %s)", est, bare(low), bare(high));
	return buf;
}

const char *compare_cell_change(char *buf, size_t len, const json_t *metric)
{
	const char *unit = json_string_value(json_object_get(metric, "unit"));
	double change = results_num(json_object_get(metric, "change"));
	double pct = results_num(json_object_get(metric, "change_percent"));
	char size[REPORT_NUM_LEN];

	if (!isfinite(change))
		return report_missing(buf, len);
	unit = unit ? unit : "IOPS";
	unit_text(size, sizeof(size), unit, fabs(change));
	if (isfinite(pct))
		snprintf(buf, len, "%s%s%s (%+.1f %%)", change < 0 ? "-" : "+", size,
			 strcmp(unit, "IOPS") ? "" : " IOPS", pct);
	else
		snprintf(buf, len, "%s%s%s", change < 0 ? "-" : "+", size,
			 strcmp(unit, "IOPS") ? "" : " IOPS");
	return buf;
}

const char *compare_cell_metric(const json_t *metric)
{
	const char *m = json_string_value(json_object_get(metric, "metric"));

	if (!m)
		return REPORT_MISSING;
	if (results_str_is(json_object_get(metric, "latency"), "scheduled"))
		return !strcmp(m, "p50") ? "p50 from scheduled issue" : "p99 from scheduled issue";
	return !strcmp(m, "iops") ? "IOPS" : m;
}

const char *compare_cell_phase(char *buf, size_t len, const json_t *row)
{
	const char *phase = json_string_value(json_object_get(row, "phase"));
	const char *step = json_string_value(json_object_get(row, "step"));
	const char *level = json_string_value(json_object_get(row, "level"));
	bool whole = !level || !strcmp(level, "whole");

	snprintf(buf, len, "%s%s%s%s%s%s", phase ? phase : "?", step ? " " : "", step ? step : "",
		 whole ? "" : " (", whole ? "" : level, whole ? "" : ")");
	return buf;
}

/* Seconds to as many decimals as the resolution has: 0.01 s -> "19.99 s". */
static const char *seconds(char *buf, size_t len, double s, double resolution)
{
	int decimals = resolution > 0 && resolution < 1 ? (int)ceil(-log10(resolution) - 1e-9) : 0;

	snprintf(buf, len, "%.*f s", decimals, s);
	return buf;
}

const char *compare_cliff_sentence(char *buf, size_t len, const json_t *cliff)
{
	const char *dev = json_string_value(json_object_get(cliff, "device"));
	const char *verdict = json_string_value(json_object_get(cliff, "verdict"));
	double res = results_num(json_object_get(cliff, "resolution_s"));
	double a = results_num(json_object_get(cliff, "a_s"));
	double b = results_num(json_object_get(cliff, "b_s"));
	char ta[REPORT_NUM_LEN], tb[REPORT_NUM_LEN], tc[REPORT_NUM_LEN], tr[REPORT_NUM_LEN];

	dev = dev ? dev : "?";
	seconds(ta, sizeof(ta), a, res);
	seconds(tb, sizeof(tb), b, res);
	seconds(tc, sizeof(tc), fabs(b - a), res);
	seconds(tr, sizeof(tr), res, res);
	if (!isfinite(a) || !isfinite(b))
		snprintf(buf, len, "%s: a cliff at %s in %s, none in %s.", dev,
			 isfinite(a) ? ta : tb, isfinite(a) ? "A" : "B", isfinite(a) ? "B" : "A");
	else if (results_str_is(json_object_get(cliff, "verdict"), "not significant"))
		snprintf(buf, len,
			 "%s: the cliff came at %s in A and %s in B, %s apart: within the "
			 "resolution of one window (%s), not significant.",
			 dev, ta, tb, tc, tr);
	else
		snprintf(buf, len,
			 "%s: the cliff came at %s in A and %s in B: %s %s in B, more than the "
			 "resolution of one window (%s).",
			 dev, ta, tb, tc, verdict ? verdict : "?", tr);
	return buf;
}

const char *compare_run_fact(const json_t *doc, const char *side, const char *key)
{
	const json_t *of = side ? json_object_get(doc, side) : doc;
	const char *v = json_string_value(json_object_get(of, key));
	return v ? v : REPORT_MISSING;
}

/* The runs side by side: name, start, instance type, ebsbench version. */
static void runs_table(FILE *out, const json_t *doc, const struct compare_format *fmt)
{
	static const char *const keys[] = { "name", "started", "instance_type", "version" };
	static const char *const names[] = { "results", "started", "instance type", "ebsbench" };
	const char *head[] = { "", "A", "B" };

	fmt->row(out, head, 3, true);
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		const char *cells[] = { names[i], compare_run_fact(doc, "a", keys[i]),
					compare_run_fact(doc, "b", keys[i]) };
		fmt->row(out, cells, 3, false);
	}
	fmt->table_end(out);
}

/* Every sentence of a list of strings, or `none` when it is empty. */
static void sentences(FILE *out, const json_t *list, const char *none,
		      const struct compare_format *fmt)
{
	const json_t *s;
	size_t i;

	if (!json_array_size(list)) {
		fmt->paragraph(out, none);
		return;
	}
	json_array_foreach(list, i, s) fmt->item(out, json_string_value(s), i == 0);
	fmt->list_end(out);
}

/* A sentence per device whose cliff either run found. */
static void cliffs_list(FILE *out, const json_t *doc, const struct compare_format *fmt)
{
	const json_t *c;
	size_t i;
	char line[512];

	if (!json_array_size(json_object_get(doc, "cliffs"))) {
		fmt->paragraph(out, "Neither run had a cliff.");
		return;
	}
	json_array_foreach(json_object_get(doc, "cliffs"), i, c)
		fmt->item(out, compare_cliff_sentence(line, sizeof(line), c), i == 0);
	fmt->list_end(out);
}

/* A row per metric of every level of every matched phase. */
static void phases_table(FILE *out, const json_t *doc, const struct compare_format *fmt)
{
	const char *head[] = { "Device", "Phase", "Metric", "A", "B", "Change", "Verdict" };
	const json_t *row, *m;
	size_t i, j;

	if (!json_array_size(json_object_get(doc, "phases"))) {
		fmt->paragraph(out, "No phase ran in both runs.");
		return;
	}
	fmt->row(out, head, 7, true);
	json_array_foreach(json_object_get(doc, "phases"), i, row)
	{
		char phase[128], a[160], b[160], change[96];
		compare_cell_phase(phase, sizeof(phase), row);
		json_array_foreach(json_object_get(row, "metrics"), j, m)
		{
			const char *verdict = json_string_value(json_object_get(m, "verdict"));
			const char *cells[] = { compare_run_fact(row, NULL, "device"),
						phase,
						compare_cell_metric(m),
						compare_cell_value(a, sizeof(a), m, "a"),
						compare_cell_value(b, sizeof(b), m, "b"),
						compare_cell_change(change, sizeof(change), m),
						verdict ? verdict : REPORT_MISSING };
			fmt->row(out, cells, 7, false);
		}
	}
	fmt->table_end(out);
}

void compare_layout(FILE *out, const json_t *doc, const struct compare_format *fmt)
{
	runs_table(out, doc, fmt);
	fmt->heading(out, "Warnings");
	sentences(out, json_object_get(doc, "warnings"),
		  "None: the runs agree on every fact compared (instance type, engine, ebsbench "
		  "version, time scale, plan, volumes, credit state at the start).",
		  fmt);
	fmt->heading(out, "Cliff");
	cliffs_list(out, doc, fmt);
	fmt->heading(out, "Phases");
	phases_table(out, doc, fmt);
	fmt->paragraph(out, json_string_value(json_object_get(doc, "method")));
}
