/* fleet.h - the fleet report of `ebsbench report DIR DIR ...`
 * (decide/fleet.h): fleet.md, fleet.json and fleet.svg, each written by
 * one function to a FILE *, and the HTML section report.html embeds.
 * The words and numbers md and HTML both show are made once, in
 * fleet_text.c; fleet.c writes the files. */
#ifndef EBSBENCH_REPORT_FLEET_H
#define EBSBENCH_REPORT_FLEET_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "decide/decide.h"

#define FLEET_JSON_SCHEMA 1
#define FLEET_TEXT_LEN 512
#define FLEET_CELL_LEN 96 /* a table cell: a title or a number and its unit */
/* What the outliers section says when there are none. */
#define FLEET_NO_OUTLIERS                                                                          \
	"None: every volume's figures lie within 3 scaled MADs of its class's median."

/* The distribution table's columns: figure, volumes, min, p25, median, p75, max. */
#define FLEET_DIST_COLUMNS 7
extern const char *const fleet_dist_headings[FLEET_DIST_COLUMNS];

/* A figure's value in its unit ("3,001 IOPS", "1.65 ms", "12.5 s"). */
const char *fleet_value_text(char *buf, size_t len, enum fleet_figure k, double value);
/* Whether any class measured figure k. */
bool fleet_has_figure(const struct fleet *f, enum fleet_figure k);
/* The cells of group g's row for figure k; false when it has no value. */
bool fleet_dist_cells(const struct fleet *f, size_t g, enum fleet_figure k,
		      char cells[FLEET_DIST_COLUMNS][FLEET_CELL_LEN]);
/* The opening sentences: how many volumes, runs and classes, the rule. */
const char *fleet_intro_text(char *buf, size_t len, const struct fleet *f);
/* Group g's merged percentiles of phase p in a sentence; false without a histogram. */
bool fleet_merged_text(char *buf, size_t len, const struct fleet *f, size_t g,
		       enum fleet_hist_phase p);
/* An outlier in a sentence: which volume, which figure, by how much. */
const char *fleet_outlier_text(char *buf, size_t len, const struct fleet *f,
			       const struct fleet_outlier *o);
/* "DIR:device", how a volume is named everywhere in the report. */
const char *fleet_volume_name(char *buf, size_t len, const struct fleet_volume *v);

int fleet_md_write(FILE *out, const struct fleet *f);
/* fleet.json's document; a new reference (NULL out of memory). */
json_t *fleet_json(const struct fleet *f);
int fleet_json_write(FILE *out, const struct fleet *f);
/* The fleet as an HTML fragment (a <section>, text escaped, the chart
 * inline) for report.html. */
int fleet_html_write(FILE *out, const struct fleet *f);
/* The fleet's report.html: the page of report.html (its style, no scripts,
 * nothing loaded) with the fleet section; with several directories it
 * takes the place of the side-by-side page, which does not scale. */
int fleet_html_page(FILE *out, const struct fleet *f);
/* Writes fleet.md, fleet.json, fleet.svg and report.html into dir; -1 with a reason
 * naming the file. */
int fleet_render(const struct fleet *f, const char *dir, char *err, size_t errlen);

#endif
