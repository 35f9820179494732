/* report.h - the human artifacts of one run or a fleet of runs: summary.md
 * and the SVG charts, written into a results (or report) directory. */
#ifndef EBSBENCH_REPORT_H
#define EBSBENCH_REPORT_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "run/run.h"

/* Writes the report's artifacts (artifacts_report_files: summary.md,
 * iops_timeline.svg, latency_percentiles.svg, latency_heatmap.svg, ...,
 * report.html) into dir.  Returns 0, or -1
 * with a one-line reason naming the file. */
int report_render(json_t *const *runs, size_t nruns, const char *dir, char *err, size_t errlen);

/* A report file's writer: 0, or -1 on a write error. */
typedef int report_render_fn(FILE *out, json_t *const *runs, size_t nruns);

/* The writer of the report file named name ("latency_heatmap.svg"), or NULL:
 * report.html draws its charts inline through the same writers. */
report_render_fn *report_renderer(const char *name);

/* The TL;DR table for a console: what the user sees whatever else happens. */
void report_print_tldr(FILE *out, json_t *const *runs, size_t nruns);

/* The rest of the folder's face (last: each sees what is declared above). */
#include "report/compare.h"
#include "report/fleet.h"
#include "report/recommend_apply.h"
#include "report/recommend_md.h"
#include "report/report_analysis.h"
#include "report/summary.h"
#include "report/svg.h"
#include "report/svg_loadcurve.h"
#include "report/svg_fleet.h"
#include "report/svg_sweep.h"

#endif
