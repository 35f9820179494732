/* test_report_html.c - report.html's parts: the Markdown formatter (tables,
 * headings in sections, quotes, lists, inline markup, and every other '<',
 * '>' and '&' escaped), the page from a fixture (each chart inline without
 * its XML prolog, the recommendation linked within the page, nothing from
 * elsewhere), and each artifact's Content-Type. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fixtures/svg_check.h"
#include "report/internal.h"
#include "report/report.h"
#include "report/report_html.h"
#include "run/run.h"
#include "run/internal.h"

#define FIXTURE "tests/unit/fixtures/results-gp2-gp3.json"

/* What report_html_markdown makes of md (malloc'd; NULL on failure). */
static char *formatted(const char *md, const struct report_html_hooks *hooks)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	int rc = report_html_markdown(f, md, hooks);
	fclose(f);
	if (rc) {
		free(text);
		return NULL;
	}
	return text;
}

/* A table's header, rule and rows; "\|" stays in its cell. */
static void test_table(struct checks *checks)
{
	char *html = formatted("| Measured | gp2 |\n|---|---|\n| IOPS | 3,001 \\| 300 |\n"
			       "| p99 | **1.2 ms** |\n",
			       NULL);
	CHECK(html != NULL);
	CHECK(html && strstr(html, "<thead>\n<tr><th>Measured</th><th>gp2</th></tr>\n</thead>\n"
				   "<tbody>\n<tr><td>IOPS</td><td>3,001 | 300</td></tr>\n"
				   "<tr><td>p99</td><td><strong>1.2 ms</strong></td></tr>\n"
				   "</tbody></table></div>\n"));
	free(html);
}

/* "## " parts each in a section; quotes, lists and paragraphs. */
static void test_blocks(struct checks *checks)
{
	char *html = formatted("# Title\n\nSome `code` text\nnext line.\n\n## A\n\n> **Note:** "
			       "quoted\n\n- one\n- two\n\n## B\n\n### B1\n",
			       NULL);
	CHECK(html && strstr(html, "<h1>Title</h1>\n<p>Some <code>code</code> text\nnext "
				   "line.</p>\n<section>\n<h2>A</h2>\n"));
	CHECK(html &&
	      strstr(html, "<blockquote><p><strong>Note:</strong> quoted</p></blockquote>"));
	CHECK(html && strstr(html, "<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n"));
	CHECK(html && strstr(html, "</section>\n<section>\n<h2>B</h2>\n<h3>B1</h3>\n</section>\n"));
	CHECK_EQ_U64(count_of(html, "<section>"), 2);
	CHECK_EQ_U64(count_of(html, "</section>"), 2);
	free(html);
}

/* Markup from a device or a config is text: only "&lt;" and "<br>" pass. */
static void test_escaping(struct checks *checks)
{
	char *html =
		formatted("| &lt;script>x</script> | a & b \"q\" 'r' <br> <img src=y> |\n", NULL);
	CHECK(html && strstr(html, "<th>&lt;script&gt;x&lt;/script&gt;</th>"));
	CHECK(html && strstr(html, "<th>a &amp; b &quot;q&quot; &#39;r&#39; <br> &lt;img "
				   "src=y&gt;</th>"));
	CHECK_EQ_U64(count_of(html, "<script"), 0);
	CHECK_EQ_U64(count_of(html, "<img"), 0);
	free(html);
}

static int image_hook(void *ctx, FILE *out, const char *alt, const char *target)
{
	(void)ctx;
	if (strcmp(target, "chart.svg"))
		return -1;
	fprintf(out, "<figure>%s</figure>\n", alt);
	return 0;
}

static const char *link_hook(void *ctx, const char *target)
{
	(void)ctx;
	return strcmp(target, "recommend.md") ? NULL : "#recommendation";
}

/* Images are the caller's (a chart), links within the page or text alone. */
static void test_links_and_images(struct checks *checks)
{
	struct report_html_hooks hooks = { NULL, image_hook, link_hook };
	char *html = formatted("Intro\n![The chart](chart.svg)\n\n![Other](other.svg)\n\n"
			       "See [recommend.md](recommend.md) and [x](https://example.com/).\n",
			       &hooks);
	CHECK(html && strstr(html, "<p>Intro</p>\n<figure>The chart</figure>\n<p>Other</p>\n"));
	CHECK(html && strstr(html, "See <a href=\"#recommendation\">recommend.md</a> and x.</p>"));
	CHECK_EQ_U64(count_of(html, "example.com"), 0);
	free(html);
}

/* The page from a fixture: the charts inline, no prolog, nothing loaded. */
static void test_page(struct checks *checks)
{
	json_t *run = json_load_file(FIXTURE, 0, NULL);
	char *html = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&html, &len);
	CHECK(run && f);
	CHECK(f && report_html_write(f, &run, 1) == 0);
	if (f)
		fclose(f);
	CHECK(html && !strncmp(html, "<!DOCTYPE html>\n", 16));
	CHECK_EQ_U64(count_of(html, "<?xml"), 0);
	CHECK_EQ_U64(count_of(html, "<figure class=\"chart\""), 3);
	CHECK_EQ_U64(count_of(html, "<svg xmlns=\"http://www.w3.org/2000/svg\""), 3);
	CHECK(html &&
	      strstr(html, "<figure class=\"chart\" data-artifact=\"latency_heatmap.svg\">"));
	CHECK(html && strstr(html, "<a href=\"#recommendation\">recommend.md</a>"));
	CHECK(html && strstr(html, "<article id=\"recommendation\">\n<h1>Recommendation</h1>"));
	CHECK(html && strstr(html, "<td>Amazon Elastic Block Store</td>"));
	CHECK_EQ_U64(count_of(html, "<script"), 0);
	CHECK_EQ_U64(count_of(html, "src="), 0);
	CHECK(html && strstr(html, "default-src 'none'"));
	CHECK(report_renderer("report.html") == report_html_write);
	free(html);
	json_decref(run);
}

/* Each file's Content-Type, from artifacts.c. */
static void test_content_types(struct checks *checks)
{
	CHECK(!strcmp(artifacts_content_type("report.html"), "text/html; charset=utf-8"));
	CHECK(!strcmp(artifacts_content_type(artifacts_name(ARTIFACT_HEATMAP_SVG)),
		      "image/svg+xml"));
	CHECK(!strcmp(artifacts_content_type("summary.md"), "text/markdown; charset=utf-8"));
	CHECK(!strcmp(artifacts_content_type("results.json"), "application/json"));
	CHECK(!strcmp(artifacts_content_type("gp2_rr_clat_hist.1.log"), "text/plain"));
	CHECK(!strcmp(artifacts_content_type("gp2_rr_iops.1.log"), "text/plain"));
	CHECK(!strcmp(artifacts_content_type("other.bin"), "application/octet-stream"));
	for (size_t i = 0; i < ARTIFACT_COUNT; i++)
		CHECK(strcmp(artifacts_content_type(artifacts_run_files()[i]),
			     "application/octet-stream"));
}

CHECK_MAIN(test_table, test_blocks, test_escaping, test_links_and_images, test_page,
	   test_content_types)
