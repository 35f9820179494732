/* svg_loadcurve.c - latency_vs_load.svg: p50 and p99 against the offered
 * load, one panel per device, the knee marked (see svg_loadcurve.h). */
#include "report/svg_loadcurve.h"

#include <math.h>
#include <stdbool.h>

#include "report/report_format.h"
#include "report/svg_draw.h"
#include "results/results.h"

#define LC_TOP 50.0
#define LC_PANEL 300.0	     /* a panel's height, its title and x labels included */
#define LC_PLOT_TOP 28.0     /* the plot's top within a panel */
#define LC_PLOT_BOTTOM 230.0 /* the x axis within a panel */

/* The log10 span of the y axis, shared by every panel. */
struct lc_yscale {
	double lo, hi;
};

/* The device's analysed steps, or NULL when it ran no loadcurve. */
static const json_t *lc_steps(const struct svg_entry *e)
{
	const json_t *a = results_analysis_device(e->run, e->label);
	return json_object_get(json_object_get(a, "loadcurve"), "steps");
}

static double lc_ms(const json_t *step, const char *key)
{
	double v = results_num(json_object_get(step, key));
	return v > 0 ? v : NAN;
}

/* Powers of ten around every p50 and p99 drawn. */
static struct lc_yscale lc_yscale_of(const struct svg_entries *es)
{
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < es->count; i++) {
		const json_t *st;
		size_t k;
		json_array_foreach(lc_steps(&es->e[i]), k, st) for (int p = 0; p < 2; p++)
		{
			double v = lc_ms(st, p ? "p99_ms" : "p50_ms");
			if (isfinite(v)) {
				lo = fmin(lo, v);
				hi = fmax(hi, v);
			}
		}
	}
	struct lc_yscale s = { isfinite(lo) ? floor(log10(lo)) : -1,
			       isfinite(hi) ? ceil(log10(hi)) : 2 };
	if (s.hi <= s.lo)
		s.hi = s.lo + 1;
	return s;
}

static double lc_y(const struct lc_yscale *s, double top, double ms)
{
	double f = (log10(ms) - s->lo) / (s->hi - s->lo);
	return top + LC_PLOT_BOTTOM - f * (LC_PLOT_BOTTOM - LC_PLOT_TOP);
}

static double lc_x(double xmax, double iops)
{
	return SVG_PLOT_LEFT + iops / xmax * (SVG_PLOT_RIGHT - SVG_PLOT_LEFT);
}

/* The y grid and labels of one panel, a line per power of ten. */
static void lc_yaxis(FILE *out, const struct lc_yscale *s, double top)
{
	char buf[REPORT_NUM_LEN];
	for (double d = s->lo; d <= s->hi; d++) {
		double v = pow(10, d);
		svg_ytick(out, lc_y(s, top, v), svg_tick_text(buf, sizeof(buf), v, v));
	}
	double mid = top + (LC_PLOT_TOP + LC_PLOT_BOTTOM) / 2;
	fprintf(out,
		"<text x=\"24\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 24 "
		"%.1f)\">latency, ms (log)</text>\n",
		mid, mid);
}

/* The x axis in IOPS, with each step's percent under its tick. */
static void lc_xaxis(FILE *out, double xmax, double top, const json_t *steps)
{
	double step = svg_nice_step(xmax, 8), bottom = top + LC_PLOT_BOTTOM;
	char buf[REPORT_NUM_LEN];
	const json_t *st;
	size_t k;
	for (long i = 0; (double)i * step <= xmax * (1 + 1e-9); i++)
		svg_xtick(out, lc_x(xmax, (double)i * step), bottom,
			  svg_tick_text(buf, sizeof(buf), (double)i * step, step));
	json_array_foreach(steps, k, st)
		fprintf(out,
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#777777\" "
			"font-size=\"10\">%.0f %%</text>\n",
			lc_x(xmax, results_num(json_object_get(st, "offered_iops"))), bottom + 31,
			results_num(json_object_get(st, "percent")));
	fprintf(out,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000000\"/>\n"
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000000\"/>\n"
		"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">offered load, IOPS (4k random "
		"read, poisson arrivals; %% of the sustained rate below)</text>\n",
		SVG_PLOT_LEFT, bottom, SVG_PLOT_RIGHT, bottom, SVG_PLOT_LEFT, top + LC_PLOT_TOP,
		SVG_PLOT_LEFT, bottom, (SVG_PLOT_LEFT + SVG_PLOT_RIGHT) / 2, bottom + 50);
}

/* One percentile's line and points: p99 solid, p50 dashed; a step on
 * burst credits hollow. */
static void lc_line(FILE *out, const struct lc_yscale *s, double xmax, double top,
		    const json_t *steps, const char *key, const char *colour)
{
	bool p99 = key[1] == '9';
	const json_t *st;
	size_t k;
	fprintf(out,
		"<polyline class=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
		"stroke-dasharray=\"%s\" points=\"",
		p99 ? "p99" : "p50", colour, p99 ? "none" : "6 4");
	json_array_foreach(steps, k, st) if (isfinite(lc_ms(st, key))) fprintf(
		out, " %.1f,%.1f", lc_x(xmax, results_num(json_object_get(st, "offered_iops"))),
		lc_y(s, top, lc_ms(st, key)));
	fputs("\"/>\n", out);
	json_array_foreach(steps, k, st) if (isfinite(lc_ms(st, key)))
		fprintf(out,
			"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\" stroke=\"%s\" "
			"stroke-width=\"1.5\"/>\n",
			lc_x(xmax, results_num(json_object_get(st, "offered_iops"))),
			lc_y(s, top, lc_ms(st, key)),
			json_is_true(json_object_get(st, "on_burst")) ? "#ffffff" : colour, colour);
}

/* A vertical mark at `iops` with its label: the knee or the sustained rate. */
static void lc_mark(FILE *out, double xmax, double top, double iops, const char *cls,
		    const char *text, const char *colour)
{
	bool knee = cls[0] == 'k';
	double x = lc_x(xmax, iops);
	if (!isfinite(iops) || iops <= 0 || iops > xmax)
		return;
	fprintf(out,
		"<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		"stroke-width=\"1.5\" stroke-dasharray=\"%s\" stroke-opacity=\"%s\"/>\n"
		"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"%s\">",
		cls, x, top + LC_PLOT_TOP, x, top + LC_PLOT_BOTTOM, colour, knee ? "6 4" : "2 4",
		knee ? "1" : "0.4", x - 4, top + LC_PLOT_TOP + (knee ? 12 : 26), colour);
	svg_put_xml(out, text);
	fputs("</text>\n", out);
}

/* The panel's x range: the highest offered load, rounded up to a tick. */
static double lc_xmax(const json_t *steps)
{
	double most = 0;
	const json_t *st;
	size_t k;
	json_array_foreach(steps, k, st) most =
		fmax(most, results_num(json_object_get(st, "offered_iops")));
	double step = svg_nice_step(most * 1.05, 8);
	return most > 0 ? ceil(most * 1.05 / step) * step : 1;
}

static void lc_panel(FILE *out, const struct lc_yscale *s, const struct svg_entry *e, double top)
{
	const json_t *lc = json_object_get(results_analysis_device(e->run, e->label), "loadcurve");
	const json_t *steps = json_object_get(lc, "steps"), *knee = json_object_get(lc, "knee");
	double xmax = lc_xmax(steps);
	char text[128], n[REPORT_NUM_LEN];
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-weight=\"bold\">", SVG_PLOT_LEFT, top + 16);
	svg_put_xml(out, e->name);
	fputs("</text>\n", out);
	lc_yaxis(out, s, top);
	lc_xaxis(out, xmax, top, steps);
	double sustained = results_num(json_object_get(lc, "sustained_iops"));
	snprintf(text, sizeof(text), "sustained %s", report_count(n, sizeof(n), sustained));
	lc_mark(out, xmax, top, sustained, "sustained", text, "#555555");
	if (knee) {
		double at = results_num(json_object_get(knee, "offered_iops"));
		snprintf(text, sizeof(text), "knee: %s IOPS (%.0f %%)",
			 report_count(n, sizeof(n), at),
			 results_num(json_object_get(knee, "percent")));
		lc_mark(out, xmax, top, at, "knee", text, e->colour);
	}
	lc_line(out, s, xmax, top, steps, "p50_ms", e->colour);
	lc_line(out, s, xmax, top, steps, "p99_ms", e->colour);
}

/* What the line styles mean, once under the panels. */
static void lc_key(FILE *out, double y)
{
	fprintf(out,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#555555\" "
		"stroke-width=\"2\"/><text x=\"%.1f\" y=\"%.1f\" dominant-baseline=\"middle\">p99"
		"</text>\n<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#555555\" "
		"stroke-width=\"2\" stroke-dasharray=\"6 4\"/><text x=\"%.1f\" y=\"%.1f\" "
		"dominant-baseline=\"middle\">p50 (latency from each I/O's scheduled issue "
		"time; a hollow point ran on burst credits)</text>\n",
		SVG_PLOT_LEFT, y, SVG_PLOT_LEFT + 24, y, SVG_PLOT_LEFT + 30, y, SVG_PLOT_LEFT + 70,
		y, SVG_PLOT_LEFT + 94, y, SVG_PLOT_LEFT + 100, y);
}

int svg_loadcurve(FILE *out, json_t *const *runs, size_t nruns)
{
	struct svg_entries es;
	size_t panels = 0;
	if (svg_entries_build(&es, runs, nruns)) {
		svg_entries_free(&es);
		return -1;
	}
	for (size_t i = 0; i < es.count; i++)
		panels += json_array_size(lc_steps(&es.e[i])) > 0;
	struct lc_yscale s = lc_yscale_of(&es);
	double bottom = LC_TOP + LC_PANEL * (double)(panels ? panels : 1);
	svg_begin(out, (int)bottom + 40, "Latency against offered load (loadcurve)");
	if (!panels)
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
			SVG_WIDTH / 2, LC_TOP + 40, "no loadcurve phase in these results");
	double top = LC_TOP;
	for (size_t i = 0; i < es.count; i++) {
		if (!json_array_size(lc_steps(&es.e[i])))
			continue;
		lc_panel(out, &s, &es.e[i], top);
		top += LC_PANEL;
	}
	if (panels)
		lc_key(out, bottom + 10);
	svg_entries_free(&es);
	return svg_end(out);
}
