/* report.c - render the report's artifacts through one function per file. */
#include "report/report.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "lib/lib.h"
#include "report/internal.h"
#include "report/recommend_md.h"
#include "report/report_charts.h"
#include "report/report_html.h"
#include "report/summary.h"
#include "results/results.h"
#include "run/run.h"

/* Each report artifact and what renders it, in the order they are
 * written; NULL: a chart, drawn by report_chart_writer's writer. */
static const struct {
	enum artifact file;
	report_render_fn *render;
} renderers[ARTIFACT_REPORT_COUNT] = {
	{ ARTIFACT_SUMMARY, summary_write }, { ARTIFACT_IOPS_SVG, NULL },
	{ ARTIFACT_LATENCY_SVG, NULL },	     { ARTIFACT_HEATMAP_SVG, NULL },
	{ ARTIFACT_LOAD_SVG, NULL },	     { ARTIFACT_RECOMMEND, recommend_md_write },
	{ ARTIFACT_SWEEP_SVG, NULL },	     { ARTIFACT_HTML, report_html_write },
};

/* The writer of renderers[i]'s file. */
static report_render_fn *renderer_of(size_t i)
{
	return renderers[i].render ? renderers[i].render : report_chart_writer(renderers[i].file);
}

report_render_fn *report_renderer(const char *name)
{
	for (size_t i = 0; name && i < ARTIFACT_REPORT_COUNT; i++) {
		if (!strcmp(artifacts_name(renderers[i].file), name))
			return renderer_of(i);
	}
	return NULL;
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
		if (render_file(dir, artifacts_name(renderers[i].file), renderer_of(i), runs, nruns,
				err, errlen))
			return -1;
	}
	return 0;
}

void report_print_tldr(FILE *out, json_t *const *runs, size_t nruns)
{
	summary_write_tldr(out, runs, nruns);
	fflush(out);
}
