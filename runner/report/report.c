/* report.c - render the report's artifacts through one function per file. */
#include "report/report.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "lib/lib.h"
#include "report/recommend_md.h"
#include "report/report_html.h"
#include "report/summary.h"
#include "report/svg.h"
#include "report/svg_loadcurve.h"
#include "report/svg_sweep.h"
#include "results/results.h"
#include "run/run.h"

/* Each report artifact and what renders it; the names are artifacts'. */
static const struct {
	enum artifact file;
	report_render_fn *render;
} renderers[ARTIFACT_REPORT_COUNT] = {
	{ ARTIFACT_SUMMARY, summary_write },
	{ ARTIFACT_IOPS_SVG, svg_iops_timeline },
	{ ARTIFACT_LATENCY_SVG, svg_latency_percentiles },
	{ ARTIFACT_HEATMAP_SVG, svg_latency_heatmap },
	{ ARTIFACT_LOAD_SVG, svg_loadcurve },
	{ ARTIFACT_RECOMMEND, recommend_md_write },
	{ ARTIFACT_SWEEP_SVG, svg_throughput_vs_block_size },
	{ ARTIFACT_HTML, report_html_write },
};

report_render_fn *report_renderer(const char *name)
{
	for (size_t i = 0; name && i < ARTIFACT_REPORT_COUNT; i++) {
		if (!strcmp(artifacts_name(renderers[i].file), name))
			return renderers[i].render;
	}
	return NULL;
}

bool report_run_draws(const json_t *run, enum artifact file)
{
	size_t i;
	const json_t *name;
	if (!artifacts_needs_phase(file))
		return true;
	json_array_foreach(json_object_get(json_object_get(run, "plan"), "phases"), i, name)
	{
		if (json_is_string(name) && artifacts_draws_phase(file, json_string_value(name)))
			return true;
	}
	return false;
}

/* Whether some run's plan had a phase the file draws (artifacts_needs_phase),
 * as the run that planned it decided: a run without a sweep gets no chart. */
static bool runs_planned(json_t *const *runs, size_t nruns, enum artifact file)
{
	for (size_t r = 0; r < nruns; r++)
		if (report_run_draws(runs[r], file))
			return true;
	return false;
}

static int render_file(const char *dir, const char *name, report_render_fn *render,
		       json_t *const *runs, size_t nruns, char *err, size_t errlen)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *out = fopen(path, "w");
	if (!out)
		return error_set(err, errlen, "cannot create %s: %s", path, strerror(errno));
	int rc = render(out, runs, nruns);
	if (fclose(out) || rc)
		return error_set(err, errlen, "writing %s failed", path);
	return 0;
}

int report_render(json_t *const *runs, size_t nruns, const char *dir, char *err, size_t errlen)
{
	for (size_t i = 0; i < ARTIFACT_REPORT_COUNT; i++) {
		if (!runs_planned(runs, nruns, renderers[i].file))
			continue;
		if (render_file(dir, artifacts_name(renderers[i].file), renderers[i].render, runs,
				nruns, err, errlen))
			return -1;
	}
	return 0;
}

void report_print_tldr(FILE *out, json_t *const *runs, size_t nruns)
{
	summary_write_tldr(out, runs, nruns);
	fflush(out);
}
