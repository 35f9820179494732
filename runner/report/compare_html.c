/* compare_html.c - `ebsbench compare` as an HTML fragment for report.html:
 * one <section class="ebsbench-compare">, compare_layout's parts as
 * headings, lists and tables, every text escaped (svg_put_xml). */
#include "report/compare.h"

#include <stdbool.h>
#include <stdio.h>

#include "report/html_table.h"
#include "report/report_html.h"
#include "report/svg_draw.h"

/* An <h3> under the section's <h2>. */
static void html_heading(FILE *out, const char *text)
{
	fputs("<h3>", out);
	svg_put_xml(out, text);
	fputs("</h3>\n", out);
}

/* A <p>. */
static void html_paragraph(FILE *out, const char *text)
{
	fputs("<p>", out);
	svg_put_xml(out, text ? text : "");
	fputs("</p>\n", out);
}

/* The first item opens the list; html_list_end closes it. */
static void html_item(FILE *out, const char *text, bool first)
{
	fputs(first ? "<ul>\n<li>" : "<li>", out);
	svg_put_xml(out, text ? text : "");
	fputs("</li>\n", out);
}

/* Closes the list html_item opened. */
static void html_list_end(FILE *out)
{
	fputs("</ul>\n", out);
}

/* A table row; the header row opens the table and its body. */
static void html_row(FILE *out, const char *const *cells, size_t n, bool header)
{
	struct html_table t = { out, HTML_TABLE_COMPARE, true };

	if (header)
		html_table_open(&t, out, HTML_TABLE_COMPARE);
	html_table_texts(&t, cells, n, 0);
	if (header)
		html_table_body(&t);
}

/* Closes the body and the table. */
static void html_table_end(FILE *out)
{
	struct html_table t = { out, HTML_TABLE_COMPARE, true };

	html_table_close(&t);
}

static const struct compare_format html_format = { html_heading,  html_paragraph, html_item,
						   html_list_end, html_row,	  html_table_end };

int compare_html_write(FILE *out, const json_t *doc)
{
	fputs("<section class=\"ebsbench-compare\">\n<h2>Comparison: B against A</h2>\n", out);
	compare_layout(out, doc, &html_format);
	fputs("</section>\n", out);
	return ferror(out) ? -1 : 0;
}

/* compare_html_write as a page body. */
static int comparison_body(FILE *out, const void *doc)
{
	return compare_html_write(out, doc);
}

int compare_html_page(FILE *out, const json_t *doc)
{
	return report_html_page(out, "EBS benchmark comparison", comparison_body, doc);
}
