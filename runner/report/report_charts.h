/* report_charts.h - the report's SVG charts by file name (inner header of
 * report/): report.c writes them as files, report.html draws them inline
 * through the same writers, and summary.md links the ones a run drew. */
#ifndef EBSBENCH_REPORT_CHARTS_H
#define EBSBENCH_REPORT_CHARTS_H

#include <jansson.h>
#include <stdbool.h>

#include "report/report.h"
#include "run/run.h"

/* The writer of chart file `file` (ARTIFACT_IOPS_SVG, ...), or NULL for a
 * file that is no chart. */
report_render_fn *report_chart_writer(enum artifact file);

/* The writer of the chart named name ("latency_heatmap.svg"), or NULL. */
report_render_fn *report_chart_named(const char *name);

/* Whether a run's plan had a phase file draws (artifacts_needs_phase; true
 * for a file every run writes): its chart is written, and linked. */
bool report_run_draws(const json_t *run, enum artifact file);

#endif
