/* test_html_table.c - the one HTML table writer's four layouts, byte for
 * byte as report.html (its devices and its Markdown tables), compare's
 * section and the fleet's distributions have them; texts escaped; a
 * Markdown table with no body closes its head. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report/html_table.h"

/* A head of two names, then one row (its first cell th: th_cols 1) of a
 * text to escape, closed; the bytes written. */
static char *table(enum html_table_layout layout, size_t th_cols, bool body)
{
	static const char *const head[] = { "A", "B" };
	static const char *const row[] = { "x", "it's <b>" };
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	struct html_table t;
	if (!out)
		return NULL;
	html_table_open(&t, out, layout);
	html_table_texts(&t, head, 2, 0);
	if (body) {
		html_table_body(&t);
		html_table_texts(&t, row, 2, th_cols);
	}
	html_table_close(&t);
	fclose(out);
	return text;
}

static void check_table(struct checks *checks, char *got, const char *want)
{
	CHECK(got && !strcmp(got, want));
	if (got && strcmp(got, want))
		fprintf(stderr, "got:\n%s\nwant:\n%s\n", got, want);
	free(got);
}

static void test_layouts(struct checks *checks)
{
	check_table(checks, table(HTML_TABLE_DEVICES, 0, true),
		    "<div class=\"table\"><table>\n<thead><tr><th>A</th><th>B</th></tr></thead>\n"
		    "<tbody>\n<tr><td>x</td><td>it&apos;s &lt;b&gt;</td></tr>\n"
		    "</tbody></table></div>\n");
	check_table(checks, table(HTML_TABLE_MARKDOWN, 0, true),
		    "<div class=\"table\"><table>\n<thead>\n<tr><th>A</th><th>B</th></tr>\n"
		    "</thead>\n<tbody>\n<tr><td>x</td><td>it&apos;s &lt;b&gt;</td></tr>\n"
		    "</tbody></table></div>\n");
	check_table(checks, table(HTML_TABLE_MARKDOWN, 0, false),
		    "<div class=\"table\"><table>\n<thead>\n<tr><th>A</th><th>B</th></tr>\n"
		    "</thead></table></div>\n");
	check_table(checks, table(HTML_TABLE_COMPARE, 0, true),
		    "<table>\n<thead><tr><th>A</th><th>B</th></tr></thead>\n<tbody>\n"
		    "<tr><td>x</td><td>it&apos;s &lt;b&gt;</td></tr>\n</tbody>\n</table>\n");
	check_table(
		checks, table(HTML_TABLE_FLEET, 1, true),
		"<table class=\"fleet-dist\">\n<thead><tr><th>A</th>\n<th>B</th>\n</tr></thead>\n"
		"<tbody>\n<tr><th>x</th>\n<td>it&apos;s &lt;b&gt;</td>\n</tr>\n"
		"</tbody>\n</table>\n");
}

CHECK_MAIN(test_layouts)
