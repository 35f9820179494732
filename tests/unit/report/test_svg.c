/* test_svg.c - the charts are well-formed XML a browser shows, the cliff
 * is marked where it happened, and a 2,700-second series is thinned to at
 * most ~2,000 points without losing the post-cliff minimum. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "fixtures/results_fixture.h"
#include "fixtures/svg_check.h"
#include "lib/lib.h"
#include "report/svg.h"

struct points {
	size_t count;
	double x[4200], y[4200];
};

/* The points of <polyline id="series-N">. */
static bool polyline_points(const char *svg, size_t n, struct points *pts)
{
	char id[32];
	const char *p, *end;

	snprintf(id, sizeof(id), "id=\"series-%zu\"", n);
	if (!svg || !(p = strstr(svg, id)) || !(p = strstr(p, "points=\"")))
		return false;
	end = strchr(p += 8, '"');
	pts->count = 0;
	if (!end)
		return false;
	while (p < end && pts->count < 4200) {
		char *next;
		pts->x[pts->count] = strtod(p, &next);
		if (*next != ',')
			return false;
		pts->y[pts->count++] = strtod(next + 1, &next);
		p = next;
	}
	return true;
}

/* From above 2,900 to below 400 IOPS within 3 s (px_2000 pixels per
 * 2,000 s): the cliff is a step, not a slope. */
static bool sharp_drop(const struct points *pts, double px_2000, double y0, double y3000)
{
	double px_s = px_2000 / 2000, per_iops = (y3000 - y0) / 3000, last_high = -HUGE_VAL;

	for (size_t i = 0; i < pts->count; i++) {
		if (pts->y[i] <= y0 + 2900 * per_iops)
			last_high = pts->x[i];
		else if (pts->y[i] >= y0 + 400 * per_iops &&
			 pts->x[i] - last_high <= 3 * px_s + 0.1)
			return true;
	}
	return false;
}

/* The x of second s, from the 0 and 2,000 s tick labels. */
static double svg_x_of(const char *svg, double seconds)
{
	double x0 = tick_at(svg, "class=\"xtick\"", "0");

	return x0 + (tick_at(svg, "class=\"xtick\"", "2,000") - x0) * seconds / 2000;
}

static char *render(fixture_render_fn *fn, json_t *const *runs, size_t nruns)
{
	int rc = -1;
	char *svg = fixture_render(fn, runs, nruns, &rc);

	return rc == 0 ? svg : (free(svg), NULL);
}

static void test_timeline_is_valid_svg(struct checks *checks)
{
	json_t *run = fixture_load();
	char *svg = render(svg_iops_timeline, &run, 1);

	CHECK(svg != NULL);
	CHECK(well_formed(svg));
	CHECK(xmllint_ok(svg));
	CHECK(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"") != NULL);
	CHECK(strstr(svg, "viewBox=\"0 0 960 ") != NULL);
	CHECK(strstr(svg, ">gp2 (gp2, 100 GiB)</text>") != NULL);
	CHECK(strstr(svg, ">3,000</text>") != NULL);
	CHECK(strstr(svg, ">cliff at 2,000 s</text>") != NULL);
	CHECK(strstr(svg, ">predicted at 2,000 s</text>") != NULL);
	/* Self-contained: the namespace is the only URL, no links or styles. */
	CHECK_EQ_U64(count_of(svg, "http"), 1);
	CHECK_EQ_U64(count_of(svg, "href") + count_of(svg, "<style") + count_of(svg, "url("), 0);
	free(svg);
	json_decref(run);
}

static void test_cliff_marker_and_downsampling(struct checks *checks)
{
	json_t *run = fixture_load();
	char *svg = render(svg_iops_timeline, &run, 1);
	static struct points gp2, gp3;
	const char *cliff = svg ? strstr(svg, "<line class=\"cliff\"") : NULL;
	double x0 = tick_at(svg, "class=\"xtick\"", "0");
	double x2000 = tick_at(svg, "class=\"xtick\"", "2,000");
	double y0 = tick_at(svg, "class=\"ytick\"", "0");
	double y3000 = tick_at(svg, "class=\"ytick\"", "3,000");
	double want_x, want_y, lowest = -HUGE_VAL;
	bool kept = false;

	CHECK(cliff != NULL);
	CHECK_NEAR(attr(cliff, "x1"), x2000, 0.051);
	CHECK_NEAR(attr(cliff, "x2"), x2000, 0.051);
	CHECK(polyline_points(svg, 1, &gp2));
	CHECK(polyline_points(svg, 2, &gp3));
	CHECK(gp2.count <= 2100);
	CHECK(gp2.count >= 1000);
	/* 600 samples need no thinning: all but the queue-fill one. */
	CHECK_EQ_U64(gp3.count, FIXTURE_GP3_SECONDS - 1);
	/* The single 290-IOPS second after the cliff survives the buckets. */
	want_x = x0 + (x2000 - x0) * FIXTURE_POST_CLIFF_MIN_AT / 2000.0;
	want_y = y0 + (y3000 - y0) * FIXTURE_POST_CLIFF_MIN / 3000.0;
	for (size_t i = 0; i < gp2.count; i++)
		kept = kept || (fabs(gp2.x[i] - want_x) < 0.15 && fabs(gp2.y[i] - want_y) < 0.15);
	CHECK(kept);
	/* Nothing drawn lower: it is the minimum. */
	for (size_t i = 0; i < gp2.count; i++)
		lowest = fmax(lowest, gp2.y[i]);
	CHECK_NEAR(lowest, want_y, 0.15);
	/* The edge stays sharp: from above 2,900 to below 400 IOPS within a
	 * bucket's few seconds of the cliff. */
	CHECK(sharp_drop(&gp2, x2000 - x0, y0, y3000));
	free(svg);
	json_decref(run);
}

/* make demo's shape: the first window after queue fill at 30,200 IOPS,
 * then 3,000 -> 300.  The axis is set by the windows that matter: the
 * 3,000 level sits in the top quarter of the plot, the cliff spans most of
 * its height, and the 30,200 window is drawn at the top edge and marked. */
static void test_one_window_cannot_dominate(struct checks *checks)
{
	json_t *run = fixture_load();
	json_t *series = json_object_get(fixture_phase(run, "randread", "gp2"), "iops_series");
	static struct points gp2;
	char *svg;
	double y0, y3000, top = 60, bottom = 420, high = 0, low = 0;
	size_t nhigh = 0, nlow = 0;
	const char *mark;

	json_array_set_new(series, 1, json_real(30200));
	svg = render(svg_iops_timeline, &run, 1);
	y0 = tick_at(svg, "class=\"ytick\"", "0");
	y3000 = tick_at(svg, "class=\"ytick\"", "3,000");
	CHECK(well_formed(svg));
	CHECK(xmllint_ok(svg));
	CHECK_NEAR(y0, bottom, 0.051);
	/* The top tick: 3,500 (3,005 plus headroom, rounded up to a tick). */
	CHECK_NEAR(tick_at(svg, "class=\"ytick\"", "3,500"), top, 0.051);
	CHECK(isnan(tick_at(svg, "class=\"ytick\"", "5,000")));
	CHECK((y3000 - top) / (bottom - top) < 0.25);
	CHECK(polyline_points(svg, 1, &gp2));
	/* The levels as drawn: before and after the cliff, the outlier aside. */
	for (size_t i = 1; i < gp2.count; i++) {
		bool before = gp2.x[i]<svg_x_of(svg, 1500), after = gp2.x[i]> svg_x_of(svg, 2100);
		high += before ? gp2.y[i] : 0;
		nhigh += before;
		low += after ? gp2.y[i] : 0;
		nlow += after;
	}
	high /= (double)nhigh;
	low /= (double)nlow;
	CHECK((high - top) / (bottom - top) < 0.25);
	CHECK((low - high) / (bottom - top) > 0.70);
	/* The 30,200 window: up to the top edge, not hidden, and marked. */
	CHECK_NEAR(gp2.y[0], top, 0.051);
	mark = svg ? strstr(svg, "<polygon class=\"outlier\"") : NULL;
	CHECK(mark != NULL);
	CHECK(mark && strstr(mark, "<title>30,200 IOPS</title>"));
	CHECK(svg && strstr(svg, ">30,200 IOPS</text>"));
	CHECK(svg && strstr(svg, "1 window above 3,500 IOPS, drawn at the top edge</text>"));
	CHECK_EQ_U64(count_of(svg, "class=\"outlier\""), 1);
	/* Units on both axes. */
	CHECK(svg && strstr(svg, ">time since the phase started, s "));
	CHECK(svg && strstr(svg, ">IOPS (I/Os per second, per window)</text>"));
	free(svg);
	json_decref(run);
}

static void test_latency_chart(struct checks *checks)
{
	json_t *run = fixture_load();
	char *svg = render(svg_latency_percentiles, &run, 1);

	CHECK(svg != NULL);
	CHECK(well_formed(svg));
	CHECK(xmllint_ok(svg));
	/* A p50 per phase and device, and the legend's. */
	CHECK_EQ_U64(count_of(svg, "<circle"), 12 + 1);
	CHECK(svg && strstr(svg, ">p99 109.6 ms</text>"));
	CHECK(svg && strstr(svg, ">randread \xc2\xb7 gp2</text>"));
	CHECK(!isnan(tick_at(svg, "class=\"xtick\"", "0.1")));
	CHECK(!isnan(tick_at(svg, "class=\"xtick\"", "1,000")));
	free(svg);
	json_decref(run);
}

static void test_labels_are_escaped(struct checks *checks)
{
	json_t *run = fixture_load();
	const char *evil = "<gp2 & \"co\">";
	char *svg;

	json_object_set_new(json_array_get(json_object_get(run, "devices"), 0), "label",
			    json_string(evil));
	json_object_set_new(fixture_phase(run, "randread", "gp2"), "device", json_string(evil));
	svg = render(svg_iops_timeline, &run, 1);
	CHECK(well_formed(svg));
	CHECK(xmllint_ok(svg));
	CHECK(svg && strstr(svg, "&lt;gp2 &amp; &quot;co&quot;&gt; (gp2, 100 GiB)"));
	free(svg);
	svg = render(svg_latency_percentiles, &run, 1);
	CHECK(well_formed(svg));
	CHECK(xmllint_ok(svg));
	free(svg);
	json_decref(run);
}

static void test_sparse_and_fleet(struct checks *checks)
{
	static const char *const docs[] = {
		"{}",
		"{\"devices\": [{\"label\": \"x\"}], \"phases\": [{\"phase\": \"randread\", "
		"\"device\": \"x\", \"iops_series\": [\"a\", null, -5], \"job\": 3}]}",
		"{\"phases\": 1, \"analysis\": {\"devices\": [{\"device\": \"x\", \"cliff\": "
		"{\"status\": \"cliff\", \"second\": -1}}]}}",
	};
	json_t *runs[2] = { fixture_load(), fixture_load() };
	char *svg;

	for (size_t i = 0; i < ARRAY_SIZE(docs); i++) {
		json_t *doc = json_loads(docs[i], 0, NULL);
		for (int chart = 0; chart < 2; chart++) {
			svg = render(chart ? svg_latency_percentiles : svg_iops_timeline, &doc, 1);
			CHECK(well_formed(svg));
			CHECK(xmllint_ok(svg));
			free(svg);
		}
		json_decref(doc);
	}
	svg = render(svg_iops_timeline, runs, 2);
	CHECK(well_formed(svg));
	CHECK(svg && strstr(svg, ">run 2: gp2</text>"));
	CHECK(svg && strstr(svg, "id=\"series-4\""));
	free(svg);
	svg = render(svg_latency_percentiles, runs, 2);
	CHECK(well_formed(svg));
	CHECK(svg && strstr(svg, ">lat \xc2\xb7 run 2: gp3</text>"));
	free(svg);
	json_decref(runs[0]);
	json_decref(runs[1]);
}

static void test_checker_rejects_bad_xml(struct checks *checks)
{
	CHECK(well_formed("<svg><g/><text>a &amp; b</text></svg>"));
	CHECK(!well_formed("<svg><g></svg>"));
	CHECK(!well_formed("<svg><text>a & b</text></svg>"));
	CHECK(!well_formed("<svg><text a=\"<\"/></svg>"));
	CHECK(!well_formed("<svg/><svg/>"));
}

/* The load curve's steps have a chart of their own: the percentile chart
 * shows no row made of its first step. */
static void test_stepped_phases_left_out(struct checks *checks)
{
	json_t *run = json_load_file("tests/unit/fixtures/results-seed000-loadcurve.json", 0, NULL);
	char *svg = run ? render(svg_latency_percentiles, &run, 1) : NULL;
	CHECK(svg && strstr(svg, "randread"));
	CHECK(svg && !strstr(svg, "loadcurve"));
	free(svg);
	json_decref(run);
}

/* An st1 of 500 GiB (122 MiB/s of 1 MiB reads for 4,993 s, then its 20
 * MiB/s baseline): the timeline draws its seqread, its cliff phase, says
 * so in the title and its legend row, and marks the cliff at 4,993 s. */
static double st1_mibs(size_t second)
{
	return second < 4993 ? 122 : 20;
}

static void test_st1_timeline_is_its_seqread(struct checks *checks)
{
	json_t *run = fixture_load_st1(6741, st1_mibs);
	struct ebs_prices prices = ebs_prices_default();
	if (!CHECK(run != NULL))
		return;
	analysis_build(run, &prices);
	char *svg = render(svg_iops_timeline, &run, 1);
	const char *cliff = svg ? strstr(svg, "<line class=\"cliff\"") : NULL;
	static struct points st1;
	double x0 = tick_at(svg, "class=\"xtick\"", "0"),
	       x4000 = tick_at(svg, "class=\"xtick\"", "4,000");

	CHECK(svg && strstr(svg, "cliff phase (randread; seqread on st1/sc1)"));
	CHECK(svg && strstr(svg, ">gp2 (st1, 500 GiB): seqread of 1 MiB, IOPS = MiB/s</text>"));
	CHECK(svg && strstr(svg, ">cliff at 4,993 s</text>"));
	CHECK(cliff != NULL);
	CHECK_NEAR(attr(cliff, "x1"), x0 + (x4000 - x0) * 4993 / 4000, 0.2);
	/* The seqread's 6,740 windows, thinned, span it to its end (within 2 px). */
	CHECK(polyline_points(svg, 1, &st1));
	CHECK(st1.count > 1000);
	CHECK_NEAR(st1.x[st1.count - 1], x0 + (x4000 - x0) * 6740 / 4000, 2);
	free(svg);
	json_decref(run);
}

CHECK_MAIN(test_checker_rejects_bad_xml, test_timeline_is_valid_svg,
	   test_st1_timeline_is_its_seqread, test_cliff_marker_and_downsampling,
	   test_one_window_cannot_dominate, test_latency_chart, test_labels_are_escaped,
	   test_sparse_and_fleet, test_stepped_phases_left_out)
