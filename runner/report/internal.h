/* internal.h - what report/'s files share among themselves and nothing
 * outside report/ calls, where its file has no header but the face
 * (report.c); the modules' own headers (compare.h, fleet.h, summary.h,
 * ...) hold the rest, and report.h includes none of them. */
#ifndef EBSBENCH_REPORT_INTERNAL_H
#define EBSBENCH_REPORT_INTERNAL_H

#include "report/report.h"

/* report.c: each report file's writer, by name */
/* The writer of the report file named name ("latency_heatmap.svg"), or NULL:
 * report.html draws its charts inline through the same writers. */
report_render_fn *report_renderer(const char *name);

#endif
