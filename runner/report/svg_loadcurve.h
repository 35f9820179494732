/* svg_loadcurve.h - latency against offered load (latency_vs_load.svg):
 * the loadcurve phase's curve per device, drawn with svg_draw.h's parts. */
#ifndef EBSBENCH_SVG_LOADCURVE_H
#define EBSBENCH_SVG_LOADCURVE_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/* One panel per (run, device) with loadcurve steps in its analysis: x the
 * offered IOPS (linear, each step's percent under it), y the latency from
 * the scheduled issue time in ms on a log axis shared by the panels; p50
 * dashed (class "p50"), p99 solid (class "p99"), a step on burst hollow,
 * the knee a dashed vertical line (class "knee") and the sustained rate a
 * light one (class "sustained").  Returns 0, or -1 on a write error. */
int svg_loadcurve(FILE *out, json_t *const *runs, size_t nruns);

#endif
