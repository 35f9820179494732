/* fuzz_results_json.c - `ebsbench report`'s reading of results.json: the
 * schema check, the analysis re-run on it, then summary.md, the console
 * TL;DR, the SVG charts (the heatmap's compact histograms included),
 * recommend.md and report.html, for one run and for a fleet of two; then
 * compare (the run against itself) and the fleet view of two. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/analysis.h"
#include "model/model.h"
#include "input.h"
#include "results/results.h"
#include "results/internal.h"
#include "report/compare.h"
#include "report/fleet.h"
#include "report/recommend_md.h"
#include "report/report_html.h"
#include "report/summary.h"
#include "report/svg.h"
#include "report/svg_fleet.h"
#include "report/svg_loadcurve.h"

/* Every renderer `report` and `run` use, into out. */
static void render(FILE *out, json_t *const *runs, size_t nruns)
{
	(void)summary_write(out, runs, nruns);
	(void)summary_write_tldr(out, runs, nruns);
	(void)svg_iops_timeline(out, runs, nruns);
	(void)svg_latency_percentiles(out, runs, nruns);
	(void)recommend_md_write(out, runs, nruns);
	(void)svg_latency_heatmap(out, runs, nruns);
	(void)svg_loadcurve(out, runs, nruns);
	(void)report_html_write(out, runs, nruns);
}

/* compare and the fleet view of the analysed runs, each of their writers. */
static void render_two(FILE *out, json_t *const *runs)
{
	static const char *const dirs[2] = { "a", "b" };
	json_t *doc = compare_build(runs[0], runs[1], dirs[0], dirs[1]);
	struct fleet f;
	char err[256];

	if (doc) {
		(void)compare_md_write(out, doc);
		(void)compare_html_page(out, doc);
		json_decref(doc);
	}
	if (fleet_build(&f, runs, dirs, 2, err, sizeof(err)) == 0) {
		(void)fleet_md_write(out, &f);
		(void)fleet_json_write(out, &f);
		(void)svg_fleet(out, &f);
		(void)fleet_html_page(out, &f);
		fleet_free(&f);
	}
}

/* One input: a results.json document. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_error_t jerr;
	json_t *root = json_loadb((const char *)data, size, JSON_DECODE_ANY, &jerr);
	struct ebs_prices prices = ebs_prices_default();
	FILE *out;

	if (!root)
		return 0;
	if (!results_schema_ok(root)) {
		json_decref(root);
		return 0;
	}
	out = fopen("/dev/null", "w");
	if (!out)
		abort();
	json_t *runs[2] = { root, root };
	render(out, runs, 1);
	render(out, runs, 2);
	analysis_build(root, &prices);
	render(out, runs, 1);
	render_two(out, runs);
	fclose(out);
	json_decref(root);
	return 0;
}
