/* svg_draw.c - what every SVG chart of the report shares: the page, the
 * escaping of text, the axis steps, the colours and the legend. */
#include "report/svg_draw.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lib.h"
#include "report/report_format.h"

static const char *const palette[] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
				       "#9467bd", "#8c564b", "#e377c2", "#17becf" };
#define PALETTE_SIZE (ARRAY_SIZE(palette))

void svg_entries_free(struct svg_entries *es)
{
	results_columns_free(&es->columns);
	free(es->e);
}

int svg_entries_build(struct svg_entries *es, json_t *const *runs, size_t nruns)
{
	es->count = 0;
	es->e = NULL;
	if (results_columns_build(&es->columns, runs, nruns))
		return -1;
	es->e = calloc(es->columns.count ? es->columns.count : 1, sizeof(*es->e));
	if (!es->e)
		return -1;
	for (size_t i = 0; i < es->columns.count; i++) {
		const struct results_column *col = &es->columns.col[i];
		struct svg_entry *e = &es->e[es->count];
		e->run = col->run;
		e->label = results_label(col->device);
		e->colour = palette[es->count % PALETTE_SIZE];
		if (nruns > 1)
			snprintf(e->name, sizeof(e->name), "run %zu: %s", col->run_index, e->label);
		else
			report_device_title(e->name, sizeof(e->name), col->device);
		es->count++;
	}
	return 0;
}

/* Text and attribute values: a label is whatever the config said. */
void svg_put_xml(FILE *out, const char *text)
{
	static const char special[] = "&<>\"'";
	static const char *const entity[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&apos;" };
	for (; text && *text; text++) {
		const char *at = strchr(special, *text);
		if (at)
			fputs(entity[at - special], out);
		else /* XML 1.0 forbids most control characters even escaped. */
			fputc((unsigned char)*text < 0x20 ? ' ' : *text, out);
	}
}

void svg_begin(FILE *out, int height, const char *title)
{
	fprintf(out,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
		"<title>",
		SVG_WIDTH, height, SVG_WIDTH, height);
	svg_put_xml(out, title);
	fprintf(out,
		"</title>\n<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n"
		"<text x=\"%d\" y=\"24\" font-size=\"16\" text-anchor=\"middle\">",
		SVG_WIDTH, height, SVG_WIDTH / 2);
	svg_put_xml(out, title);
	fputs("</text>\n", out);
}

int svg_end(FILE *out)
{
	fputs("</svg>\n", out);
	return fflush(out) || ferror(out) ? -1 : 0;
}

/* 1, 2 or 5 times a power of ten, giving about `target` intervals. */
double svg_nice_step(double range, double target)
{
	double raw = range / target, mag, norm;

	if (!(raw > 0) || !isfinite(raw))
		return 1;
	mag = pow(10, floor(log10(raw)));
	norm = raw / mag;
	return (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
}

/* "2,000" for whole steps, "0.5" for fractional ones (time-scaled runs). */
const char *svg_tick_text(char *buf, size_t len, double value, double step)
{
	if (step >= 1)
		return report_count(buf, len, value);
	snprintf(buf, len, "%g", value);
	return buf;
}

/* A light grid line across the plot and its label left of it. */
static void y_tick(FILE *out, double py, double left, double right, const char *colour,
		   const char *label)
{
	fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
		left, py, right, py, colour);
	if (label)
		fprintf(out,
			"<text class=\"ytick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
			"dominant-baseline=\"middle\">%s</text>\n",
			left - 6, py, label);
}

void svg_ytick(FILE *out, double y, const char *label)
{
	y_tick(out, y, SVG_PLOT_LEFT, SVG_PLOT_RIGHT, "#e0e0e0", label);
}

void svg_xtick(FILE *out, double x, double bottom, const char *label)
{
	fprintf(out,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000000\"/>\n"
		"<text class=\"xtick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
		x, bottom, x, bottom + 5, x, bottom + 18, label);
}

void svg_y_grid(FILE *out, double top, double bottom, double ymax, double ystep)
{
	char buf[REPORT_NUM_LEN];
	for (long k = 0; (double)k * ystep <= ymax * (1 + 1e-9); k++)
		svg_ytick(out, bottom - (double)k * ystep / ymax * (bottom - top),
			  svg_tick_text(buf, sizeof(buf), (double)k * ystep, ystep));
}

void svg_legend(FILE *out, const struct svg_entries *es, double y)
{
	for (size_t i = 0; i < es->count; i++, y += SVG_LEGEND_ROW) {
		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			"stroke-width=\"3\"/>\n<text x=\"%.1f\" y=\"%.1f\" "
			"dominant-baseline=\"middle\">",
			SVG_PLOT_LEFT, y, SVG_PLOT_LEFT + 24, y, es->e[i].colour,
			SVG_PLOT_LEFT + 30, y);
		svg_put_xml(out, es->e[i].name);
		fputs("</text>\n", out);
	}
}

double svg_axis_at(const struct svg_axis *a, double value)
{
	double lo = a->lo, hi = a->hi, v = value;

	if (a->log) {
		lo = log10(lo);
		hi = log10(hi);
		v = log10(value);
	}
	return a->from + (v - lo) / (hi > lo ? hi - lo : 1) * (a->to - a->from);
}

/* The ticks of a linear axis: whole multiples of step from lo to hi. */
static long first_tick(const struct svg_axis *a, double step)
{
	return (long)ceil(a->lo / step - 1e-9);
}

void svg_x_ticks(FILE *out, const struct svg_axis *x, double step, double bottom)
{
	char buf[REPORT_NUM_LEN];

	for (long k = first_tick(x, step); (double)k * step <= x->hi * (1 + 1e-9); k++) {
		double v = (double)k * step;
		svg_xtick(out, svg_axis_at(x, v), bottom, svg_tick_text(buf, sizeof(buf), v, step));
	}
}

void svg_y_ticks(FILE *out, const struct svg_axis *y, double step, double left, double right)
{
	char buf[REPORT_NUM_LEN];

	for (long k = first_tick(y, step); (double)k * step <= y->hi * (1 + 1e-9); k++)
		y_tick(out, svg_axis_at(y, (double)k * step), left, right, "#e0e0e0",
		       svg_tick_text(buf, sizeof(buf), (double)k * step, step));
}

void svg_log_y_ticks(FILE *out, const struct svg_axis *y, double left, double right)
{
	char buf[REPORT_NUM_LEN];

	for (double d = ceil(log10(y->lo) - 1e-9); d <= log10(y->hi) + 1e-9; d++) {
		double v = pow(10, d);
		y_tick(out, svg_axis_at(y, v), left, right, "#c0c0c0",
		       svg_tick_text(buf, sizeof(buf), v, v));
	}
	/* 2x and 5x of each decade, where they fall inside the axis; labelled
	 * too when it spans less than two decades. */
	bool narrow = log10(y->hi / y->lo) < 2;
	for (double d = floor(log10(y->lo)); d <= log10(y->hi); d++) {
		for (int m = 2; m <= 5; m += 3) {
			double v = m * pow(10, d);
			if (v > y->lo && v < y->hi)
				y_tick(out, svg_axis_at(y, v), left, right,
				       narrow ? "#dddddd" : "#eeeeee",
				       narrow ? svg_tick_text(buf, sizeof(buf), v, v) : NULL);
		}
	}
}

void svg_axis_titles(FILE *out, double left, double right, double top, double bottom,
		     const char *x_title, const char *y_title)
{
	double middle = (top + bottom) / 2;

	fprintf(out,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000000\"/>\n"
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000000\"/>\n"
		"<text class=\"xtitle\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
		left, bottom, right, bottom, left, top, left, bottom, (left + right) / 2,
		bottom + 38);
	svg_put_xml(out, x_title);
	fprintf(out,
		"</text>\n<text class=\"ytitle\" x=\"20\" y=\"%.1f\" text-anchor=\"middle\" "
		"transform=\"rotate(-90 20 %.1f)\">",
		middle, middle);
	svg_put_xml(out, y_title);
	fputs("</text>\n", out);
}
