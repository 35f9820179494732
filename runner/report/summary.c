/* summary.c - summary.md's sections, laid out as the reference benchmark's
 * write-up: TL;DR, one measurement table per phase, the cliff, findings,
 * cost.  The tables are summary_table.c's (a fleet report is the same TL;DR
 * with more columns); every text from a device, a config or the analysis
 * goes through md_table.c's escaping. */
#include "report/summary.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "lib/lib.h"
#include "report/md_table.h"
#include "report/report_format.h"
#include "report/report_charts.h"
#include "report/summary_cells.h"
#include "report/summary_loadcurve.h"
#include "report/summary_sweep.h"
#include "report/summary_table.h"
#include "report/summary_tldr.h"
#include "run/run.h"

#define DOT " \xc2\xb7 " /* U+00B7 middle dot */

/* A run continued by `run --resume` (results.json's "resumes"): one
 * sentence per gap, stating it and what it did to the ledger. */
static void write_resumes(FILE *out, const json_t *run, bool fleet)
{
	size_t i;
	const json_t *r;
	json_array_foreach(json_object_get(run, "resumes"), i, r)
	{
		double gap = results_num(json_object_get(r, "gap_s"));
		const json_t *cut = json_object_get(r, "cut");
		if (fleet) {
			fprintf(out, DOT "**resumed after %.1f s**", gap);
			continue;
		}
		fprintf(out, "> **Resumed.** The run stopped with %.0f of %.0f steps done",
			results_num(json_object_get(r, "steps_done")),
			results_num(json_object_get(r, "steps")));
		const char *phase = json_string_value(json_object_get(cut, "phase"));
		const char *device = json_string_value(json_object_get(cut, "device"));
		if (phase && device) {
			fputs(" (", out);
			md_text(out, phase);
			fputs(" on ", out);
			md_text(out, device);
			fputs(" was cut and ran again whole)", out);
		}
		/* The ledger never saw the cut step's I/O: say so rather than
		 * let its balance pass for the whole truth. */
		fprintf(out,
			" and resumed %.1f s later; each device's idle time before its next phase "
			"includes the gap, over which a gp2's credit ledger refills%s.\n\n",
			gap,
			phase && device ? " (not counting what the cut step spent before the stop)"
					: "");
	}
}

/* The first device whose NVMe model is not EBS's (an emulator's, another
 * drive's), or NULL: then the instance line holds what the host said, not
 * an EC2 instance's facts. */
static const char *emulated_model(const json_t *run)
{
	size_t i;
	const json_t *d;
	json_array_foreach(json_object_get(run, RESULTS_KEY_DEVICES), i, d)
	{
		const char *model = json_string_value(json_object_get(d, "model"));
		if (model && strcmp(model, "Amazon Elastic Block Store"))
			return model;
	}
	return NULL;
}

/* Seconds in the report are the run's; say so when the plan shrank them.
 * A fleet lists runs one a line, so there the notes are short and inline. */
static void write_run_notes(FILE *out, const json_t *run, bool fleet)
{
	const char *model = emulated_model(run);
	if (model && fleet) {
		fputs(DOT "**devices: ", out);
		md_text(out, model);
		fputs(", not EBS**", out);
	} else if (model && !strncmp(model, "QEMU", 4)) {
		fputs("> **Emulated.** The devices are ", out);
		md_text(out, model);
		fputs(" drives under QEMU, not Amazon EBS volumes: the instance above is what the "
		      "emulated host's metadata said, and the limits met are QEMU's throttles "
		      "standing "
		      "in for the volume types named.\n\n",
		      out);
	} else if (model) {
		fputs("> **Not EBS.** The devices are ", out);
		md_text(out, model);
		fputs(" drives, not Amazon EBS volumes: the limits met are theirs, and the "
		      "predictions are for the volume types the config names.\n\n",
		      out);
	}
	double scale = results_num(RESULTS_GET(run, RESULTS_KEY_PLAN, "time_scale"));
	bool stopped = json_is_true(RESULTS_GET(run, RESULTS_KEY_ENVIRONMENT, "stopped_early"));

	if (fleet && isfinite(scale) && scale != 1.0)
		fprintf(out, DOT "**time scale %g: durations scaled**", scale);
	else if (isfinite(scale) && scale != 1.0)
		fprintf(out,
			"> **Time scale %g.** Every phase ran for %g\xc3\x97 its planned duration, "
			"so all durations and seconds in this report (cliff included) are scaled; "
			"IOPS, latency and throughput are not.\n\n",
			scale, scale);
	if (stopped)
		fputs(fleet ? DOT "**stopped early**"
			    : "> **Stopped early.** Only the phases that finished are "
			      "reported.\n\n",
		      out);
	write_resumes(out, run, fleet);
}

static void write_environment(FILE *out, const json_t *run, bool fleet)
{
	const char *version = json_string_value(RESULTS_GET(run, RESULTS_KEY_EBSBENCH, "version"));
	const char *region = json_string_value(RESULTS_GET(run, RESULTS_KEY_PLAN, "region"));

	fputs("Instance **", out);
	md_text(out, summary_table_env(run, "instance_type"));
	fputs("** (", out);
	md_text(out, summary_table_env(run, "instance_id"));
	fputs(")" DOT "kernel ", out);
	md_text(out, summary_table_env(run, "kernel"));
	fputs(DOT "ebsbench ", out);
	md_text(out, version ? version : REPORT_MISSING);
	fputs(DOT "region ", out);
	md_text(out, region ? region : REPORT_MISSING);
	fputs(DOT "started ", out);
	md_text(out, summary_table_env(run, "started"));
	if (fleet) {
		write_run_notes(out, run, true);
		fputc('\n', out);
		return;
	}
	fputs("\n\n", out);
	write_run_notes(out, run, false);
}

static const char *phase_title(const char *phase)
{
	static const char *const titles[][2] = {
		{ "layout", "Layout: writing the test region" },
		{ "randread", "Random read: the credit cliff" },
		{ "randwrite", "Random write" },
		{ "lat", "Latency at queue depth 1" },
		{ "seqread", "Sequential read" },
		{ "seqwrite", "Sequential write" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(titles); i++) {
		if (!strcmp(titles[i][0], phase))
			return titles[i][1];
	}
	return phase;
}

static const char *plateau_span(char *buf, size_t len, const json_t *plateau)
{
	char a[REPORT_NUM_LEN], b[REPORT_NUM_LEN];

	snprintf(buf, len, "%s\xe2\x80\x93%s s",
		 report_count(a, sizeof(a), results_num(json_object_get(plateau, "from_s"))),
		 report_count(b, sizeof(b), results_num(json_object_get(plateau, "to_s"))));
	return buf;
}

/* The levels either side of the cliff (MiB/s on st1/sc1), each's latency by Little's law. */
static void write_cliff(FILE *out, const json_t *run, const char *device, const json_t *cliff,
			const char *phase)
{
	const json_t *side[2] = { json_object_get(cliff, "before"),
				  json_object_get(cliff, "after") };
	const char *unit = strcmp(phase, "randread") ? "MiB/s" : "IOPS";
	double qd = results_num(json_object_get(results_phase(run, phase, device), "iodepth"));
	const char *verdict = json_string_value(json_object_get(cliff, "verdict"));
	char a[REPORT_NUM_LEN], b[REPORT_NUM_LEN];

	fputs("\n### ", out);
	md_text(out, device);
	fprintf(out, ": %s at %s s\n\n| | Before the cliff | After the cliff |\n",
		results_str_is(json_object_get(cliff, "kind"), "instance")
			? "the instance's EBS burst ended"
			: "credit cliff",
		report_count(a, sizeof(a), results_num(json_object_get(cliff, "second"))));
	md_table_rule(out, 3);
	fprintf(out, "| Time | %s |", plateau_span(a, sizeof(a), side[0]));
	fprintf(out, " %s |\n| Mean %s |", plateau_span(a, sizeof(a), side[1]), unit);
	for (int s = 0; s < 2; s++)
		fprintf(out, " %s |",
			report_count(a, sizeof(a), results_num(json_object_get(side[s], "mean"))));
	fprintf(out, "\n| Min / max %s |", unit);
	for (int s = 0; s < 2; s++)
		fprintf(out, " %s / %s |",
			report_count(a, sizeof(a), results_num(json_object_get(side[s], "min"))),
			report_count(b, sizeof(b), results_num(json_object_get(side[s], "max"))));
	fprintf(out, "\n| Mean latency by Little's law (qd%.0f) |", qd);
	for (int s = 0; s < 2; s++) {
		double iops = results_num(json_object_get(side[s], "mean"));
		fprintf(out, " %s |", report_ms(a, sizeof(a), little_latency_s(qd, iops) * 1e9));
	}
	fprintf(out, "\n\nThe drop took %s s; the model predicted the cliff at %s s",
		report_count(a, sizeof(a), results_num(json_object_get(cliff, "transition_s"))),
		report_count(b, sizeof(b),
			     results_num(json_object_get(cliff, "predicted_second"))));
	fputs(verdict ? " (" : ".\n", out);
	if (verdict) {
		md_text(out, verdict);
		fputs(").\n", out);
	}
}

static void write_phase_section(FILE *out, const struct results_column *cols, size_t ncols,
				const char *phase)
{
	struct results_column *ran = calloc(ncols ? ncols : 1, sizeof(*ran));
	char shape[SUMMARY_CELL_LEN];
	size_t i, n = 0;

	if (!ran)
		return;
	for (i = 0; i < ncols; i++) {
		if (results_phase(cols[i].run, phase, results_label(cols[i].device)))
			ran[n++] = cols[i];
	}
	summary_table_phase_shape(shape, sizeof(shape), ran, n, phase);
	fprintf(out, "## %s", phase_title(phase));
	fprintf(out, " \xe2\x80\x94 %s%s\n\n", phase, shape);
	summary_table_header(out, "", ran, n, false);
	summary_table_rows(out, summary_cells_phase_rows, summary_cells_phase_count, ran, n, phase);
	for (i = 0; i < n; i++) {
		const char *label = results_label(ran[i].device);
		if (strcmp(phase, analysis_cliff_phase(results_device(ran[i].run, label))))
			continue;
		const json_t *cliff = results_cliff_found(ran[i].run, label);
		const char *predicted = summary_predicted_cliff(ran[i].run, label);
		if (cliff)
			write_cliff(out, ran[i].run, label, cliff, phase);
		else if (predicted)
			summary_predicted_cliff_write(out, predicted);
	}
	fputc('\n', out);
	free(ran);
}

static bool named_before(const json_t *phases, size_t upto, const char *name)
{
	for (size_t i = 0; i < upto; i++) {
		if (results_str_is(json_object_get(json_array_get(phases, i), "phase"), name))
			return true;
	}
	return false;
}

/* One section per phase name, in the order the phases first ran. */
static void write_phase_sections(FILE *out, const json_t *run, const struct results_columns *c)
{
	const json_t *phases = json_object_get(run, RESULTS_KEY_PHASES), *p;
	size_t i;

	json_array_foreach(phases, i, p)
	{
		const char *name = json_string_value(json_object_get(p, "phase"));
		if (name && !named_before(phases, i, name) && !strcmp(name, RESULTS_PHASE_SWEEP))
			summary_sweep_write(out, c);
		else if (name && !named_before(phases, i, name) &&
			 !strcmp(name, RESULTS_PHASE_LOADCURVE))
			summary_loadcurve_section(out, c);
		else if (name && !named_before(phases, i, name))
			write_phase_section(out, c->col, c->count, name);
	}
}

static void write_findings(FILE *out, const json_t *run)
{
	const json_t *findings = RESULTS_GET(run, RESULTS_KEY_ANALYSIS, "findings"), *f;
	size_t i;

	if (!json_array_size(findings)) {
		fputs("- " REPORT_MISSING " (no analysis in this results.json)\n", out);
		return;
	}
	json_array_foreach(findings, i, f)
	{
		const char *sentence = json_string_value(f);
		fputs("- ", out);
		md_text(out, sentence ? sentence : REPORT_MISSING);
		fputc('\n', out);
	}
	size_t more = json_array_size(RESULTS_GET(run, RESULTS_KEY_ANALYSIS, "details"));
	if (more > json_array_size(findings))
		fprintf(out,
			"\nThe findings that decide, ranked; all %zu sentences (each phase's own "
			"among them) are in results.json's `analysis.details`.\n",
			more);
}

static void write_cost(FILE *out, const struct results_columns *c)
{
	const json_t *prices = json_object_get(c->count ? c->col[0].run : NULL, RESULTS_KEY_PRICES);
	const char *region = json_string_value(json_object_get(prices, "region"));
	const char *date = json_string_value(json_object_get(prices, "date"));
	char title[SUMMARY_CELL_LEN], a[REPORT_NUM_LEN], b[REPORT_NUM_LEN];

	static const char *const head[] = { "Volume", "Monthly cost", "Per 3,000 sustained IOPS" };
	fputs("## Cost\n\n", out);
	md_table_head(out, head, ARRAY_SIZE(head));
	for (size_t i = 0; i < c->count; i++) {
		const char *label = results_label(c->col[i].device);
		struct summary_cell_ctx ctx = { c->col[i].run, label, NULL };
		summary_cells_monthly(a, sizeof(a), &ctx);
		summary_cells_per_3000(b, sizeof(b), &ctx);
		fputs("| ", out);
		if (c->nruns > 1)
			fprintf(out, "run %zu: ", c->col[i].run_index);
		md_text(out, report_device_title(title, sizeof(title), c->col[i].device));
		fprintf(out, " | %s | %s |\n", a, b);
	}
	fputs("\nPrices: ", out);
	md_text(out, region ? region : REPORT_MISSING);
	fputs(", as of ", out);
	md_text(out, date ? date : REPORT_MISSING);
	fputs(".\n\n", out);
}

/* Tenths matter for short spans only: 0.5 s, but 2,700 s. */
static const char *seconds_text(char *buf, size_t len, double seconds)
{
	char n[REPORT_NUM_LEN];

	if (!isfinite(seconds))
		report_missing(buf, len);
	else if (seconds < 100)
		snprintf(buf, len, "%.1f s", seconds);
	else
		snprintf(buf, len, "%s s", report_count(n, sizeof(n), seconds));
	return buf;
}

static void write_phase_row(FILE *out, size_t index, const json_t *p)
{
	const char *fields[] = { "phase", "device", "rw" };
	double idle = results_num(json_object_get(p, "idle_before_s"));
	double ran = (results_num(json_object_get(p, "ended_ms")) -
		      results_num(json_object_get(p, "started_ms"))) /
		     1e3;
	const json_t *dir = results_direction(p);
	char a[REPORT_NUM_LEN], b[REPORT_NUM_LEN];

	fprintf(out, "| %zu |", index);
	for (size_t f = 0; f < ARRAY_SIZE(fields); f++) {
		const char *s = json_string_value(json_object_get(p, fields[f]));
		fputc(' ', out);
		md_text(out, s ? s : REPORT_MISSING);
		fputs(" |", out);
	}
	fprintf(out, " %s | %s |", report_size(a, sizeof(a), results_num(json_object_get(p, "bs"))),
		report_count(b, sizeof(b), results_num(json_object_get(p, "iodepth"))));
	fprintf(out, " %s | %s |", seconds_text(a, sizeof(a), ran),
		seconds_text(b, sizeof(b), idle));
	fprintf(out, " %s | %s |\n",
		report_count(a, sizeof(a), results_num(json_object_get(dir, "iops"))),
		report_mibs(b, sizeof(b), results_num(json_object_get(dir, "bw_bytes"))));
}

/* The charts report_render writes beside summary.md, by their artifact
 * names, so a renamed chart cannot leave a broken link; the heatmap only
 * when some run had a phase it draws. */
static void write_chart_links(FILE *out, bool heatmap)
{
	fprintf(out, "\n![IOPS timeline](%s)\n\n![Latency percentiles](%s)\n\n",
		artifacts_name(ARTIFACT_IOPS_SVG), artifacts_name(ARTIFACT_LATENCY_SVG));
	if (heatmap)
		fprintf(out, "![Latency heatmap](%s)\n\n", artifacts_name(ARTIFACT_HEATMAP_SVG));
	fprintf(out, "Which volume to buy for this: [%s](%s).\n\n",
		artifacts_name(ARTIFACT_RECOMMEND), artifacts_name(ARTIFACT_RECOMMEND));
}

/* Every phase in the order it ran, with the idle gap that refilled credits. */
static void write_phase_list(FILE *out, const json_t *run)
{
	const json_t *p;
	size_t i;

	static const char *const head[] = { "#",  "Phase", "Device",	  "rw",	  "bs",
					    "qd", "Ran",   "Idle before", "IOPS", "Throughput" };
	fputs("## Phases in the order they ran\n\n", out);
	md_table_head(out, head, ARRAY_SIZE(head));
	json_array_foreach(json_object_get(run, RESULTS_KEY_PHASES), i, p)
	{
		write_phase_row(out, i + 1, p);
	}
	fputc('\n', out);
}

static void write_single(FILE *out, const json_t *run, const struct results_columns *c)
{
	char title[SUMMARY_CELL_LEN];

	fputs("# EBS benchmark:", out);
	for (size_t i = 0; i < c->count; i++) {
		fputs(i ? ", " : " ", out);
		md_text(out, report_device_title(title, sizeof(title), c->col[i].device));
	}
	fputs(c->count ? "\n\n" : " no devices recorded\n\n", out);
	write_environment(out, run, false);
	fputs("## TL;DR\n\n", out);
	summary_tldr_write(out, c);
	write_chart_links(out, report_run_draws(run, ARTIFACT_HEATMAP_SVG));
	write_phase_sections(out, run, c);
	fputs("## Findings\n\n", out);
	write_findings(out, run);
	fputc('\n', out);
	write_cost(out, c);
	write_phase_list(out, run);
}

/* A fleet: the runs side by side, then what each run found. */
static void write_fleet(FILE *out, json_t *const *runs, size_t nruns,
			const struct results_columns *c)
{
	size_t r;

	fprintf(out, "# EBS benchmark: %zu runs\n\n", nruns);
	for (r = 0; r < nruns; r++) {
		fprintf(out, "- Run %zu: ", r + 1);
		write_environment(out, runs[r], true);
	}
	fputs("\n## TL;DR\n\n", out);
	summary_tldr_write(out, c);
	bool heatmap = false;
	for (r = 0; r < nruns; r++)
		heatmap = heatmap || report_run_draws(runs[r], ARTIFACT_HEATMAP_SVG);
	write_chart_links(out, heatmap);
	write_cost(out, c);
	for (r = 0; r < nruns; r++) {
		fprintf(out, "## Run %zu findings\n\n", r + 1);
		write_findings(out, runs[r]);
		fputc('\n', out);
	}
}

int summary_write(FILE *out, json_t *const *runs, size_t nruns)
{
	struct results_columns c;
	int rc = results_columns_build(&c, runs, nruns);

	if (!rc && nruns == 1)
		write_single(out, runs[0], &c);
	else if (!rc)
		write_fleet(out, runs, nruns, &c);
	results_columns_free(&c);
	return rc || fflush(out) || ferror(out) ? -1 : 0;
}

int summary_write_tldr(FILE *out, json_t *const *runs, size_t nruns)
{
	struct results_columns c;
	int rc = results_columns_build(&c, runs, nruns);

	if (!rc)
		summary_tldr_write(out, &c);
	results_columns_free(&c);
	return rc || fflush(out) || ferror(out) ? -1 : 0;
}
