/* html_table.h - every HTML table of report.html and of compare's and the
 * fleet's sections through one writer (inner header of report/): the
 * <table>, <thead>, <tbody> and <tr> structure and where lines end, one
 * layout per kind of table; what a cell holds is its caller's (escaped
 * text, or the Markdown renderer's inline markup). */
#ifndef EBSBENCH_HTML_TABLE_H
#define EBSBENCH_HTML_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum html_table_layout {
	HTML_TABLE_MARKDOWN, /* a Markdown table in report.html: in <div class="table">
				(it scrolls when wide), its head rows on lines of their own */
	HTML_TABLE_DEVICES,  /* report.html's devices: in <div class="table"> */
	HTML_TABLE_COMPARE,  /* compare's section */
	HTML_TABLE_FLEET,    /* the fleet's distributions: class fleet-dist, a cell a line */
};

struct html_table {
	FILE *out;
	enum html_table_layout layout;
	bool body; /* past the head: rows are the body's */
};

/* Writes cell i's content (escaped by the caller). */
typedef void html_cell_fn(FILE *out, size_t i, const void *ctx);

/* Opens the table and its head. */
void html_table_open(struct html_table *t, FILE *out, enum html_table_layout layout);
/* One row of n cells, the first th of them <th>, the rest <td>. */
void html_table_row(struct html_table *t, size_t n, size_t th, html_cell_fn *put, const void *ctx);
/* A row of texts (NULL: empty), each escaped as XML (svg_put_xml). */
void html_table_texts(struct html_table *t, const char *const *cells, size_t n, size_t th);
/* Ends the head: the rows that follow are the body's. */
void html_table_body(struct html_table *t);
/* Closes the table (its head, when no body came). */
void html_table_close(struct html_table *t);

#endif
