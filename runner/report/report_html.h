/* report_html.h - report.html (inner header of report/): one self-contained
 * page (no scripts, fonts, styles or images from elsewhere) that shows the
 * summary (TL;DR, every phase table, the cliff, findings, cost), the
 * recommendation and every chart inline, light and dark, printable.
 *
 * The page is a table of sections, each one function writing HTML.  The
 * summary and the recommendation are their Markdown writers' text
 * (summary.c over summary_cells.c, recommend_md.c) formatted as HTML, so
 * no cell is computed twice and the two files cannot disagree; a chart the
 * Markdown links to is inlined there, drawn by the same SVG writer as its
 * file, without its XML prolog. */
#ifndef EBSBENCH_REPORT_HTML_H
#define EBSBENCH_REPORT_HTML_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "report/report.h"

/* The whole page: a report renderer (report.c).  0, or -1 on a write error. */
int report_html_write(FILE *out, json_t *const *runs, size_t nruns);

/* A page titled title (escaped) in the report's style and policy, its
 * content what body writes for ctx: for the pages of compare and of the
 * fleet view.  0, or -1 when body or a write fails. */
int report_html_page(FILE *out, const char *title, int (*body)(FILE *, const void *),
		     const void *ctx);

/* What the Markdown formatter asks its caller about links and images. */
struct report_html_hooks {
	void *ctx;
	/* Writes the block for ![alt](target) (a chart inline): 0, or -1. */
	int (*image)(void *ctx, FILE *out, const char *alt, const char *target);
	/* The in-page href for [text](target), or NULL: the text alone, since
	 * the page links nowhere else. */
	const char *(*link)(void *ctx, const char *target);
};

/* Writes the Markdown the report's writers produce (headings, pipe tables,
 * quotes, lists, paragraphs, code; **bold**, `code`, links, images, "\|",
 * "&lt;", "&amp;" and "<br>") as HTML, every "## " part in a <section>.  Any other
 * '<', '>' or '&' is escaped, so no text from a device or a config can
 * open a tag.  0, or -1 on a write error. */
int report_html_markdown(FILE *out, const char *md, const struct report_html_hooks *hooks);

/* Writes len bytes of text as HTML character data or an attribute value. */
void report_html_text(FILE *out, const char *text, size_t len);

#endif
