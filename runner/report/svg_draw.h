/* svg_draw.h - the parts every SVG chart of the report shares (inner
 * header of report/): one page size, one palette in the order of summary.md's
 * (run, device) columns, escaping, axis steps and the legend. */
#ifndef EBSBENCH_SVG_DRAW_H
#define EBSBENCH_SVG_DRAW_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "results/results.h"

#define SVG_WIDTH 960
#define SVG_PLOT_LEFT 90.0
#define SVG_PLOT_RIGHT 930.0
#define SVG_LEGEND_ROW 18
#define SVG_NAME_LEN 200

/* One device of one run: a line of the timeline, rows of the latency chart. */
struct svg_entry {
	const json_t *run;
	const char *label;
	const char *colour;
	char name[SVG_NAME_LEN]; /* "gp2 (gp2, 100 GiB)", or "run 2: gp2" in a fleet */
};

/* The entries, one per column of results_columns_build. */
struct svg_entries {
	struct svg_entry *e;
	size_t count;
	struct results_columns columns;
};

/* Fills es with one entry per (run, device) column; -1 on no memory. */
int svg_entries_build(struct svg_entries *es, json_t *const *runs, size_t nruns);
void svg_entries_free(struct svg_entries *es);
/* Writes text as XML character data or an attribute value. */
void svg_put_xml(FILE *out, const char *text);
/* The XML prolog, the svg element of SVG_WIDTH x height, a white page and the
 * title (as <title> and as a heading). */
void svg_begin(FILE *out, int height, const char *title);
/* Closes the svg element: 0, or -1 on a write error. */
int svg_end(FILE *out);
/* 1, 2 or 5 times a power of ten, giving about `target` intervals. */
double svg_nice_step(double range, double target);
/* "2,000" for whole steps, "0.5" for fractional ones. */
const char *svg_tick_text(char *buf, size_t len, double value, double step);
/* A y tick at y: a light grid line across the plot and its label (class
 * "ytick", right-aligned left of the plot, centred on y). */
void svg_ytick(FILE *out, double y, const char *label);
/* An x tick at x on the axis at `bottom`: a short mark and its label
 * (class "xtick", centred under it). */
void svg_xtick(FILE *out, double x, double bottom, const char *label);
/* A linear y axis from 0 (at bottom) to ymax (at top): a grid line and a
 * tick label every ystep across the plot's width. */
void svg_y_grid(FILE *out, double top, double bottom, double ymax, double ystep);
/* One row per entry from y down: a line in its colour and its name. */
void svg_legend(FILE *out, const struct svg_entries *es, double y);

/* An axis: values lo..hi onto pixels from..to, linearly or (log, both
 * ends > 0) by their log10, so every chart maps a value the same way. */
struct svg_axis {
	double lo, hi;
	double from, to;
	bool log;
};
/* The pixel of value on a; values beyond the ends land beyond the pixels. */
double svg_axis_at(const struct svg_axis *a, double value);
/* Labelled ticks (class "xtick", centred) of a linear x axis every step,
 * below the line y = bottom, with a short mark each. */
void svg_x_ticks(FILE *out, const struct svg_axis *x, double step, double bottom);
/* Labelled ticks (class "ytick") of a linear y axis every step, each with
 * a light grid line from left to right. */
void svg_y_ticks(FILE *out, const struct svg_axis *y, double step, double left, double right);
/* The same for a log y axis: each decade labelled in its unit's numbers
 * ("0.1", "1", "10"), 2x and 5x light lines between (labelled as well when
 * the axis spans less than two decades). */
void svg_log_y_ticks(FILE *out, const struct svg_axis *y, double left, double right);
/* The plot's frame (left and bottom lines) and its axis titles, units
 * included: x centred under the ticks, y rotated along the left edge. */
void svg_axis_titles(FILE *out, double left, double right, double top, double bottom,
		     const char *x_title, const char *y_title);

#endif
