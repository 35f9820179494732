/* svg.c - the IOPS timeline (the reference benchmark's figure: gp2 at 3,000 IOPS, then
 * 300 from one second to the next) and the latency percentile chart. */
#include "report/svg.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "results/results.h"
#include "report/report_format.h"
#include "report/svg_draw.h"

/* ---- IOPS timeline ---- */

#define TL_TOP 60.0
#define TL_BOTTOM 420.0
#define TL_LEGEND_TOP 470.0

struct scale {
	double xmax, ymax;
};

static double tl_x(const struct scale *s, double seconds)
{
	return SVG_PLOT_LEFT + seconds / s->xmax * (SVG_PLOT_RIGHT - SVG_PLOT_LEFT);
}

static double tl_y(const struct scale *s, double iops)
{
	return TL_BOTTOM - iops / s->ymax * (TL_BOTTOM - TL_TOP);
}

static const json_t *randread_series(const struct svg_entry *e)
{
	return json_object_get(results_phase(e->run, "randread", e->label), "iops_series");
}

/* x spans the longest phase; y the highest window, the first of each
 * series left out, rounded up to a tick. */
static struct scale tl_scale(const struct svg_entries *es, double *ystep)
{
	struct scale s = { 0, 0 };

	for (size_t i = 0; i < es->count; i++) {
		const json_t *series = randread_series(&es->e[i]);
		double window =
			results_window_s(results_phase(es->e[i].run, "randread", es->e[i].label));
		struct results_series st = results_series_stats(series);
		s.xmax = fmax(s.xmax, (double)st.samples * window);
		if (st.used)
			s.ymax = fmax(s.ymax, st.max);
	}
	if (!(s.xmax > 0))
		s.xmax = 1;
	if (!(s.ymax > 0))
		s.ymax = 1;
	*ystep = svg_nice_step(s.ymax, 6);
	s.ymax = ceil(s.ymax / *ystep) * *ystep;
	return s;
}

static void tl_axes(FILE *out, const struct scale *s, double ystep)
{
	double xstep = svg_nice_step(s->xmax, 8);
	char buf[REPORT_NUM_LEN];
	long k;

	for (k = 0; k * ystep <= s->ymax * (1 + 1e-9); k++) {
		double y = tl_y(s, (double)k * ystep);
		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#e0e0e0\"/>\n"
			"<text class=\"ytick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
			"dominant-baseline=\"middle\">%s</text>\n",
			SVG_PLOT_LEFT, y, SVG_PLOT_RIGHT, y, SVG_PLOT_LEFT - 6, y,
			svg_tick_text(buf, sizeof(buf), (double)k * ystep, ystep));
	}
	for (k = 0; k * xstep <= s->xmax * (1 + 1e-9); k++) {
		double x = tl_x(s, (double)k * xstep);
		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#000000\"/>\n"
			"<text class=\"xtick\" x=\"%.1f\" y=\"%.1f\" "
			"text-anchor=\"middle\">%s</text>\n",
			x, TL_BOTTOM, x, TL_BOTTOM + 5, x, TL_BOTTOM + 18,
			svg_tick_text(buf, sizeof(buf), (double)k * xstep, xstep));
	}
	fprintf(out,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000000\"/>\n"
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000000\"/>\n"
		"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">seconds since the phase "
		"started (first window left out: queue fill)</text>\n"
		"<text x=\"20\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 20 "
		"%.1f)\">"
		"IOPS</text>\n",
		SVG_PLOT_LEFT, TL_BOTTOM, SVG_PLOT_RIGHT, TL_BOTTOM, SVG_PLOT_LEFT, TL_TOP,
		SVG_PLOT_LEFT, TL_BOTTOM, (SVG_PLOT_LEFT + SVG_PLOT_RIGHT) / 2, TL_BOTTOM + 38,
		(TL_TOP + TL_BOTTOM) / 2, (TL_TOP + TL_BOTTOM) / 2);
}

static void tl_point(FILE *out, const struct scale *s, const json_t *series, size_t i,
		     double window)
{
	double v = results_num(json_array_get(series, i));
	fprintf(out, " %.1f,%.1f", tl_x(s, (double)i * window), tl_y(s, isfinite(v) ? v : 0));
}

/* Samples [from, to) reduced to their min and max, in time order. */
static void tl_bucket(FILE *out, const struct scale *s, const json_t *series, size_t from,
		      size_t to, double window)
{
	size_t lo = from, hi = from;

	for (size_t i = from + 1; i < to; i++) {
		double v = results_num(json_array_get(series, i));
		if (v < results_num(json_array_get(series, lo)))
			lo = i;
		if (v > results_num(json_array_get(series, hi)))
			hi = i;
	}
	tl_point(out, s, series, lo < hi ? lo : hi, window);
	if (lo != hi)
		tl_point(out, s, series, lo < hi ? hi : lo, window);
}

/* Returns 1 when it drew a line, else 0. */
static int tl_line(FILE *out, const struct scale *s, const struct svg_entry *e, size_t index)
{
	const json_t *series = randread_series(e);
	double window = results_window_s(results_phase(e->run, "randread", e->label));
	size_t n = json_array_size(series), used = n > 1 ? n - 1 : 0, b;

	if (!used)
		return 0;
	fprintf(out,
		"<polyline class=\"series\" id=\"series-%zu\" fill=\"none\" stroke=\"%s\" "
		"stroke-width=\"1.5\" stroke-linejoin=\"round\" points=\"",
		index + 1, e->colour);
	if (used <= 2 * SVG_TIMELINE_BUCKETS) {
		for (b = 1; b < n; b++)
			tl_point(out, s, series, b, window);
	} else {
		for (b = 0; b < SVG_TIMELINE_BUCKETS; b++)
			tl_bucket(out, s, series, 1 + b * used / SVG_TIMELINE_BUCKETS,
				  1 + (b + 1) * used / SVG_TIMELINE_BUCKETS, window);
	}
	fputs("\"/>\n", out);
	return 1;
}

static void tl_mark(FILE *out, const struct scale *s, const struct svg_entry *e, double second,
		    const char *cls, const char *what, double label_y)
{
	char buf[REPORT_NUM_LEN];
	double x = tl_x(s, second);
	bool cliff = !strcmp(cls, "cliff");
	bool right_half = second > s->xmax * 0.75;

	if (!isfinite(second) || second < 0 || second > s->xmax)
		return;
	fprintf(out,
		"<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		"stroke-width=\"1.5\" stroke-dasharray=\"%s\" stroke-opacity=\"%s\"/>\n"
		"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" fill=\"%s\" "
		"fill-opacity=\"%s\">%s at %s s</text>\n",
		cls, x, TL_TOP, x, TL_BOTTOM, e->colour, cliff ? "6 4" : "2 4", cliff ? "1" : "0.4",
		/* Near the right edge the label goes left of its line, not off the chart. */
		right_half ? x - 4 : x + 4, label_y, right_half ? "end" : "start", e->colour,
		cliff ? "1" : "0.6", what,
		svg_tick_text(buf, sizeof(buf), second, second == floor(second) ? 1 : 0.1));
}

/* The cliff where it happened, and a lighter line where the model put it. */
static void tl_cliff_marks(FILE *out, const struct scale *s, const struct svg_entry *e, size_t k)
{
	const json_t *cliff = results_cliff_found(e->run, e->label);

	if (!cliff)
		return;
	tl_mark(out, s, e, results_num(json_object_get(cliff, "second")), "cliff", "cliff",
		TL_TOP + 14 + 14 * (double)k);
	tl_mark(out, s, e, results_num(json_object_get(cliff, "predicted_second")), "predicted",
		"predicted", TL_BOTTOM - 8 - 14 * (double)k);
}

int svg_iops_timeline(FILE *out, json_t *const *runs, size_t nruns)
{
	struct svg_entries es;
	struct scale s;
	double ystep;
	size_t i, cliffs = 0, lines = 0;
	int height;

	if (svg_entries_build(&es, runs, nruns)) {
		svg_entries_free(&es);
		return -1;
	}
	height = (int)TL_LEGEND_TOP + SVG_LEGEND_ROW * (int)es.count + 10;
	s = tl_scale(&es, &ystep);
	svg_begin(out, height, "Random read IOPS per second (randread)");
	tl_axes(out, &s, ystep);
	for (i = 0; i < es.count; i++)
		lines += tl_line(out, &s, &es.e[i], i);
	if (!lines)
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
			(SVG_PLOT_LEFT + SVG_PLOT_RIGHT) / 2, (TL_TOP + TL_BOTTOM) / 2,
			"no random read series in these results");
	for (i = 0; i < es.count; i++) {
		if (results_cliff_found(es.e[i].run, es.e[i].label))
			tl_cliff_marks(out, &s, &es.e[i], cliffs++);
	}
	svg_legend(out, &es, TL_LEGEND_TOP);
	svg_entries_free(&es);
	return svg_end(out);
}

/* ---- latency percentiles ---- */

#define LP_TOP 50.0
#define LP_ROW 22.0
#define LP_LEFT 250.0
#define LP_RIGHT 860.0

struct lp_row {
	const struct svg_entry *e;
	const char *phase;
	double ms[3]; /* p50, p95, p99 */
};

struct lp_scale {
	double lo, hi; /* log10 of the axis ends, whole decades */
};

static const char *const lp_keys[3] = { "50.000000", "95.000000", "99.000000" };

static double lp_x(const struct lp_scale *s, double ms)
{
	return LP_LEFT + (log10(ms) - s->lo) / (s->hi - s->lo) * (LP_RIGHT - LP_LEFT);
}

static bool lp_fill(struct lp_row *row, const struct svg_entry *e, const char *phase)
{
	const json_t *dir = results_direction(results_phase(e->run, phase, e->label));
	bool any = false;

	row->e = e;
	row->phase = phase;
	for (int k = 0; k < 3; k++) {
		row->ms[k] = results_clat_pct_ns(dir, lp_keys[k]) / 1e6;
		any = any || row->ms[k] > 0;
	}
	return any;
}

/* Phase names in the order they first ran, across runs. */
static json_t *lp_phase_names(json_t *const *runs, size_t nruns)
{
	json_t *names = json_array(), *p;
	size_t r, i, k;

	for (r = 0; r < nruns; r++) {
		json_array_foreach(json_object_get(runs[r], "phases"), i, p)
		{
			json_t *name = json_object_get(p, "phase");
			const json_t *seen;
			bool known = !json_is_string(name);
			json_array_foreach(names, k, seen)
			{
				known = known || json_equal(seen, name);
			}
			if (!known)
				json_array_append(names, name);
		}
	}
	return names;
}

/* Grouped by phase, then in column order. */
static size_t lp_rows(struct lp_row **rows, const json_t *names, const struct svg_entries *es)
{
	size_t n = 0, k, i;
	const json_t *name;

	*rows = calloc(json_array_size(names) * es->count + 1, sizeof(**rows));
	if (!*rows)
		return 0;
	json_array_foreach(names, k, name)
	{
		for (i = 0; i < es->count; i++)
			n += lp_fill(&(*rows)[n], &es->e[i], json_string_value(name));
	}
	return n;
}

static struct lp_scale lp_scale_of(const struct lp_row *rows, size_t n)
{
	double lo = HUGE_VAL, hi = -HUGE_VAL;
	struct lp_scale s;

	for (size_t i = 0; i < n; i++) {
		for (int k = 0; k < 3; k++) {
			if (rows[i].ms[k] > 0 && isfinite(rows[i].ms[k])) {
				lo = fmin(lo, rows[i].ms[k]);
				hi = fmax(hi, rows[i].ms[k]);
			}
		}
	}
	s.lo = isfinite(lo) ? floor(log10(lo)) : -1;
	s.hi = isfinite(hi) ? ceil(log10(hi)) : 2;
	if (s.hi <= s.lo)
		s.hi = s.lo + 1;
	return s;
}

static void lp_axes(FILE *out, const struct lp_scale *s, double bottom)
{
	char buf[REPORT_NUM_LEN];

	for (double d = s->lo; d <= s->hi; d++) {
		double v = pow(10, d), x = lp_x(s, v);
		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#c0c0c0\"/>\n"
			"<text class=\"xtick\" x=\"%.1f\" y=\"%.1f\" "
			"text-anchor=\"middle\">%s</text>\n",
			x, LP_TOP, x, bottom, x, bottom + 16,
			svg_tick_text(buf, sizeof(buf), v, v));
		for (int m = 2; m <= 5 && d < s->hi; m += 3)
			fprintf(out,
				"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				"stroke=\"#eeeeee\"/>\n",
				lp_x(s, m * v), LP_TOP, lp_x(s, m * v), bottom);
	}
	fprintf(out,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000000\"/>\n"
		"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">completion latency, ms "
		"(log scale)</text>\n",
		LP_LEFT, bottom, LP_RIGHT, bottom, (LP_LEFT + LP_RIGHT) / 2, bottom + 34);
}

/* p50 a circle, p95 a square, p99 a diamond. */
static void lp_marker(FILE *out, int k, double x, double y, const char *colour)
{
	if (k == 0)
		fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\"/>\n", x, y,
			colour);
	else if (k == 1)
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" fill=\"%s\"/>\n",
			x - 4, y - 4, colour);
	else /* hollow: a p99 on top of a p95 still shows */
		fprintf(out,
			"<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\" "
			"fill=\"#ffffff\" stroke=\"%s\" stroke-width=\"1.5\"/>\n",
			x, y - 5.5, x + 5.5, y, x, y + 5.5, x - 5.5, y, colour);
}

static void lp_row_draw(FILE *out, const struct lp_scale *s, const struct lp_row *row, double y,
			bool fleet)
{
	char buf[REPORT_NUM_LEN];
	double first = NAN, last = NAN;

	fprintf(out,
		"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" dominant-baseline=\"middle\">",
		LP_LEFT - 10, y);
	svg_put_xml(out, row->phase);
	fputs(" \xc2\xb7 ", out);
	svg_put_xml(out, fleet ? row->e->name : row->e->label);
	fputs("</text>\n", out);
	for (int k = 0; k < 3; k++) {
		if (row->ms[k] > 0) {
			first = isnan(first) ? lp_x(s, row->ms[k]) : first;
			last = lp_x(s, row->ms[k]);
		}
	}
	fprintf(out,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		"stroke-width=\"2\" stroke-opacity=\"0.5\"/>\n",
		first, y, last, y, row->e->colour);
	for (int k = 0; k < 3; k++) {
		if (row->ms[k] > 0)
			lp_marker(out, k, lp_x(s, row->ms[k]), y, row->e->colour);
	}
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" dominant-baseline=\"middle\">p99 %s</text>\n",
		last + 10, y, report_ms(buf, sizeof(buf), row->ms[2] * 1e6));
}

static void lp_marker_legend(FILE *out, double y)
{
	static const char *const names[3] = { "p50", "p95", "p99" };

	for (int k = 0; k < 3; k++) {
		lp_marker(out, k, SVG_PLOT_LEFT + 8 + 70 * k, y, "#555555");
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" dominant-baseline=\"middle\">%s</text>\n",
			SVG_PLOT_LEFT + 18 + 70 * k, y, names[k]);
	}
}

int svg_latency_percentiles(FILE *out, json_t *const *runs, size_t nruns)
{
	struct svg_entries es;
	struct lp_row *rows = NULL;
	json_t *names;
	size_t n, i;
	double bottom;
	struct lp_scale s;

	if (svg_entries_build(&es, runs, nruns)) {
		svg_entries_free(&es);
		return -1;
	}
	names = lp_phase_names(runs, nruns);
	n = lp_rows(&rows, names, &es);
	s = lp_scale_of(rows, n);
	bottom = LP_TOP + LP_ROW * (double)(n ? n : 1);
	svg_begin(out, (int)bottom + 80 + SVG_LEGEND_ROW * (int)es.count,
		  "Completion latency p50 / p95 / p99 per phase");
	lp_axes(out, &s, bottom);
	if (!n)
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
			(LP_LEFT + LP_RIGHT) / 2, LP_TOP + LP_ROW / 2,
			"no latency percentiles in these results");
	for (i = 0; i < n; i++) {
		double y = LP_TOP + LP_ROW * (double)i;
		/* A rule between phase groups. */
		if (i && strcmp(rows[i].phase, rows[i - 1].phase))
			fprintf(out,
				"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				"stroke=\"#999999\" stroke-dasharray=\"1 3\"/>\n",
				SVG_PLOT_LEFT, y, LP_RIGHT, y);
		lp_row_draw(out, &s, &rows[i], y + LP_ROW / 2, nruns > 1);
	}
	lp_marker_legend(out, bottom + 56);
	svg_legend(out, &es, bottom + 56 + SVG_LEGEND_ROW);
	free(rows);
	json_decref(names);
	svg_entries_free(&es);
	return svg_end(out);
}
