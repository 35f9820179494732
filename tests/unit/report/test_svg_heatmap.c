/* test_svg_heatmap.c - the latency heatmap from synthetic per-window
 * histograms, kept as a run keeps them (results.json's compact form at the
 * run's coarseness, histlog_sparse): the
 * throttled gp2 of the reference benchmark's seed 000 (p50 0.60 ms, p95
 * 3.39 ms) shows as two bands with the p50 and p99 lines in them; bands
 * and columns are coarsened to stay legible; an I/O beyond the axis is
 * counted at its edge, not hidden; bad input still gives valid SVG. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fixtures/results_fixture.h"
#include "fixtures/svg_check.h"
#include "job/job.h"
#include "job/internal.h"
#include "lib/lib.h"
#include "report/svg.h"
#include "run/run.h"
#include "stats/stats.h"
#include "stats/internal.h"

#define COARSENESS PLAN_HIST_COARSENESS
#define BINS (HISTLOG_FIO_BINS >> COARSENESS)
#define MAX_CELLS 20000

typedef void fill_fn(size_t window, uint64_t *bins);

/* Adds n I/Os of ns to a window's coarse bins, as the job's histogram and
 * the histogram log would count them. */
static void add(uint64_t *bins, uint64_t n, double ns)
{
	bins[histlog_fio_bin(histogram_index((uint64_t)ns)) >> COARSENESS] += n;
}

/* A run of one gp2 whose randread phase has windows x 1 s of histograms
 * from fill, in results.json's compact form as a run keeps them. */
static json_t *heatmap_run(size_t windows, fill_fn *fill)
{
	uint64_t bins[BINS];
	json_t *kept = json_array();

	for (size_t w = 0; w < windows; w++) {
		memset(bins, 0, sizeof(bins));
		fill(w, bins);
		json_array_append_new(kept, histlog_sparse(bins, BINS));
	}
	json_t *hist = json_pack("{sssisisiso}", "log", "gp2_rr_clat_hist.1.log", "window_ms", 1000,
				 "coarseness", COARSENESS, "bins", BINS, "windows", kept);
	return json_pack("{s[{sss{sssi}}]s[{ssssso}]}", "devices", "label", "gp2", "volume", "type",
			 "gp2", "size_gib", 100, "phases", "phase", "randread", "device", "gp2",
			 "clat_hist", hist);
}

static char *render_heatmap(json_t *run)
{
	int rc = -1;
	char *svg = fixture_render(svg_latency_heatmap, &run, 1, &rc);

	return rc == 0 ? svg : (free(svg), NULL);
}

struct cell {
	int cls;
	double x, y, w, h;
};

/* Every <rect class="cell cK">, in document order. */
static size_t cells_of(const char *svg, struct cell *cells)
{
	size_t n = 0;

	for (const char *p = svg; p && (p = strstr(p, "<rect class=\"cell c")) && n < MAX_CELLS;
	     p++) {
		cells[n] = (struct cell){ atoi(p + 19), attr(p, "x"), attr(p, "y"),
					  attr(p, "width"), attr(p, "height") };
		n++;
	}
	return n;
}

/* The log y axis from its "1" and "2" ms labels: the ms at pixel y. */
static double ms_at(const char *svg, double y)
{
	double y1 = tick_at(svg, "class=\"ytick\"", "1"), y2 = tick_at(svg, "class=\"ytick\"", "2");

	return pow(10, (y - y1) / (y2 - y1) * log10(2));
}

/* The points of the first <polyline class="cls">: how many. */
static size_t line_points(const char *svg, const char *cls, double *xs, double *ys, size_t cap)
{
	char want[48];
	const char *p, *end;
	size_t n = 0;

	snprintf(want, sizeof(want), "<polyline class=\"%s\"", cls);
	if (!svg || !(p = strstr(svg, want)) || !(p = strstr(p, "points=\"")))
		return 0;
	end = strchr(p += 8, '"');
	while (end && p < end && n < cap) {
		char *next;
		xs[n] = strtod(p, &next);
		if (*next != ',')
			break;
		ys[n++] = strtod(next + 1, &next);
		p = next;
	}
	return n;
}

/* Seed 000's throttled gp2: 60 % of each window's 3,000 I/Os at 0.60 ms,
 * 40 % at 3.39 ms, so p50 0.60 ms and p95 and p99 3.39 ms. */
static void seed000(size_t window, uint64_t *bins)
{
	(void)window;
	add(bins, 1800, 600000);
	add(bins, 1200, 3390000);
}

/* Whether the cell's band holds ms. */
static bool holds(const char *svg, const struct cell *c, double ms)
{
	return ms_at(svg, c->y + c->h) <= ms && ms < ms_at(svg, c->y);
}

static void test_bimodal_shows_two_bands(struct checks *checks)
{
	json_t *run = heatmap_run(600, seed000);
	char *svg = render_heatmap(run);
	static struct cell cells[MAX_CELLS];
	static double xs[1000], ys[1000];
	size_t n = cells_of(svg, cells), low = SIZE_MAX, high = SIZE_MAX, k;

	CHECK(well_formed(svg));
	CHECK(xmllint_ok(svg));
	CHECK_EQ_U64(count_of(svg, "<g class=\"panel\""), 1);
	CHECK(svg && strstr(svg, ">randread \xc2\xb7 gp2 (gp2, 100 GiB): p50 "));
	/* Two bands, each one cell across the steady 600 s: nothing between. */
	CHECK_EQ_U64(n, 2);
	for (size_t i = 0; i < n; i++) {
		if (holds(svg, &cells[i], 0.60))
			low = i;
		if (holds(svg, &cells[i], 3.39))
			high = i;
	}
	CHECK(low != SIZE_MAX && high != SIZE_MAX && low != high);
	if (low == SIZE_MAX || high == SIZE_MAX)
		goto out;
	CHECK_EQ_U64(cells[low].cls, 7);  /* 60 %: > 40 % */
	CHECK_EQ_U64(cells[high].cls, 6); /* 40 %: 20-40 % */
	/* The lines in the right rows: p50 in 0.60 ms's band, p99 in 3.39's. */
	/* 600 windows in 200 columns of 3 (at most 210 columns). */
	k = line_points(svg, "p50", xs, ys, 1000);
	CHECK_EQ_U64(k, 200);
	for (size_t i = 0; i < k; i++)
		CHECK(ys[i] >= cells[low].y && ys[i] <= cells[low].y + cells[low].h);
	k = line_points(svg, "p99", xs, ys, 1000);
	CHECK_EQ_U64(k, 200);
	for (size_t i = 0; i < k; i++)
		CHECK(ys[i] >= cells[high].y && ys[i] <= cells[high].y + cells[high].h);
out:
	free(svg);
	json_decref(run);
}

/* The heading gives the job's own percentiles when results.json has them. */
static void test_heading_uses_the_jobs_percentiles(struct checks *checks)
{
	json_t *run = heatmap_run(10, seed000);
	json_t *phase = json_array_get(json_object_get(run, "phases"), 0);
	char *svg;

	json_object_set_new(phase, "job",
			    json_pack("{s{sis{s{sisi}}}}", "read", "io_bytes", 1, "clat_ns",
				      "percentile", "50.000000", 602112, "99.000000", 3391488));
	svg = render_heatmap(run);
	CHECK(svg && strstr(svg, ": p50 0.602 ms, p99 3.39 ms over 10 windows</text>"));
	free(svg);
	json_decref(run);
}

/* 2 us to 1 s in every window, over 2,700 windows. */
static void wide(size_t window, uint64_t *bins)
{
	(void)window;
	for (double ns = 2000; ns < 1e9; ns *= 2)
		add(bins, 100, ns);
}

/* Nineteen octaves fit one band per octave, each 8 px or more; 2,700
 * windows fit 210 columns of 4 px or more. */
static void test_bands_and_columns_stay_legible(struct checks *checks)
{
	json_t *run = heatmap_run(2700, wide);
	char *svg = render_heatmap(run);
	static struct cell cells[MAX_CELLS];
	static double xs[3000], ys[3000];
	size_t n = cells_of(svg, cells), k = line_points(svg, "p50", xs, ys, 3000);
	double min_h = HUGE_VAL, min_w = HUGE_VAL;

	CHECK(well_formed(svg));
	CHECK(xmllint_ok(svg));
	CHECK(n >= 19);
	for (size_t i = 0; i < n; i++) {
		min_h = fmin(min_h, cells[i].h);
		min_w = fmin(min_w, cells[i].w);
	}
	CHECK(min_h >= 8 - 0.15);
	CHECK(min_w >= 4 - 0.15);
	/* A p50 point per column: 2,700 windows in 207 columns of 13 and a
	 * last one of the 9 left. */
	CHECK_EQ_U64(k, 208);
	for (size_t i = 1; i + 1 < k; i++)
		CHECK(xs[i] - xs[i - 1] >= 4 - 0.15);
	/* Steady windows: each band is one run-length cell across the phase. */
	CHECK(n <= 21);
	CHECK(!isnan(tick_at(svg, "class=\"xtick\"", "2,500")));
	free(svg);
	json_decref(run);
}

/* 1,000 I/Os at 0.5 ms a window, and in window 50 one more at 2 s. */
static void one_slow(size_t window, uint64_t *bins)
{
	add(bins, 1000, 500000);
	if (window == 50)
		add(bins, 1, 2e9);
}

/* The slow I/O does not stretch the axis to 2 s, and is not hidden: it is
 * counted in the top band, in its own column. */
static void test_beyond_the_axis_is_counted_at_its_edge(struct checks *checks)
{
	json_t *run = heatmap_run(100, one_slow);
	char *svg = render_heatmap(run);
	static struct cell cells[MAX_CELLS];
	size_t n = cells_of(svg, cells), slow = 0, at = SIZE_MAX;
	double x0 = tick_at(svg, "class=\"xtick\"", "0");
	double x100 = tick_at(svg, "class=\"xtick\"", "100");

	CHECK(well_formed(svg));
	CHECK(isnan(tick_at(svg, "class=\"ytick\"", "1,000")));
	CHECK(isnan(tick_at(svg, "class=\"ytick\"", "10")));
	for (size_t i = 0; i < n; i++) {
		if (cells[i].cls == 1) {
			slow++;
			at = i;
		}
	}
	CHECK_EQ_U64(slow, 1);
	if (at != SIZE_MAX) {
		CHECK_NEAR(cells[at].x, x0 + (x100 - x0) * 50 / 100, 0.15);
		CHECK_NEAR(cells[at].w, (x100 - x0) / 100, 0.15);
		/* The top band: no cell above it. */
		for (size_t i = 0; i < n; i++)
			CHECK(cells[i].y >= cells[at].y);
	}
	free(svg);
	json_decref(run);
}

static void test_bad_input_still_renders(struct checks *checks)
{
	static const char *const docs[] = {
		"{}",
		"{\"phases\": [{\"phase\": \"lat\", \"device\": \"x\", \"clat_hist\": 5}]}",
		"{\"phases\": [{\"phase\": \"lat\", \"device\": \"x\", \"clat_hist\": {\"bins\": "
		"116, \"coarseness\": 4, \"windows\": [\"1:2 -3\", \"x\", 7]}}]}",
		"{\"phases\": [{\"phase\": \"lat\", \"device\": \"x\", \"clat_hist\": {\"bins\": "
		"116, \"coarseness\": 4, \"windows\": [\"115:1 1\"]}}]}",
		"{\"phases\": [{\"phase\": \"lat\", \"device\": \"x\", \"clat_hist\": {\"bins\": "
		"99, \"coarseness\": 4, \"windows\": [\"1:1\"]}}]}",
		"{\"phases\": [{\"phase\": \"lat\", \"device\": \"x\", \"clat_hist\": {\"bins\": "
		"116, \"coarseness\": 4, \"windows\": [\"\", \"\"]}}]}",
	};

	for (size_t i = 0; i < ARRAY_SIZE(docs); i++) {
		json_t *doc = json_loads(docs[i], 0, NULL);
		char *svg = render_heatmap(doc);
		CHECK(well_formed(svg));
		CHECK(xmllint_ok(svg));
		CHECK(svg && strstr(svg, ">no latency histograms in these results"));
		free(svg);
		json_decref(doc);
	}
}

/* A fleet of 7 runs x 2 panels: 12 drawn, the rest counted. */
static void test_fleet_panels_are_capped(struct checks *checks)
{
	json_t *runs[7];
	char *svg;
	int rc = -1;

	for (size_t i = 0; i < 7; i++) {
		runs[i] = heatmap_run(5, seed000);
		json_t *phases = json_object_get(runs[i], "phases");
		json_t *lat = json_deep_copy(json_array_get(phases, 0));
		json_object_set_new(lat, "phase", json_string("lat"));
		json_array_append_new(phases, lat);
	}
	svg = fixture_render(svg_latency_heatmap, runs, 7, &rc);
	CHECK(rc == 0);
	CHECK(well_formed(svg));
	CHECK_EQ_U64(count_of(svg, "<g class=\"panel\""), SVG_HEATMAP_MAX_PANELS);
	CHECK(svg && strstr(svg, ">2 more panels left out</text>"));
	CHECK(svg && strstr(svg, ">lat \xc2\xb7 run 6: gp2: p50"));
	free(svg);
	for (size_t i = 0; i < 7; i++)
		json_decref(runs[i]);
}

CHECK_MAIN(test_bimodal_shows_two_bands, test_heading_uses_the_jobs_percentiles,
	   test_bands_and_columns_stay_legible, test_beyond_the_axis_is_counted_at_its_edge,
	   test_bad_input_still_renders, test_fleet_panels_are_capped)
