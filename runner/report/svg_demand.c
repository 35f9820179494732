/* svg_demand.c - a demand trace against each candidate's limits: the
 * trace's I/O a second (256 KiB units, each interval's min and max per
 * column so a burst stays visible) over time, a horizontal line per
 * candidate at its IOPS cap (a gp2's burst dashed above its baseline),
 * and the current volume's; where its gp2 bucket ran dry, a dashed
 * vertical line. */
#include "report/svg.h"

#include <math.h>
#include <stdlib.h>

#include "lib/lib.h"
#include "report/svg_draw.h"

#define HEIGHT 520
#define LEGEND_TOP 392.0
#define LEGEND_ROW 16.0
#define TOP 50.0
#define BOTTOM 340.0
#define COLUMNS 600

static const char *const cap_colours[] = { "#2ca02c", "#9467bd", "#ff7f0e", "#d62728" };

/* The units a second of interval i. */
static double rate_of(const struct demand_trace *tr, size_t i)
{
	const struct demand_point *p = &tr->p[i];
	return fmax(p->read_ops + p->write_ops, (p->read_bytes + p->write_bytes) / (256.0 * KIB)) /
	       tr->interval_s;
}

/* One limit: a line across the plot, and its legend row (*row counts
 * them: several limits often share a level, so labels on the lines would
 * overlap). */
static void cap_line(FILE *out, const struct svg_axis *y, double value, const char *colour,
		     bool dashed, const char *label, int *row)
{
	double py = svg_axis_at(y, fmin(value, y->hi)), ly = LEGEND_TOP + LEGEND_ROW * (*row)++;
	const char *dash = dashed ? " stroke-dasharray=\"6 4\"" : "";
	fprintf(out,
		"<line class=\"cap\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		"stroke-width=\"1.5\"%s/>\n<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"%s\" stroke-width=\"1.5\"%s/>\n<text x=\"%.1f\" y=\"%.1f\" "
		"dominant-baseline=\"middle\">",
		SVG_PLOT_LEFT, py, SVG_PLOT_RIGHT, py, colour, dash, SVG_PLOT_LEFT, ly,
		SVG_PLOT_LEFT + 24, ly, colour, dash, SVG_PLOT_LEFT + 30, ly);
	svg_put_xml(out, label);
	fputs("</text>\n", out);
}

/* A volume's caps: its IOPS (gp2: baseline, and burst dashed). */
static void volume_caps(FILE *out, const struct svg_axis *y, const struct ebs_volume *v,
			const char *who, const char *colour, int *row)
{
	struct ebs_workload w = { .io_size_bytes = 4096, .credits_at_start = EBS_CREDITS_FULL };
	struct ebs_prediction p = ebs_predict(v, &w);
	char label[160];

	snprintf(label, sizeof(label), "%s%s %.0f GiB: %.0f IOPS", who, ebs_type_name(v->type),
		 v->size_gib, p.baseline_iops);
	cap_line(out, y, p.baseline_iops, colour, false, label, row);
	if (p.bursts) {
		snprintf(label, sizeof(label),
			 "%s%s %.0f GiB: %.0f IOPS on burst, while credits last", who,
			 ebs_type_name(v->type), v->size_gib, p.burst_iops);
		cap_line(out, y, p.burst_iops, colour, true, label, row);
	}
}

/* The demand: each column's lowest and highest interval, so a burst
 * shorter than a column stays visible. */
static void demand_line(FILE *out, const struct demand_trace *tr, const struct svg_axis *x,
			const struct svg_axis *y, double span)
{
	double t0 = tr->n ? tr->p[0].t : 0;

	fputs("<polyline class=\"series\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1\" "
	      "points=\"",
	      out);
	for (size_t i = 0; i < tr->n;) {
		size_t col = (size_t)((tr->p[i].t - t0) / fmax(span, 1) * COLUMNS);
		double lo = HUGE_VAL, hi = 0, at = (tr->p[i].t - t0) / 3600;
		while (i < tr->n && (size_t)((tr->p[i].t - t0) / fmax(span, 1) * COLUMNS) == col) {
			lo = fmin(lo, rate_of(tr, i));
			hi = fmax(hi, rate_of(tr, i));
			i++;
		}
		fprintf(out, "%.1f,%.1f %.1f,%.1f ", svg_axis_at(x, at), svg_axis_at(y, lo),
			svg_axis_at(x, at), svg_axis_at(y, hi));
	}
	fputs("\"/>\n", out);
}

int svg_demand_chart(FILE *out, const struct demand_trace *tr, const struct demand_answer *a)
{
	char title[160];
	int row = 1;
	double peak = 0, t0 = tr->n ? tr->p[0].t : 0, span = a->stats.seconds;

	snprintf(title, sizeof(title), "%s: demand against each candidate's IOPS", tr->volume);
	svg_begin(out, HEIGHT, title);
	for (size_t i = 0; i < tr->n; i++)
		peak = fmax(peak, rate_of(tr, i));
	for (int c = 0; c < a->rec.ncand; c++)
		if (a->rec.cand[c].feasible)
			peak = fmax(peak, a->rec.cand[c].iops);
	double ymax = fmax(peak * 1.1, 1), ystep = svg_nice_step(ymax, 6);
	ymax = ceil(ymax / ystep) * ystep;
	double hours = span / 3600, xstep = svg_nice_step(hours > 0 ? hours : 1, 8);
	struct svg_axis x = { 0, hours > 0 ? hours : 1, SVG_PLOT_LEFT, SVG_PLOT_RIGHT, false };
	struct svg_axis y = { 0, ymax, BOTTOM, TOP, false };
	svg_y_ticks(out, &y, ystep, SVG_PLOT_LEFT, SVG_PLOT_RIGHT);
	svg_x_ticks(out, &x, xstep, BOTTOM);
	svg_axis_titles(out, SVG_PLOT_LEFT, SVG_PLOT_RIGHT, TOP, BOTTOM,
			"hours since the trace began", "I/O per second (256 KiB units)");
	demand_line(out, tr, &x, &y, span);
	for (int c = 0; c < a->rec.ncand; c++)
		if (a->rec.cand[c].feasible)
			volume_caps(out, &y, &a->rec.cand[c].volume, "", cap_colours[c], &row);
	if (a->has_current) {
		volume_caps(out, &y, &a->rec.current, "now: ", cap_colours[3], &row);
		if (isfinite(a->current.dry_at)) {
			double px = svg_axis_at(&x, (a->current.dry_at - t0) / 3600);
			fprintf(out,
				"<line class=\"dry\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				"y2=\"%.1f\" "
				"stroke=\"#d62728\" stroke-dasharray=\"3 3\"/>\n<text x=\"%.1f\" "
				"y=\"%.1f\" fill=\"#d62728\">the current bucket runs dry</text>\n",
				px, TOP, px, BOTTOM, px + 4, TOP + 12);
		}
	}
	fprintf(out,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#1f77b4\"/>\n"
		"<text x=\"%.1f\" y=\"%.1f\" dominant-baseline=\"middle\">the demand (each "
		"column the lowest and highest of its %.0f-second intervals)</text>\n",
		SVG_PLOT_LEFT, LEGEND_TOP, SVG_PLOT_LEFT + 24, LEGEND_TOP, SVG_PLOT_LEFT + 30,
		LEGEND_TOP, tr->interval_s);
	return svg_end(out);
}
