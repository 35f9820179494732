/* compare.h - `ebsbench compare`'s document (decide/compare.h) as a
 * reader sees it: Markdown for compare.md and stdout, and an HTML section
 * for report.html.  Both take their cells and sentences from
 * compare_cells.c, so the two say the same thing the same way. */
#ifndef EBSBENCH_REPORT_COMPARE_H
#define EBSBENCH_REPORT_COMPARE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* One run's figure with its interval: "3,001 (2,990 to 3,010)". */
const char *compare_cell_value(char *buf, size_t len, const json_t *metric, const char *side);
/* The change from A to B: "+12 IOPS (+0.4 %)", "-0.120 ms (-3.1 %)". */
const char *compare_cell_change(char *buf, size_t len, const json_t *metric);
/* "IOPS", "throughput", "p50", "p99". */
const char *compare_cell_metric(const json_t *metric);
/* A row's phase: "randread (burst)", "loadcurve 110 %". */
const char *compare_cell_phase(char *buf, size_t len, const json_t *row);
/* A device's cliff times in one sentence, the verdict in its words. */
const char *compare_cliff_sentence(char *buf, size_t len, const json_t *cliff);
/* doc[side][key] as text (doc[key] with side NULL), or REPORT_MISSING:
 * the runs table's name, start, instance type and version. */
const char *compare_run_fact(const json_t *doc, const char *side, const char *key);

/* How a format writes the layout's parts; compare_md.c and compare_html.c
 * each fill one. */
struct compare_format {
	void (*heading)(FILE *out, const char *text);
	void (*paragraph)(FILE *out, const char *text);
	void (*item)(FILE *out, const char *text, bool first); /* one of a list */
	void (*list_end)(FILE *out);
	void (*row)(FILE *out, const char *const *cells, size_t n, bool header);
	void (*table_end)(FILE *out);
};

/* The runs, the warnings, the cliffs, the phase table and the method, in
 * that order, through fmt. */
void compare_layout(FILE *out, const json_t *doc, const struct compare_format *fmt);

/* compare.md: the runs, the warnings, the cliffs, the phase table, the
 * method.  Returns 0, or -1 when out could not be written. */
int compare_md_write(FILE *out, const json_t *doc);
/* The same as an HTML fragment: one <section class="ebsbench-compare">
 * with its tables, every text escaped; report.html embeds it.  Returns 0,
 * or -1 when out could not be written. */
int compare_html_write(FILE *out, const json_t *doc);

/* A report.html of its own for compare --out: the page of report.html
 * (its style, no scripts, nothing loaded) with the comparison section.
 * 0, or -1 on a write error. */
int compare_html_page(FILE *out, const json_t *doc);

#endif
