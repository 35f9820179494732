/* svg_heatmap.c - the latency heatmap: for each device and each phase that
 * recorded per-window histograms (randread and lat), latency over time as
 * colour, with the p50 and p99 lines over it (svg.h states the rules). */
#include "report/svg.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_format.h"
#include "report/svg_draw.h"
#include "results/results.h"
#include "stats/stats.h"

#define HM_TOP 44.0	     /* the first panel's top */
#define HM_HEADING 22.0	     /* a panel's heading above its plot */
#define HM_PLOT_HEIGHT 200.0 /* a panel's plot */
#define HM_PANEL 290.0	     /* a panel: heading, plot, x axis */
#define HM_MAX_COLUMNS 210   /* columns of at least 4 px */
#define HM_MIN_ROW_PX 8.0    /* bands of at least 8 px */
#define HM_EDGE_PCT 0.1	     /* the y axis spans p0.1 .. p99.9 */
#define HM_LEGEND_HEIGHT 70.0
#define HM_CLASSES 7

/* A share's colour class: (0, 0.5 %], (0.5, 2], (2, 5], (5, 10], (10, 20],
 * (20, 40], (40, 100]; pale for a few I/Os, dark for most of them. */
static const double class_top[HM_CLASSES] = { 0.005, 0.02, 0.05, 0.10, 0.20, 0.40, 1.0 };
static const char *const class_fill[HM_CLASSES] = { "#fde725", "#a0da39", "#4ac16d", "#1fa187",
						    "#277f8e", "#365c8d", "#46327e" };
static const char *const class_name[HM_CLASSES] = { "\xe2\x89\xa4 0.5 %",
						    "0.5\xe2\x80\x93"
						    "2 %",
						    "2\xe2\x80\x93"
						    "5 %",
						    "5\xe2\x80\x93"
						    "10 %",
						    "10\xe2\x80\x93"
						    "20 %",
						    "20\xe2\x80\x93"
						    "40 %",
						    "> 40 %" };

/* One panel's histograms, windows merged into columns.  Its y axis maps
 * ms to pixels above the plot's bottom (0 .. -HM_PLOT_HEIGHT). */
struct hm_panel {
	const struct svg_entry *e;
	const json_t *phase_json;
	const char *phase;
	size_t windows, columns, per_column;
	unsigned bins, coarseness, group; /* group: bins per band */
	unsigned low_bin, high_bin;	  /* the bins at the axis' ends */
	double window_s;
	uint64_t *cells; /* columns x bins */
	uint64_t *total; /* bins, every window merged */
	struct svg_axis x, y;
};

/* The lowest ns in bin j; the highest + 1 for its upper edge. */
static double bin_low(const struct hm_panel *p, unsigned j)
{
	return (double)histogram_bucket_low(j << p->coarseness);
}

static double bin_high(const struct hm_panel *p, unsigned j)
{
	uint64_t high = histogram_bucket_high(((j + 1) << p->coarseness) - 1);
	return high == UINT64_MAX ? 2 * bin_low(p, j) : (double)high + 1;
}

/* The pct-th percentile of counts in ns, interpolated in its bin; NaN if empty. */
static double hm_percentile(const struct hm_panel *p, const uint64_t *counts, double pct)
{
	struct histogram_coarse_pct at;
	histogram_coarse_percentile(counts, p->bins, p->coarseness, pct, &at);
	return at.ns;
}

/* Bins per band: 4, 2 or 1 band per octave, the finest whose bands are
 * at least HM_MIN_ROW_PX high. */
static unsigned hm_group(const struct hm_panel *p)
{
	unsigned per_octave = HISTOGRAM_PER_GROUP >> p->coarseness;
	double octaves = log2(bin_high(p, p->high_bin) / fmax(1, bin_low(p, p->low_bin)));

	for (unsigned bands = 4; bands > 1; bands /= 2) {
		if (bands <= per_octave && octaves * bands * HM_MIN_ROW_PX <= HM_PLOT_HEIGHT)
			return per_octave / bands;
	}
	return per_octave; /* coarseness <= 6: at least 1 */
}

/* The y axis: the bands holding p0.1 and p99.9 of every window merged
 * (one band more each side when they are the same band). */
static void hm_y_range(struct hm_panel *p)
{
	struct histogram_coarse_pct edge;

	histogram_coarse_percentile(p->total, p->bins, p->coarseness, HM_EDGE_PCT, &edge);
	p->low_bin = edge.bin;
	histogram_coarse_percentile(p->total, p->bins, p->coarseness, 100 - HM_EDGE_PCT, &edge);
	p->high_bin = edge.bin;
	p->group = hm_group(p);
	p->low_bin -= p->low_bin % p->group;
	p->high_bin += p->group - 1 - p->high_bin % p->group;
	if (p->low_bin + p->group > p->high_bin) {
		p->low_bin = p->low_bin >= p->group ? p->low_bin - p->group : 0;
		if (p->high_bin + p->group < p->bins)
			p->high_bin += p->group;
	}
	p->y = (struct svg_axis){ fmax(1, bin_low(p, p->low_bin)) / 1e6,
				  bin_high(p, p->high_bin) / 1e6, 0, -HM_PLOT_HEIGHT, true };
}

/* Reads a phase's clat_hist into p; false (p empty) when it has none. */
static bool hm_load(struct hm_panel *p, const json_t *phase)
{
	const json_t *hist = json_object_get(phase, "clat_hist");
	const json_t *windows = json_object_get(hist, "windows");
	double bins = results_num(json_object_get(hist, "bins"));
	double coarseness = results_num(json_object_get(hist, "coarseness"));

	p->windows = json_array_size(windows);
	if (!p->windows || !(coarseness >= 0 && coarseness <= 6) ||
	    bins != (double)((HISTOGRAM_FIO_GROUPS * HISTOGRAM_PER_GROUP) >> (unsigned)coarseness))
		return false;
	p->bins = (unsigned)bins;
	p->coarseness = (unsigned)coarseness;
	p->window_s = results_num_or(hist, "window_ms", 1000) / 1000;
	p->per_column = (p->windows + HM_MAX_COLUMNS - 1) / HM_MAX_COLUMNS;
	p->columns = (p->windows + p->per_column - 1) / p->per_column;
	p->cells = calloc(p->columns * p->bins, sizeof(*p->cells));
	p->total = calloc(p->bins, sizeof(*p->total));
	if (!p->cells || !p->total)
		return false;
	for (size_t w = 0; w < p->windows; w++) {
		if (results_hist_window(json_array_get(windows, w),
					p->cells + w / p->per_column * p->bins, p->bins) < 0)
			return false;
	}
	uint64_t all = 0;
	for (size_t i = 0; i < p->columns * p->bins; i++) {
		p->total[i % p->bins] += p->cells[i];
		all += p->cells[i];
	}
	return all > 0;
}

static void hm_free(struct hm_panel *p)
{
	free(p->cells);
	free(p->total);
	p->cells = p->total = NULL;
}

/* A column's I/Os in the band starting at bin b, those beyond the axis
 * counted in its edge bands. */
static uint64_t hm_band(const struct hm_panel *p, size_t column, unsigned b)
{
	const uint64_t *c = p->cells + column * p->bins;
	unsigned from = b == p->low_bin ? 0 : b;
	unsigned to = b + p->group > p->high_bin ? p->bins : b + p->group;
	uint64_t n = 0;

	for (unsigned j = from; j < to; j++)
		n += c[j];
	return n;
}

static uint64_t hm_column_total(const struct hm_panel *p, size_t column)
{
	uint64_t n = 0;

	for (unsigned j = 0; j < p->bins; j++)
		n += p->cells[column * p->bins + j];
	return n;
}

/* 0 for no I/O, else 1 + the colour class of share. */
static int hm_class(uint64_t count, uint64_t total)
{
	double share = total ? (double)count / (double)total : 0;
	int k = 0;

	if (!count)
		return 0;
	while (k < HM_CLASSES - 1 && share > class_top[k])
		k++;
	return k + 1;
}

/* The x of a column's left edge (or of column == columns: the right end). */
static double hm_column_x(const struct hm_panel *p, size_t column)
{
	size_t w = column * p->per_column;
	return svg_axis_at(&p->x, (double)(w < p->windows ? w : p->windows) * p->window_s);
}

/* One band's cells, neighbours of one class drawn as one rectangle. */
static void hm_band_cells(FILE *out, const struct hm_panel *p, unsigned b, double bottom)
{
	double y1 = bottom + svg_axis_at(&p->y, fmax(bin_low(p, b) / 1e6, p->y.lo));
	double y0 = bottom + svg_axis_at(&p->y, bin_high(p, b + p->group - 1) / 1e6);

	for (size_t c = 0; c < p->columns;) {
		int k = hm_class(hm_band(p, c, b), hm_column_total(p, c));
		size_t end = c + 1;
		while (end < p->columns &&
		       hm_class(hm_band(p, end, b), hm_column_total(p, end)) == k)
			end++;
		if (k)
			fprintf(out,
				"<rect class=\"cell c%d\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				"height=\"%.1f\" fill=\"%s\"/>\n",
				k, hm_column_x(p, c), y0, hm_column_x(p, end) - hm_column_x(p, c),
				y1 - y0, class_fill[k - 1]);
		c = end;
	}
}

/* The pct-th percentile of each column, as a line (class "p50" / "p99")
 * over a white halo, through the columns' middles. */
static void hm_line(FILE *out, const struct hm_panel *p, double pct, const char *cls,
		    const char *colour, const char *dash, double bottom)
{
	for (int halo = 1; halo >= 0; halo--) {
		fprintf(out,
			"<polyline class=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" "
			"stroke-dasharray=\"%s\" stroke-linejoin=\"round\" points=\"",
			halo ? "halo" : cls, halo ? "#ffffff" : colour, halo ? "4" : "1.8",
			halo ? "none" : dash);
		for (size_t c = 0; c < p->columns; c++) {
			double ns = hm_percentile(p, p->cells + c * p->bins, pct);
			double ms = fmin(fmax(ns / 1e6, p->y.lo), p->y.hi);
			if (isfinite(ns))
				fprintf(out, " %.1f,%.1f",
					(hm_column_x(p, c) + hm_column_x(p, c + 1)) / 2,
					bottom + svg_axis_at(&p->y, ms));
		}
		fputs("\"/>\n", out);
	}
}

/* A percentile for the heading: the job's own (fio's, exact to its bins),
 * else from every window merged. */
static double hm_phase_pct(const struct hm_panel *p, const char *key, double pct)
{
	double ns = results_clat_pct_ns(results_direction(p->phase_json), key);
	return isfinite(ns) && ns > 0 ? ns : hm_percentile(p, p->total, pct);
}

/* "randread · gp2 (gp2, 100 GiB): p50 0.600 ms, p99 3.39 ms over 600 windows". */
static void hm_heading(FILE *out, const struct hm_panel *p, double top)
{
	char p50[REPORT_NUM_LEN], p99[REPORT_NUM_LEN];

	fprintf(out, "<text class=\"panel-title\" x=\"%.1f\" y=\"%.1f\" font-size=\"13\">",
		SVG_PLOT_LEFT, top - 8);
	svg_put_xml(out, p->phase);
	fputs(" \xc2\xb7 ", out);
	svg_put_xml(out, p->e->name);
	fprintf(out, ": p50 %s, p99 %s over %zu windows</text>\n",
		report_ms(p50, sizeof(p50), hm_phase_pct(p, "50.000000", 50)),
		report_ms(p99, sizeof(p99), hm_phase_pct(p, "99.000000", 99)), p->windows);
}

/* One panel whose plot starts at top. */
static void hm_panel_draw(FILE *out, struct hm_panel *p, size_t index, double top)
{
	struct svg_axis y_page;

	p->x = (struct svg_axis){ 0, (double)p->windows * p->window_s, SVG_PLOT_LEFT,
				  SVG_PLOT_RIGHT, false };
	hm_y_range(p);
	y_page = p->y;
	y_page.from += top + HM_PLOT_HEIGHT;
	y_page.to += top + HM_PLOT_HEIGHT;
	fprintf(out, "<g class=\"panel\" id=\"heatmap-%zu\">\n", index + 1);
	hm_heading(out, p, top);
	svg_log_y_ticks(out, &y_page, SVG_PLOT_LEFT, SVG_PLOT_RIGHT);
	for (unsigned b = p->low_bin; b <= p->high_bin; b += p->group)
		hm_band_cells(out, p, b, top + HM_PLOT_HEIGHT);
	hm_line(out, p, 50, "p50", "#000000", "none", top + HM_PLOT_HEIGHT);
	hm_line(out, p, 99, "p99", "#d62728", "6 3", top + HM_PLOT_HEIGHT);
	svg_x_ticks(out, &p->x, svg_nice_step(p->x.hi, 8), top + HM_PLOT_HEIGHT);
	svg_axis_titles(out, SVG_PLOT_LEFT, SVG_PLOT_RIGHT, top, top + HM_PLOT_HEIGHT,
			"time since the phase started, s", "completion latency, ms (log)");
	fputs("</g>\n", out);
}

/* The colour classes and the two lines, once under every panel. */
static void hm_legend(FILE *out, double y)
{
	fprintf(out,
		"<text x=\"%.1f\" y=\"%.1f\">share of the window's I/Os in each latency "
		"band (I/Os beyond the axis counted in its edge bands)</text>\n",
		SVG_PLOT_LEFT, y);
	for (int k = 0; k < HM_CLASSES; k++)
		fprintf(out,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"14\" fill=\"%s\"/>\n"
			"<text x=\"%.1f\" y=\"%.1f\" dominant-baseline=\"middle\">%s</text>\n",
			SVG_PLOT_LEFT + 92.0 * k, y + 10, class_fill[k],
			SVG_PLOT_LEFT + 92.0 * k + 18, y + 17, class_name[k]);
	fprintf(out,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000000\" "
		"stroke-width=\"1.8\"/>\n<text x=\"%.1f\" y=\"%.1f\" dominant-baseline=\"middle\">"
		"p50 of the window</text>\n"
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d62728\" "
		"stroke-width=\"1.8\" stroke-dasharray=\"6 3\"/>\n<text x=\"%.1f\" y=\"%.1f\" "
		"dominant-baseline=\"middle\">p99 of the window</text>\n",
		SVG_PLOT_LEFT, y + 44, SVG_PLOT_LEFT + 24, y + 44, SVG_PLOT_LEFT + 30, y + 44,
		SVG_PLOT_LEFT + 180, y + 44, SVG_PLOT_LEFT + 204, y + 44, SVG_PLOT_LEFT + 210,
		y + 44);
}

/* Every panel to draw: each device (in column order), each of its phases
 * with histograms, in the order they ran; at most SVG_HEATMAP_MAX_PANELS. */
static size_t hm_panels(struct hm_panel *panels, const struct svg_entries *es, size_t *left_out)
{
	size_t n = 0;

	*left_out = 0;
	for (size_t i = 0; i < es->count; i++) {
		const json_t *phase;
		size_t k;
		json_array_foreach(json_object_get(es->e[i].run, RESULTS_KEY_PHASES), k, phase)
		{
			struct hm_panel *p = &panels[n];
			if (!results_str_is(json_object_get(phase, "device"), es->e[i].label))
				continue;
			memset(p, 0, sizeof(*p));
			p->e = &es->e[i];
			p->phase_json = phase;
			p->phase = json_string_value(json_object_get(phase, "phase"));
			bool loaded = p->phase && hm_load(p, phase);
			if (loaded && n < SVG_HEATMAP_MAX_PANELS) {
				n++;
				continue;
			}
			*left_out += loaded;
			hm_free(p);
		}
	}
	return n;
}

int svg_latency_heatmap(FILE *out, json_t *const *runs, size_t nruns)
{
	struct svg_entries es;
	struct hm_panel panels[SVG_HEATMAP_MAX_PANELS + 1];
	size_t n, left_out, i;
	double bottom;

	if (svg_entries_build(&es, runs, nruns)) {
		svg_entries_free(&es);
		return -1;
	}
	n = hm_panels(panels, &es, &left_out);
	bottom = HM_TOP + HM_PANEL * (double)(n ? n : 1);
	svg_begin(out, (int)(bottom + HM_LEGEND_HEIGHT + (left_out ? 20 : 0)),
		  "Completion latency over time (share of each window's I/Os)");
	if (!n)
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
			SVG_WIDTH / 2, HM_TOP + HM_PANEL / 2,
			"no latency histograms in these results (a run records them for randread "
			"and lat)");
	for (i = 0; i < n; i++) {
		hm_panel_draw(out, &panels[i], i, HM_TOP + HM_HEADING + HM_PANEL * (double)i);
		hm_free(&panels[i]);
	}
	hm_legend(out, bottom);
	if (left_out)
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">%zu more panels left out</text>\n",
			SVG_PLOT_LEFT, bottom + HM_LEGEND_HEIGHT + 6, left_out);
	svg_entries_free(&es);
	return svg_end(out);
}
