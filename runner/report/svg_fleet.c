/* svg_fleet.c - the fleet chart: one panel per figure the fleet measured,
 * in it one row per volume class, each volume a dot (offset up or down a
 * little so equal values stay countable), the class's interquartile range
 * a box, its median a bar, and each outlier a red dot labelled with its
 * volume and its distance from the median. */
#include "report/svg_fleet.h"

#include "report/fleet.h"

#include <math.h>
#include <string.h>

#include "report/svg_draw.h"

#define FC_TOP 44.0
#define FC_TITLE_H 24.0 /* the panel's heading above its rows */
#define FC_ROW_H 34.0
#define FC_AXIS_H 56.0 /* ticks and axis title under the rows */
#define FC_GAP 16.0
#define FC_DOT "#1f77b4"
#define FC_OUTLIER "#d62728"
#define FC_BOX "#c6dbef"

/* A panel's x axis: every value of figure k, padded and rounded to ticks. */
static struct svg_axis fc_axis(const struct fleet *f, enum fleet_figure k, double *step)
{
	double lo = INFINITY, hi = -INFINITY;
	for (size_t g = 0; g < f->ngroups; g++) {
		if (f->group[g].dist[k].n) {
			lo = fmin(lo, f->group[g].dist[k].min);
			hi = fmax(hi, f->group[g].dist[k].max);
		}
	}
	double pad = hi > lo ? 0.05 * (hi - lo) : fmax(1e-9, 0.05 * fabs(hi));
	double low = lo - pad < 0 && lo >= 0 ? 0 : lo - pad;
	*step = svg_nice_step(hi + pad - low, 6);
	low = floor(low / *step) * *step;
	double high = ceil((hi + pad) / *step) * *step;
	return (struct svg_axis){ low, high, SVG_PLOT_LEFT, SVG_PLOT_RIGHT, false };
}

/* How many classes measured figure k: the panel's rows. */
static size_t fc_rows(const struct fleet *f, enum fleet_figure k)
{
	size_t n = 0;
	for (size_t g = 0; g < f->ngroups; g++)
		n += f->group[g].dist[k].n > 0;
	return n;
}

/* Whether volume i's figure k is one of the outliers (its index, or -1). */
static long fc_outlier(const struct fleet *f, size_t i, enum fleet_figure k)
{
	for (size_t o = 0; o < f->noutliers; o++) {
		if (f->outlier[o].volume == i && f->outlier[o].figure == k)
			return (long)o;
	}
	return -1;
}

/* The red dot's label: "r07:gp3 +52 %", above or below the row by turns. */
static void fc_label(FILE *out, const struct fleet *f, const struct fleet_outlier *o, double x,
		     double y, size_t nth)
{
	char name[FLEET_TEXT_LEN];
	double pct = o->median ? 100 * (o->value - o->median) / fabs(o->median) : NAN;
	fprintf(out,
		"<text class=\"outlier-label\" x=\"%.1f\" y=\"%.1f\" font-size=\"10\" "
		"fill=\"%s\" text-anchor=\"%s\">",
		x, nth % 2 ? y + 14 : y - 7, FC_OUTLIER,
		x > SVG_PLOT_RIGHT - 120 ? "end" : "start");
	svg_put_xml(out, fleet_volume_name(name, sizeof(name), &f->volume[o->volume]));
	fprintf(out, " %+.0f %%</text>\n", pct);
}

/* One class's row at y: its name, box, median and dots. */
static void fc_row(FILE *out, const struct fleet *f, size_t g, enum fleet_figure k,
		   const struct svg_axis *x, double top)
{
	const struct fleet_dist *d = &f->group[g].dist[k];
	double y = top + FC_ROW_H - 10, x1 = svg_axis_at(x, d->q1), x3 = svg_axis_at(x, d->q3);
	size_t nth = 0, labelled = 0;

	fprintf(out, "<g class=\"class-row\">\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">",
		SVG_PLOT_LEFT + 4, top + 11);
	svg_put_xml(out, f->group[g].name);
	fprintf(out,
		" (%zu)</text>\n<rect class=\"iqr\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		"height=\"12\" fill=\"%s\" stroke=\"#6baed6\"/>\n"
		"<line class=\"median\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"#08306b\" stroke-width=\"3\"/>\n",
		d->n, x1, y - 6, fmax(1, x3 - x1), FC_BOX, svg_axis_at(x, d->median), y - 9,
		svg_axis_at(x, d->median), y + 9);
	for (size_t i = 0; i < f->nvolumes; i++) {
		double v = f->volume[i].value[k];
		if (f->volume[i].group != g || !isfinite(v))
			continue;
		long o = fc_outlier(f, i, k);
		double cx = svg_axis_at(x, v), cy = y + (double)((long)(nth++ % 5) - 2) * 2.5;
		fprintf(out,
			"<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\" "
			"fill-opacity=\"0.7\"/>\n",
			o >= 0 ? "outlier" : "volume", cx, cy, o >= 0 ? FC_OUTLIER : FC_DOT);
		if (o >= 0)
			fc_label(out, f, &f->outlier[o], cx + 5, y, labelled++);
	}
	fputs("</g>\n", out);
}

/* Figure k's panel from top; returns its bottom. */
static double fc_panel(FILE *out, const struct fleet *f, enum fleet_figure k, double top)
{
	const struct fleet_figure_info *info = fleet_figure_info(k);
	double step, rows_top = top + FC_TITLE_H;
	double bottom = rows_top + (double)fc_rows(f, k) * FC_ROW_H + 4;
	struct svg_axis x = fc_axis(f, k, &step);
	char title[FLEET_TEXT_LEN];

	snprintf(title, sizeof(title), "%s (%s)", info->title, info->unit);
	fprintf(out, "<g class=\"panel\" id=\"fleet-%s\">\n", info->key);
	svg_x_ticks(out, &x, step, bottom);
	svg_axis_titles(out, SVG_PLOT_LEFT, SVG_PLOT_RIGHT, rows_top, bottom, title, "class");
	for (size_t g = 0; g < f->ngroups; g++) {
		if (f->group[g].dist[k].n) {
			fc_row(out, f, g, k, &x, rows_top);
			rows_top += FC_ROW_H;
		}
	}
	fputs("</g>\n", out);
	return bottom + FC_AXIS_H;
}

/* The outlier rule under the panels, a line per clause ("; " apart). */
static void fc_rule(FILE *out, double y)
{
	const char *rule = FLEET_OUTLIER_RULE, *end;
	char line[FLEET_TEXT_LEN];

	for (int n = 0; *rule; n++, y += 14) {
		end = strstr(rule, "; ");
		size_t len = end ? (size_t)(end - rule) : strlen(rule);
		snprintf(line, sizeof(line), "%s%.*s", n ? "" : "outlier: ", (int)len, rule);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">", SVG_PLOT_LEFT, y);
		svg_put_xml(out, line);
		fputs("</text>\n", out);
		rule += end ? len + 2 : len;
	}
}

int svg_fleet(FILE *out, const struct fleet *f)
{
	double height = FC_TOP + 50;
	for (int k = 0; k < FLEET_FIGURES; k++) {
		if (fleet_has_figure(f, (enum fleet_figure)k))
			height += FC_TITLE_H + (double)fc_rows(f, (enum fleet_figure)k) * FC_ROW_H +
				  4 + FC_AXIS_H + FC_GAP;
	}
	svg_begin(out, (int)ceil(height),
		  "Fleet: each volume a dot, the box its class's p25-p75, "
		  "the bar its median, outliers red");
	double top = FC_TOP;
	for (int k = 0; k < FLEET_FIGURES; k++) {
		if (fleet_has_figure(f, (enum fleet_figure)k))
			top = fc_panel(out, f, (enum fleet_figure)k, top) + FC_GAP;
	}
	fc_rule(out, top + 10);
	return svg_end(out);
}
