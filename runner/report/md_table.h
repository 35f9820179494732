/* md_table.h - Markdown text and pipe tables (inner header of report/):
 * every Markdown file of the report writes text from devices and configs
 * through one escaping rule, so a label shows as itself in the .md and in
 * report.html (report_html_md.c reads the same rule back). */
#ifndef EBSBENCH_MD_TABLE_H
#define EBSBENCH_MD_TABLE_H

#include <stddef.h>
#include <stdio.h>

/* Writes text (NULL: nothing) so it reads as plain text in a table cell,
 * a heading, a list item or a paragraph: '\\' and '|' backslashed (a pipe
 * would split the cell), '<' and '&' as "&lt;" and "&amp;" (no tag, no
 * entity), each CR or LF a space (a newline would end the row or the
 * line).  Emphasis characters stay as they are. */
void md_text(FILE *out, const char *text);

/* "| a | b |" and a newline, every cell through md_text. */
void md_table_row(FILE *out, const char *const *cells, size_t n);

/* The line under a table's header: "|---|---|" for n columns. */
void md_table_rule(FILE *out, size_t n);

/* A table's header: its row of names and the rule under it. */
void md_table_head(FILE *out, const char *const *names, size_t n);

#endif
