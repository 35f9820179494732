/* svg.c - the IOPS timeline (the reference benchmark's figure: gp2 at 3,000 IOPS, then
 * 300 from one second to the next; an st1/sc1's 1 MiB reads at their cliff) and the
 * latency percentile chart. */
#include "report/svg.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "results/results.h"
#include "report/report_format.h"
#include "report/svg_draw.h"
#include "stats/stats.h"

/* ---- IOPS timeline ---- */

#define TL_TOP 60.0
#define TL_BOTTOM 420.0
#define TL_LEGEND_TOP 470.0

struct scale {
	struct svg_axis x, y;
	double ystep;
};

/* The phase whose cliff the timeline shows: randread of 4 KiB, or on
 * st1/sc1 seqread of 1 MiB (HDD's plan runs no randread; its IOPS are
 * then MiB/s). */
static const char *tl_phase(const struct svg_entry *e)
{
	return analysis_cliff_phase(results_device(e->run, e->label));
}

static const json_t *tl_phase_of(const struct svg_entry *e)
{
	return results_phase(e->run, tl_phase(e), e->label);
}

static const json_t *tl_series(const struct svg_entry *e)
{
	return json_object_get(tl_phase_of(e), "iops_series");
}

/* A series' SVG_ROBUST_PERCENTILE-th window (the first left out); 0 for none. */
static double robust_top(const json_t *series)
{
	size_t n = json_array_size(series), used = 0;
	double *v = malloc((n ? n : 1) * sizeof(*v)), top = 0;

	if (!v)
		return 0;
	for (size_t i = 1; i < n; i++) {
		double value = results_num(json_array_get(series, i));
		if (isfinite(value))
			v[used++] = value;
	}
	stats_sort(v, used);
	if (used)
		top = v[(size_t)ceil(SVG_ROBUST_PERCENTILE / 100 * (double)used) - 1];
	free(v);
	return top;
}

/* x spans the longest phase; y the robust tops of every series, with
 * headroom, rounded up to a tick (svg.h states the rule). */
static struct scale tl_scale(const struct svg_entries *es)
{
	struct scale s = { .x = { 0, 0, SVG_PLOT_LEFT, SVG_PLOT_RIGHT, false },
			   .y = { 0, 0, TL_BOTTOM, TL_TOP, false } };

	for (size_t i = 0; i < es->count; i++) {
		const json_t *series = tl_series(&es->e[i]);
		double window = results_window_s(tl_phase_of(&es->e[i]));
		s.x.hi = fmax(s.x.hi, (double)json_array_size(series) * window);
		s.y.hi = fmax(s.y.hi, robust_top(series));
	}
	if (!(s.x.hi > 0))
		s.x.hi = 1;
	if (!(s.y.hi > 0))
		s.y.hi = 1;
	s.ystep = svg_nice_step(s.y.hi * SVG_ROBUST_HEADROOM, 6);
	s.y.hi = ceil(s.y.hi * SVG_ROBUST_HEADROOM / s.ystep) * s.ystep;
	return s;
}

static void tl_axes(FILE *out, const struct scale *s)
{
	svg_y_ticks(out, &s->y, s->ystep, SVG_PLOT_LEFT, SVG_PLOT_RIGHT);
	svg_x_ticks(out, &s->x, svg_nice_step(s->x.hi, 8), TL_BOTTOM);
	svg_axis_titles(out, SVG_PLOT_LEFT, SVG_PLOT_RIGHT, TL_TOP, TL_BOTTOM,
			"time since the phase started, s (first window left out: queue fill)",
			"IOPS (I/Os per second, per window)");
}

/* A window's value; a missing one counts as 0. */
static double tl_value(const json_t *series, size_t i)
{
	double v = results_num(json_array_get(series, i));
	return isfinite(v) ? v : 0;
}

/* Samples [from, to) reduced to their min and max, in time order. */
static size_t tl_bucket(size_t *drawn, const json_t *series, size_t from, size_t to)
{
	size_t lo = from, hi = from;

	for (size_t i = from + 1; i < to; i++) {
		double v = tl_value(series, i);
		if (v < tl_value(series, lo))
			lo = i;
		if (v > tl_value(series, hi))
			hi = i;
	}
	drawn[0] = lo < hi ? lo : hi;
	drawn[1] = lo < hi ? hi : lo;
	return lo == hi ? 1 : 2;
}

/* The windows the line visits: all but the first, or each bucket's min
 * and max when there are too many.  Returns how many. */
static size_t tl_drawn(size_t *drawn, const json_t *series)
{
	size_t n = json_array_size(series), used = n > 1 ? n - 1 : 0, count = 0;

	if (used <= 2 * SVG_TIMELINE_BUCKETS) {
		for (size_t i = 1; i < n; i++)
			drawn[count++] = i;
		return count;
	}
	for (size_t b = 0; b < SVG_TIMELINE_BUCKETS; b++)
		count += tl_bucket(drawn + count, series, 1 + b * used / SVG_TIMELINE_BUCKETS,
				   1 + (b + 1) * used / SVG_TIMELINE_BUCKETS);
	return count;
}

/* A window above the axis: a triangle on the top edge (its value in a
 * tooltip), the series' highest one labelled. */
static void tl_outliers(FILE *out, const struct scale *s, const struct svg_entry *e, size_t index,
			const json_t *series, const size_t *drawn, size_t count, double window)
{
	char buf[REPORT_NUM_LEN];
	size_t top = SIZE_MAX;

	for (size_t k = 0; k < count; k++) {
		double v = tl_value(series, drawn[k]),
		       x = svg_axis_at(&s->x, (double)drawn[k] * window);
		if (v <= s->y.hi)
			continue;
		if (top == SIZE_MAX || v > tl_value(series, top))
			top = drawn[k];
		fprintf(out,
			"<polygon class=\"outlier\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" "
			"fill=\"%s\"><title>%s IOPS</title></polygon>\n",
			x, TL_TOP - 7, x + 4.5, TL_TOP, x - 4.5, TL_TOP, e->colour,
			report_count(buf, sizeof(buf), v));
	}
	if (top != SIZE_MAX)
		fprintf(out,
			"<text class=\"outlier-label\" x=\"%.1f\" y=\"%.1f\" fill=\"%s\">%s "
			"IOPS</text>\n",
			svg_axis_at(&s->x, (double)top * window) + 7,
			TL_TOP + 12 + 14 * (double)index, e->colour,
			report_count(buf, sizeof(buf), tl_value(series, top)));
}

/* Returns 1 when it drew a line, else 0; *outliers counts its windows
 * above the axis. */
static int tl_line(FILE *out, const struct scale *s, const struct svg_entry *e, size_t index,
		   size_t *outliers)
{
	const json_t *series = tl_series(e);
	double window = results_window_s(tl_phase_of(e));
	size_t *drawn =
		malloc((2 * SVG_TIMELINE_BUCKETS + json_array_size(series)) * sizeof(*drawn));
	size_t count = drawn ? tl_drawn(drawn, series) : 0;

	if (count) {
		fprintf(out,
			"<polyline class=\"series\" id=\"series-%zu\" fill=\"none\" stroke=\"%s\" "
			"stroke-width=\"1.5\" stroke-linejoin=\"round\" points=\"",
			index + 1, e->colour);
		for (size_t k = 0; k < count; k++)
			fprintf(out, " %.1f,%.1f", svg_axis_at(&s->x, (double)drawn[k] * window),
				svg_axis_at(&s->y, fmin(tl_value(series, drawn[k]), s->y.hi)));
		fputs("\"/>\n", out);
		for (size_t i = 1; i < json_array_size(series); i++)
			*outliers += tl_value(series, i) > s->y.hi;
		tl_outliers(out, s, e, index, series, drawn, count, window);
	}
	free(drawn);
	return count ? 1 : 0;
}

static void tl_mark(FILE *out, const struct scale *s, const struct svg_entry *e, double second,
		    const char *cls, const char *what, double label_y)
{
	char buf[REPORT_NUM_LEN];
	double x = svg_axis_at(&s->x, second);
	bool cliff = !strcmp(cls, "cliff");
	bool right_half = second > s->x.hi * 0.75;

	if (!isfinite(second) || second < 0 || second > s->x.hi)
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
		TL_TOP + 14 + 28 * (double)k);
	tl_mark(out, s, e, results_num(json_object_get(cliff, "predicted_second")), "predicted",
		"predicted", TL_TOP + 28 + 28 * (double)k);
}

/* Says what the triangles on the top edge are, when there are any. */
static void tl_outlier_note(FILE *out, const struct scale *s, size_t outliers)
{
	if (outliers) {
		char buf[REPORT_NUM_LEN];
		fprintf(out,
			"<text class=\"outlier-note\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">"
			"\xe2\x96\xb2 %zu window%s above %s IOPS, drawn at the top edge</text>\n",
			SVG_PLOT_RIGHT, TL_TOP - 12, outliers, outliers == 1 ? "" : "s",
			report_count(buf, sizeof(buf), s->y.hi));
	}
}

int svg_iops_timeline(FILE *out, json_t *const *runs, size_t nruns)
{
	struct svg_entries es;
	struct scale s;
	size_t i, cliffs = 0, lines = 0, outliers = 0, hdd = 0;
	int height;

	if (svg_entries_build(&es, runs, nruns)) {
		svg_entries_free(&es);
		return -1;
	}
	height = (int)TL_LEGEND_TOP + SVG_LEGEND_ROW * (int)es.count + 10;
	s = tl_scale(&es);
	/* A volume timed by its 1 MiB reads says so in its legend row. */
	for (i = 0; i < es.count; i++) {
		if (strcmp(tl_phase(&es.e[i]), "randread")) {
			size_t n = strlen(es.e[i].name);
			snprintf(es.e[i].name + n, sizeof(es.e[i].name) - n,
				 ": %s of 1 MiB, IOPS = MiB/s", tl_phase(&es.e[i]));
			hdd++;
		}
	}
	svg_begin(
		out, height,
		hdd ? "IOPS per second of each volume's cliff phase (randread; seqread on st1/sc1)"
		    : "Random read IOPS per second (randread)");
	tl_axes(out, &s);
	for (i = 0; i < es.count; i++)
		lines += tl_line(out, &s, &es.e[i], i, &outliers);
	if (!lines)
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
			(SVG_PLOT_LEFT + SVG_PLOT_RIGHT) / 2, (TL_TOP + TL_BOTTOM) / 2,
			hdd ? "no series of a cliff phase in these results"
			    : "no random read series in these results");
	tl_outlier_note(out, &s, outliers);
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
		json_array_foreach(json_object_get(runs[r], RESULTS_KEY_PHASES), i, p)
		{
			json_t *name = json_object_get(p, "phase");
			const json_t *seen;
			/* A phase run in steps has its own chart (latency_vs_load.svg,
			 * throughput_vs_block_size.svg): one row would show its first
			 * step only. */
			bool known = !json_is_string(name) ||
				     results_str_is(name, RESULTS_PHASE_LOADCURVE) ||
				     results_str_is(name, RESULTS_PHASE_SWEEP);
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
