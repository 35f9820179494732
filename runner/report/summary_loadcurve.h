/* summary_loadcurve.h - summary.md's loadcurve section (inner header of
 * report/): per device the knee's sentence and a table of its steps. */
#ifndef EBSBENCH_SUMMARY_LOADCURVE_H
#define EBSBENCH_SUMMARY_LOADCURVE_H

#include <stdio.h>

#include "results/results.h"

/* "## Latency against offered load": for every column with loadcurve
 * steps in its analysis, the knee's sentence, then one row per step
 * (offered and measured IOPS, whether the step held its load or ran on
 * burst, p50 / p95 / p99 / p99.9, the knee marked), then the chart. */
void summary_loadcurve_section(FILE *out, const struct results_columns *c);

#endif
