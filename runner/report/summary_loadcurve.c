/* summary_loadcurve.c - summary.md's section on the loadcurve phase: what
 * latency each offered load got, and where the knee is. */
#include "report/summary_loadcurve.h"

#include <math.h>

#include "analysis/analysis.h"
#include "lib/lib.h"
#include "report/md_table.h"
#include "report/report_format.h"
#include "run/run.h"

/* One step's row; the knee's load in bold. */
static void step_row(FILE *out, const json_t *st, double knee_percent)
{
	static const char *const pct[] = { "p50_ms", "p95_ms", "p99_ms", "p99_9_ms" };
	double percent = results_num(json_object_get(st, "percent"));
	bool knee = percent == knee_percent, burst = json_is_true(json_object_get(st, "on_burst"));
	bool above = json_is_true(json_object_get(st, "above_limit"));
	char a[REPORT_NUM_LEN], b[REPORT_NUM_LEN];
	fprintf(out, "| %s%.0f %%%s | %s | %s | %s |", knee ? "**" : "", percent,
		knee ? " (knee)**" : "",
		report_count(a, sizeof(a), results_num(json_object_get(st, "offered_iops"))),
		report_count(b, sizeof(b), results_num(json_object_get(st, "measured_iops"))),
		burst					    ? "on burst"
		: above					    ? "above its limit"
		: json_is_true(json_object_get(st, "held")) ? "yes"
							    : "no");
	for (size_t k = 0; k < ARRAY_SIZE(pct); k++)
		fprintf(out, " %s |",
			report_ms(a, sizeof(a), results_num(json_object_get(st, pct[k])) * 1e6));
	fputc('\n', out);
}

/* One column's part: heading, sentence, table. */
static void device_part(FILE *out, const struct results_column *col, bool fleet)
{
	const char *label = results_label(col->device);
	const json_t *lc = json_object_get(results_analysis_device(col->run, label), "loadcurve");
	const json_t *steps = json_object_get(lc, "steps"), *st;
	double knee = results_num(RESULTS_GET(lc, "knee", "percent"));
	char title[256];
	size_t i;
	if (!json_array_size(steps))
		return;
	static const char *const head[] = { "Load", "Offered IOPS", "Measured IOPS", "Held",
					    "p50",  "p95",	    "p99",	     "p99.9" };
	fputs("### ", out);
	if (fleet)
		fprintf(out, "run %zu: ", col->run_index);
	md_text(out, report_device_title(title, sizeof(title), col->device));
	fputs("\n\n", out);
	md_text(out, json_string_value(json_object_get(lc, "sentence")));
	fputs("\n\n", out);
	md_table_head(out, head, ARRAY_SIZE(head));
	json_array_foreach(steps, i, st) step_row(out, st, knee);
	fputc('\n', out);
}

void summary_loadcurve_section(FILE *out, const struct results_columns *c)
{
	fprintf(out,
		"## Latency against offered load \xe2\x80\x94 loadcurve (4k random read, poisson "
		"arrivals)\n\n"
		"Latency counts from each I/O's scheduled issue time, as an application offering "
		"that load sees it. The knee: the lowest load whose p99 passes %g\xc3\x97 the "
		"lowest load's. \"Held\": measured at least %.0f %% of the offered rate.\n\n",
		LOADCURVE_KNEE_FACTOR, LOADCURVE_HELD_SHARE * 100);
	for (size_t i = 0; i < c->count; i++)
		device_part(out, &c->col[i], c->nruns > 1);
	fprintf(out, "![Latency against offered load](%s)\n\n", artifacts_name(ARTIFACT_LOAD_SVG));
}
