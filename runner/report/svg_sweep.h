/* svg_sweep.h - the block-size sweep's chart: throughput against block
 * size per volume, log-2 x axis, the model's line over the measured points. */
#ifndef EBSBENCH_SVG_SWEEP_H
#define EBSBENCH_SVG_SWEEP_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/* throughput_vs_block_size.svg from analysis.devices[].sweep of each run
 * (a run without one draws nothing but the axes).  0, or -1 on a write
 * error. */
int svg_throughput_vs_block_size(FILE *out, json_t *const *runs, size_t nruns);

#endif
