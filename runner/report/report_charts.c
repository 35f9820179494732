/* report_charts.c - which writer draws each chart of the report, and
 * whether a run drew it (report_charts.h).  A leaf below report.c, the
 * page and the summary, which all ask it. */
#include "report/report_charts.h"

#include <string.h>

#include "lib/lib.h"
#include "report/svg.h"
#include "report/svg_loadcurve.h"
#include "report/svg_sweep.h"

/* Each chart file and its writer; the names are artifacts'. */
static const struct {
	enum artifact file;
	report_render_fn *render;
} charts[] = {
	{ ARTIFACT_IOPS_SVG, svg_iops_timeline },
	{ ARTIFACT_LATENCY_SVG, svg_latency_percentiles },
	{ ARTIFACT_HEATMAP_SVG, svg_latency_heatmap },
	{ ARTIFACT_LOAD_SVG, svg_loadcurve },
	{ ARTIFACT_SWEEP_SVG, svg_throughput_vs_block_size },
};

report_render_fn *report_chart_writer(enum artifact file)
{
	for (size_t i = 0; i < ARRAY_SIZE(charts); i++) {
		if (charts[i].file == file)
			return charts[i].render;
	}
	return NULL;
}

report_render_fn *report_chart_named(const char *name)
{
	for (size_t i = 0; name && i < ARRAY_SIZE(charts); i++) {
		if (!strcmp(artifacts_name(charts[i].file), name))
			return charts[i].render;
	}
	return NULL;
}

bool report_run_draws(const json_t *run, enum artifact file)
{
	size_t i;
	const json_t *name;
	if (!artifacts_needs_phase(file))
		return true;
	json_array_foreach(json_object_get(json_object_get(run, RESULTS_KEY_PLAN), "phases"), i,
			   name)
	{
		if (json_is_string(name) && artifacts_draws_phase(file, json_string_value(name)))
			return true;
	}
	return false;
}
