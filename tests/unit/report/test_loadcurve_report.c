/* test_loadcurve_report.c - latency_vs_load.svg and summary.md's loadcurve
 * section from an analysed results.json: p50 and p99 lines, a log
 * latency axis in ms and an offered-IOPS axis, the knee at its x, the
 * table with the knee's row marked; and a run without a loadcurve. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fixtures/loadcurve_fixture.h"
#include "report/report.h"
#include "run/run.h"
#include "report/summary.h"
#include "report/svg_loadcurve.h"

typedef int render_fn(FILE *out, json_t *const *runs, size_t nruns);

/* What render writes for the one run, as a string to free. */
static char *rendered(render_fn *render, json_t *run)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	if (!out)
		return NULL;
	int rc = render(out, &run, 1);
	fclose(out);
	if (rc) {
		free(text);
		return NULL;
	}
	return text;
}

static size_t count_of(const char *text, const char *what)
{
	size_t n = 0;
	for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

static json_t *analysed(const struct loadcurve_step *s, size_t n)
{
	struct ebs_prices prices = ebs_prices_default();
	json_t *run = fixture_loadcurve_results(s, n, "ebs", 3000, false);
	analysis_build(run, &prices);
	return run;
}

static void test_chart(struct checks *checks)
{
	json_t *run = analysed(fixture_gp3_curve, FIXTURE_GP3_STEPS);
	char *svg = rendered(svg_loadcurve, run);
	if (!CHECK(svg != NULL))
		return;
	CHECK(count_of(svg, "<polyline class=\"p99\"") == 1);
	CHECK(count_of(svg, "<polyline class=\"p50\"") == 1);
	CHECK(count_of(svg, "<circle ") == 12); /* six steps, two percentiles */
	/* x: 0 to 3,500 IOPS (3,300 x 1.05 up to a 500 tick) over 90..930:
	 * the knee (100 %, 3,000 offered) at 90 + 3000 / 3500 x 840 = 810. */
	CHECK(strstr(svg, "<line class=\"knee\" x1=\"810.0\"") != NULL);
	CHECK(strstr(svg, "knee: 3,000 IOPS (100 %)") != NULL);
	CHECK(strstr(svg, "<line class=\"sustained\" x1=\"810.0\"") != NULL);
	CHECK(strstr(svg, ">3,500</text>") != NULL);
	/* y: log, 0.1 ms (under the lowest p50, 0.30) to 100 ms (over 48). */
#define YTICK "dominant-baseline=\"middle\">"
	CHECK(count_of(svg, "class=\"ytick\"") == 4);
	CHECK(strstr(svg, YTICK "0.1</text>") != NULL && strstr(svg, YTICK "100</text>") != NULL);
	CHECK(strstr(svg, YTICK "0.01</text>") == NULL &&
	      strstr(svg, YTICK "1,000</text>") == NULL);
	CHECK(strstr(svg, "latency, ms (log)") != NULL);
	CHECK(strstr(svg, "offered load, IOPS") != NULL);
	CHECK(strstr(svg, ">110 %</text>") != NULL);
	free(svg);
	json_decref(run);
}

static void test_summary_section(struct checks *checks)
{
	json_t *run = analysed(fixture_gp3_curve, FIXTURE_GP3_STEPS);
	char *md = rendered(summary_write, run);
	if (!CHECK(md != NULL))
		return;
	CHECK(count_of(md, "## Latency against offered load") == 1);
	CHECK(strstr(md, "vol: p99 stays under 1.2 ms up to 2700 IOPS (90 %); at 3000 offered") !=
	      NULL);
	CHECK(strstr(md, "| **100 % (knee)** | 3,000 | 2,990 | yes | 0.800 ms | 9.00 ms | 20.0 ms "
			 "| 30.0 ms |") != NULL);
	CHECK(strstr(md, "| 110 % | 3,300 | 3,000 | no |") != NULL);
	CHECK(strstr(md, "](latency_vs_load.svg)") != NULL);
	/* The six steps make one section, not six phase sections. */
	CHECK(strstr(md, "## loadcurve") == NULL);
	free(md);
	json_decref(run);
}

/* No loadcurve phase: the chart says so, summary.md has no section. */
static void test_without_loadcurve(struct checks *checks)
{
	json_t *run = analysed(fixture_gp3_curve, 0);
	char *svg = rendered(svg_loadcurve, run), *md = rendered(summary_write, run);
	if (CHECK(svg != NULL))
		CHECK(strstr(svg, "no loadcurve phase in these results") != NULL);
	if (CHECK(md != NULL))
		CHECK(strstr(md, "Latency against offered load") == NULL);
	free(svg);
	free(md);
	json_decref(run);
	CHECK(!strcmp(artifacts_name(ARTIFACT_LOAD_SVG), "latency_vs_load.svg"));
}

CHECK_MAIN(test_chart, test_summary_section, test_without_loadcurve)
