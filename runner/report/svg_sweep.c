/* svg_sweep.c - throughput against block size (seed 002's table as a
 * chart): per volume the measured MiB/s of each sweep step as points on a
 * solid line, the model's prediction as a dashed line in the same colour,
 * the 2 MiB read (hdparm --direct -t) as a hollow point. */
#include "report/svg_sweep.h"

#include <math.h>
#include <string.h>

#include "report/report_format.h"
#include "report/svg_draw.h"
#include "results/results.h"

#define SW_TOP 60.0
#define SW_BOTTOM 420.0
#define SW_LEGEND_TOP 520.0
#define SW_KIB 1024.0

/* The axes' extent: block sizes (log 2 of KiB) and MiB/s. */
struct sweep_scale {
	double log2_min, log2_max, ymax, ystep;
};

static const json_t *sweep_of(const struct svg_entry *e)
{
	return json_object_get(results_analysis_device(e->run, e->label), "sweep");
}

static double sw_x(const struct sweep_scale *s, double bs)
{
	double l = log2(bs / SW_KIB);
	return SVG_PLOT_LEFT +
	       (l - s->log2_min) / (s->log2_max - s->log2_min) * (SVG_PLOT_RIGHT - SVG_PLOT_LEFT);
}

static double sw_y(const struct sweep_scale *s, double mibs)
{
	return SW_BOTTOM - mibs / s->ymax * (SW_BOTTOM - SW_TOP);
}

/* x spans the steps' block sizes (16 KiB..2 MiB by default), y the
 * highest figure measured or predicted, rounded up to a tick. */
static struct sweep_scale sw_scale(const struct svg_entries *es)
{
	struct sweep_scale s = { log2(16), log2(2048), 0, 1 };
	for (size_t i = 0; i < es->count; i++) {
		size_t k;
		const json_t *step;
		json_array_foreach(sweep_of(&es->e[i]), k, step)
		{
			double bs = results_num_or(step, "bs", 0);
			if (bs >= SW_KIB) {
				s.log2_min = fmin(s.log2_min, floor(log2(bs / SW_KIB)));
				s.log2_max = fmax(s.log2_max, ceil(log2(bs / SW_KIB)));
			}
			s.ymax = fmax(s.ymax, results_num_or(step, "measured_mibs", 0));
			s.ymax = fmax(s.ymax, results_num_or(step, "predicted_mibs", 0));
		}
	}
	if (!(s.ymax > 0))
		s.ymax = 1;
	s.ystep = svg_nice_step(s.ymax, 6);
	s.ymax = ceil(s.ymax / s.ystep) * s.ystep;
	return s;
}

/* Grid, ticks (every power of two on x) and both axis titles with units. */
static void sw_axes(FILE *out, const struct sweep_scale *s)
{
	char buf[REPORT_NUM_LEN];
	svg_y_grid(out, SW_TOP, SW_BOTTOM, s->ymax, s->ystep);
	for (double l = s->log2_min; l <= s->log2_max + 1e-9; l++) {
		double kib = exp2(l), x = sw_x(s, kib * SW_KIB);
		if (kib >= SW_KIB)
			snprintf(buf, sizeof(buf), "%.0fM", kib / SW_KIB);
		else
			snprintf(buf, sizeof(buf), "%.0fk", kib);
		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#e0e0e0\"/>\n"
			"<text class=\"xtick\" x=\"%.1f\" y=\"%.1f\" "
			"text-anchor=\"middle\">%s</text>\n",
			x, SW_TOP, x, SW_BOTTOM, x, SW_BOTTOM + 16, buf);
	}
	fprintf(out,
		"<text class=\"xlabel\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">block size "
		"(bytes per I/O, log2 scale; qd1, O_DIRECT)</text>\n"
		"<text class=\"ylabel\" x=\"20\" y=\"%.1f\" text-anchor=\"middle\" "
		"transform=\"rotate(-90 20 %.1f)\">throughput (MiB/s)</text>\n",
		(SVG_PLOT_LEFT + SVG_PLOT_RIGHT) / 2, SW_BOTTOM + 40, (SW_TOP + SW_BOTTOM) / 2,
		(SW_TOP + SW_BOTTOM) / 2);
}

/* One polyline through the writes' `key` figures (the read stands apart). */
static void sw_line(FILE *out, const struct sweep_scale *s, const json_t *sweep, const char *key,
		    const char *colour, const char *dash)
{
	size_t k;
	const json_t *step;
	fprintf(out,
		"<polyline class=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s "
		"points=\"",
		key, colour, dash);
	json_array_foreach(sweep, k, step)
	{
		double v = results_num_or(step, key, NAN);
		if (results_str_is(json_object_get(step, "rw"), "write") && isfinite(v))
			fprintf(out, "%.1f,%.1f ", sw_x(s, results_num_or(step, "bs", 1)),
				sw_y(s, v));
	}
	fputs("\"/>\n", out);
}

/* The measured points: filled for the writes, hollow for the read. */
static void sw_points(FILE *out, const struct sweep_scale *s, const json_t *sweep,
		      const char *colour)
{
	size_t k;
	const json_t *step;
	json_array_foreach(sweep, k, step)
	{
		double v = results_num_or(step, "measured_mibs", NAN);
		bool write = results_str_is(json_object_get(step, "rw"), "write");
		if (isfinite(v))
			fprintf(out,
				"<circle class=\"measured\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" "
				"fill=\"%s\" stroke=\"%s\" stroke-width=\"2\"/>\n",
				sw_x(s, results_num_or(step, "bs", 1)), sw_y(s, v),
				write ? colour : "#ffffff", colour);
	}
}

int svg_throughput_vs_block_size(FILE *out, json_t *const *runs, size_t nruns)
{
	struct svg_entries es;
	if (svg_entries_build(&es, runs, nruns)) {
		svg_entries_free(&es);
		return -1;
	}
	double height = SW_LEGEND_TOP + (double)es.count * SVG_LEGEND_ROW + 20;
	struct sweep_scale s = sw_scale(&es);
	svg_begin(out, (int)height, "Throughput against block size (sweep, qd1)");
	sw_axes(out, &s);
	for (size_t i = 0; i < es.count; i++) {
		const json_t *sweep = sweep_of(&es.e[i]);
		sw_line(out, &s, sweep, "predicted_mibs", es.e[i].colour,
			" stroke-dasharray=\"6 4\"");
		sw_line(out, &s, sweep, "measured_mibs", es.e[i].colour, "");
		sw_points(out, &s, sweep, es.e[i].colour);
	}
	fprintf(out,
		"<text x=\"%.1f\" y=\"%.1f\">solid, filled: the writes measured (dd "
		"oflag=direct); hollow: the 2 MiB read (hdparm --direct -t)</text>\n"
		"<text x=\"%.1f\" y=\"%.1f\">dashed: the model, the lowest of the latency, IOPS "
		"and throughput bounds at each block size</text>\n",
		SVG_PLOT_LEFT, SW_LEGEND_TOP - 36, SVG_PLOT_LEFT, SW_LEGEND_TOP - 18);
	svg_legend(out, &es, SW_LEGEND_TOP);
	svg_entries_free(&es);
	return svg_end(out);
}
