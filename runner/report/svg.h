/* svg.h - the report's charts as self-contained SVG 1.1 (no fonts,
 * CSS or scripts from elsewhere), rendered from parsed results.json
 * documents like summary.md, so any browser or Markdown viewer shows them.
 *
 * Colours follow the order of (run, device) columns, as in summary.md's
 * TL;DR, so a device has the same colour in both charts.  Tick labels are
 * centred on their value (x ticks: text-anchor middle, y ticks:
 * dominant-baseline middle) and carry class "xtick" / "ytick": a reader
 * (or a test) can recover the scale from them. */
#ifndef EBSBENCH_SVG_H
#define EBSBENCH_SVG_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "decide/decide.h"
#include "demand/demand.h"

/* Keeps the min and the max of each bucket, so a cliff edge stays sharp:
 * at most 2 x SVG_TIMELINE_BUCKETS points per line. */
#define SVG_TIMELINE_BUCKETS 1000

/* The y axis of the timeline ends SVG_ROBUST_HEADROOM above the highest
 * series' SVG_ROBUST_PERCENTILE-th window: at most 5 % of a series'
 * windows can be above it. */
#define SVG_ROBUST_PERCENTILE 95.0
#define SVG_ROBUST_HEADROOM 1.15

/* The randread phase's IOPS per window of every device (of every run):
 * one polyline each (class "series"), x in seconds, y in IOPS, the first
 * window left out (queue fill).
 *
 * The y axis is robust, so one window (or a few) cannot dominate it: it
 * runs from 0 to the highest series' 95th-percentile window plus 15 %,
 * rounded up to a tick.  A window above the axis is drawn at its top edge,
 * not hidden: the line goes up to the edge, a triangle on the edge marks
 * it (class "outlier", its value as a tooltip), the series' highest is
 * labelled ("30,200 IOPS", class "outlier-label") and a note says how many
 * windows are above (class "outlier-note").  So make demo's one
 * 30,200-IOPS window at the start leaves the 3,000 -> 300 cliff the whole
 * height of the chart.  A found cliff is a dashed vertical line
 * (class "cliff", labelled "cliff at 2,000 s"), its predicted second a
 * lighter one (class "predicted").  Returns 0, or -1 on a write error. */
int svg_iops_timeline(FILE *out, json_t *const *runs, size_t nruns);

/* p50, p95 and p99 completion latency of every phase of every device on a
 * log-scale ms axis: one row per phase and device, grouped by phase.
 * Returns 0, or -1 on a write error. */
int svg_latency_percentiles(FILE *out, json_t *const *runs, size_t nruns);

/* At most this many panels (device x phase) in one heatmap: a fleet's
 * report names how many more it left out. */
#define SVG_HEATMAP_MAX_PANELS 12

/* Completion latency over time, one panel (class "panel") per device and
 * phase that recorded per-window histograms (results.json's "clat_hist":
 * a run records them for randread and lat), in column order, then in the
 * order the phases ran; all in one SVG, stacked.
 *
 * x: seconds since the phase started.  y: completion latency in ms on a
 * log axis from the band holding the p0.1 of all the phase's I/Os to the
 * band holding their p99.9; an I/O beyond the axis is counted in its edge
 * band (not hidden).  Windows are merged into at most 210 columns (4 px or
 * more each); the run's 4 bins per octave into 4, 2 or 1 bands per octave,
 * the finest whose rows are 8 px or more.  A cell's colour (class "cell cK",
 * K = 1..7) is the share of the column's I/Os in that band, in seven
 * classes: <= 0.5 %, 2, 5, 10, 20, 40, > 40 %; a band with no I/O is left
 * blank.  Over the cells, each column's p50 (class "p50", solid black) and
 * p99 (class "p99", dashed red) from its merged windows' histogram,
 * interpolated within the bin; the heading gives the phase's p50 and p99
 * (the job's, else of all windows merged).  Returns 0, or -1 on a write
 * error. */
int svg_latency_heatmap(FILE *out, json_t *const *runs, size_t nruns);

/* A demand trace against the candidates' and the current volume's IOPS
 * limits (recommend --demand --out): the trace's I/O a second over time,
 * a line per limit, where the current gp2 ran dry.  0, or -1 on a write
 * error. */
int svg_demand_chart(FILE *out, const struct demand_trace *tr, const struct demand_answer *a);

#endif
