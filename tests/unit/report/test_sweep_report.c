/* test_sweep_report.c - the sweep's report from a real run (the QEMU gp2
 * and gp3 of tests/bats/sweep.bats, results-sweep-qemu.json): the chart's
 * x axis is log 2 (16k..2M in equal steps, plot edge to edge), both axes
 * carry their units, the model's line is drawn per volume; summary.md has
 * the section with a table per volume and links the chart; report_render
 * writes the chart for a run with a sweep. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report/report.h"
#include "report/svg_draw.h"
#include "run/run.h"
#include "report/summary.h"
#include "report/svg_sweep.h"

#define SWEEP_FIXTURE "tests/unit/fixtures/results-sweep-qemu.json"
#define TEXT_MAX (1 << 18)

/* What render(out, &run, 1) writes, as one string (static storage). */
static const char *rendered(int (*render)(FILE *, json_t *const *, size_t), json_t *run)
{
	static char text[TEXT_MAX];
	FILE *f = tmpfile();
	size_t n = 0;
	if (f && render(f, &run, 1) == 0 && fseek(f, 0, SEEK_SET) == 0)
		n = fread(text, 1, sizeof(text) - 1, f);
	if (f)
		fclose(f);
	text[n] = '\0';
	return text;
}

static size_t count_of(const char *text, const char *what)
{
	size_t n = 0;
	for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* gp2's eight points (drawn first): one power of two apart, equally. */
static void test_chart_axis_is_log2(struct checks *checks)
{
	json_t *run = json_load_file(SWEEP_FIXTURE, 0, NULL);
	const char *svg = rendered(svg_throughput_vs_block_size, run);
	const char *p = svg;
	double cx[8];
	size_t n = 0;
	CHECK(run != NULL);
	while (n < 8 && (p = strstr(p, "<circle class=\"measured\" cx=\"")))
		cx[n++] = strtod(p += strlen("<circle class=\"measured\" cx=\""), NULL);
	CHECK_EQ_U64(n, 8);
	if (n == 8) {
		double step = (SVG_PLOT_RIGHT - SVG_PLOT_LEFT) / 7; /* 16k .. 2M: 7 doublings */
		CHECK_NEAR(cx[0], SVG_PLOT_LEFT, 0.05);
		for (size_t i = 1; i < 8; i++)
			CHECK_NEAR(cx[i] - cx[i - 1], step, 0.11);
		CHECK_NEAR(cx[7], SVG_PLOT_RIGHT, 0.05);
	}
	CHECK(strstr(svg, "throughput (MiB/s)") != NULL);
	CHECK(strstr(svg, "block size (bytes per I/O, log2 scale") != NULL);
	CHECK_EQ_U64(count_of(svg, "class=\"predicted_mibs\""), 2);
	CHECK_EQ_U64(count_of(svg, "class=\"measured_mibs\""), 2);
	CHECK_EQ_U64(count_of(svg, "<circle class=\"measured\""), 16);
	CHECK(strstr(svg, ">16k</text>") && strstr(svg, ">1M</text>") && strstr(svg, ">2M</text>"));
	json_decref(run);
}

/* The section: a table per volume, a row per step, the chart linked. */
static void test_summary_section(struct checks *checks)
{
	json_t *run = json_load_file(SWEEP_FIXTURE, 0, NULL);
	const char *md = rendered(summary_write, run);
	const char *sec = strstr(md, "## Block-size sweep");
	char link[96];
	snprintf(link, sizeof(link), "](%s)", artifacts_name(ARTIFACT_SWEEP_SVG));
	CHECK(sec != NULL);
	CHECK(strstr(md, link) != NULL);
	CHECK(strstr(md, "### gp2 (gp2, 100 GiB)") && strstr(md, "### gp3 (gp3, 100 GiB)"));
	static char section[TEXT_MAX];
	const char *end = sec ? strstr(sec, "\n## Findings") : NULL;
	size_t len = end ? (size_t)(end - sec) : 0;
	memcpy(section, sec ? sec : "", len);
	section[len] = '\0';
	CHECK_EQ_U64(count_of(section, "\n| write | "), 14);
	CHECK_EQ_U64(count_of(section, "\n| read | 2 MiB | "), 2);
	CHECK(strstr(md, "| write | 16 KiB | 23.9 MiB/s | 40.3 MiB/s | latency") != NULL);
	CHECK(strstr(md, "| write | 1 MiB | 128.8 MiB/s | 125.0 MiB/s | volume throughput | as "
			 "predicted |") != NULL);
	json_decref(run);
}

/* report_render writes the sweep's chart beside the summary for this run. */
static void test_render_writes_the_chart(struct checks *checks)
{
	char dir[] = "/tmp/ebsbench-sweep-XXXXXX", path[128], err[256], cmd[160];
	json_t *run = json_load_file(SWEEP_FIXTURE, 0, NULL);
	CHECK(run && mkdtemp(dir));
	CHECK(report_render(&run, 1, dir, err, sizeof(err)) == 0);
	snprintf(path, sizeof(path), "%s/%s", dir, artifacts_name(ARTIFACT_SWEEP_SVG));
	FILE *f = fopen(path, "r");
	CHECK(f != NULL);
	if (f)
		fclose(f);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
	json_decref(run);
}

CHECK_MAIN(test_chart_axis_is_log2, test_summary_section, test_render_writes_the_chart)
