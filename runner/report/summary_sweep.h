/* summary_sweep.h - summary.md's block-size sweep section (inner header of
 * report/): seed 002's table per volume, with the model's line. */
#ifndef EBSBENCH_SUMMARY_SWEEP_H
#define EBSBENCH_SUMMARY_SWEEP_H

#include <stdio.h>

#include "results/results.h"

/* The section: the chart's link, then per device that ran the sweep a
 * table of its steps (rw, block size, measured and predicted MiB/s, the
 * bound, the verdict, the service time) from analysis.devices[].sweep. */
void summary_sweep_write(FILE *out, const struct results_columns *c);

#endif
