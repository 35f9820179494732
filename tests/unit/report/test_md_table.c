/* test_md_table.c - the one Markdown escaping rule (md_table.c): a label
 * with '|', '<', '&', '\\', HTML and a newline stays one cell of one row,
 * opens no tag, and report.html's formatter shows it as the same text. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report/md_table.h"
#include "report/report_html.h"

#define HOSTILE "a|b <script>alert(1)</script>\nx & y \\| z\r"

/* What write makes of text (malloc'd; NULL on failure). */
static char *written(void (*write)(FILE *, const char *), const char *text)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);
	if (!f)
		return NULL;
	write(f, text);
	fclose(f);
	return s;
}

/* A row's cells as a GFM table reads them: '\\' escapes the next byte,
 * any other '|' ends a cell; -1 when the row is more than one line. */
static long cells_of(const char *row)
{
	long n = -1;
	for (const char *p = row; *p; p++) {
		if (*p == '\n')
			return p[1] ? -1 : n;
		if (*p == '\\' && p[1])
			p++;
		else if (*p == '|')
			n++;
	}
	return n;
}

static void write_row(FILE *out, const char *cell)
{
	const char *cells[] = { "Label", cell, "3,001" };
	md_table_row(out, cells, ARRAY_SIZE(cells));
}

/* The exact escaping: backslashes, entities, spaces for line breaks. */
static void test_text(struct checks *checks)
{
	char *md = written(md_text, HOSTILE);
	CHECK(md && !strcmp(md, "a\\|b &lt;script>alert(1)&lt;/script> x &amp; y \\\\\\| z "));
	free(md);
	md = written(md_text, NULL);
	CHECK(md && !strcmp(md, ""));
	free(md);
	md = written(md_text, "gp2 (gp2, 100 GiB) **x** `y`");
	CHECK(md && !strcmp(md, "gp2 (gp2, 100 GiB) **x** `y`")); /* ordinary text unchanged */
	free(md);
}

/* A row keeps its cells whatever the label; the rule has one dash run per column. */
static void test_row(struct checks *checks)
{
	char *md = written(write_row, HOSTILE);
	CHECK(md && cells_of(md) == 3);
	CHECK(md && !strstr(md, "<script"));
	free(md);
	md = written(write_row, "trailing\\");
	CHECK(md && cells_of(md) == 3);
	free(md);
	char *rule = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&rule, &len);
	if (f) {
		md_table_rule(f, 3);
		fclose(f);
	}
	CHECK(rule && !strcmp(rule, "|---|---|---|\n"));
	free(rule);
}

/* report.html's formatter reads the row back as three cells of plain text. */
static void test_html(struct checks *checks)
{
	char *row = written(write_row, HOSTILE), *html = NULL, md[512];
	size_t len = 0;
	snprintf(md, sizeof(md), "| a | b | c |\n|---|---|---|\n%s", row ? row : "");
	FILE *f = open_memstream(&html, &len);
	int rc = f ? report_html_markdown(f, md, NULL) : -1;
	if (f)
		fclose(f);
	CHECK(rc == 0);
	CHECK(html && !strstr(html, "<script"));
	CHECK(html &&
	      strstr(html, "<tr><td>Label</td><td>a|b &lt;script&gt;alert(1)&lt;/script&gt; "
			   "x &amp; y \\| z</td><td>3,001</td></tr>"));
	free(row);
	free(html);
}

CHECK_MAIN(test_text, test_row, test_html)
