/* fleet_html.c - the fleet as an HTML fragment for report.html: a
 * <section> with the same words and tables as fleet.md (fleet_md.c makes
 * them), every text escaped, and the fleet chart inline (the same
 * svg_fleet, its XML prolog left out, as HTML has none inside a page). */
#include "report/fleet.h"

#include <stdlib.h>
#include <string.h>

#include "report/html_table.h"
#include "report/report.h"
#include "report/report_html.h"
#include "report/svg_draw.h"
#include "report/svg_fleet.h"

/* A paragraph or list item holding text, escaped. */
static void html_text(FILE *out, const char *tag, const char *text)
{
	fprintf(out, "<%s>", tag);
	svg_put_xml(out, text);
	fprintf(out, "</%s>\n", tag);
}

/* One class: its heading, distribution table and merged percentiles. */
static void html_group(FILE *out, const struct fleet *f, size_t g)
{
	char cells[FLEET_DIST_COLUMNS][FLEET_CELL_LEN], text[FLEET_TEXT_LEN];
	const char *row[FLEET_DIST_COLUMNS];
	struct html_table t;

	fputs("<h3>", out);
	svg_put_xml(out, f->group[g].name);
	fprintf(out, " (%zu volumes)</h3>\n", f->group[g].volumes);
	html_table_open(&t, out, HTML_TABLE_FLEET);
	html_table_texts(&t, fleet_dist_headings, FLEET_DIST_COLUMNS, 0);
	html_table_body(&t);
	for (int k = 0; k < FLEET_FIGURES; k++) {
		if (!fleet_dist_cells(f, g, (enum fleet_figure)k, cells))
			continue;
		for (int c = 0; c < FLEET_DIST_COLUMNS; c++)
			row[c] = cells[c];
		html_table_texts(&t, row, FLEET_DIST_COLUMNS, 1);
	}
	html_table_close(&t);
	fputs("<ul class=\"fleet-merged\">\n", out);
	for (int p = 0; p < FLEET_HIST_PHASES; p++) {
		if (fleet_merged_text(text, sizeof(text), f, g, (enum fleet_hist_phase)p))
			html_text(out, "li", text);
	}
	fputs("</ul>\n", out);
}

/* The chart inline: svg_fleet's output from its <svg> element on. */
static int html_chart(FILE *out, const struct fleet *f)
{
	char *svg = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&svg, &len);
	if (!mem)
		return -1;
	int rc = svg_fleet(mem, f);
	if (fclose(mem) || rc || !svg) {
		free(svg);
		return -1;
	}
	const char *start = strstr(svg, "<svg");
	fprintf(out, "<figure class=\"chart\" data-artifact=\"%s\">\n%s</figure>\n", FLEET_SVG_FILE,
		start ? start : svg);
	free(svg);
	return 0;
}

int fleet_html_write(FILE *out, const struct fleet *f)
{
	char text[FLEET_TEXT_LEN * 2];

	fputs("<section class=\"fleet\" id=\"fleet\">\n<h2>Fleet</h2>\n", out);
	html_text(out, "p", fleet_intro_text(text, sizeof(text), f));
	for (size_t g = 0; g < f->ngroups; g++)
		html_group(out, f, g);
	fputs("<h3>Outliers</h3>\n", out);
	if (!f->noutliers)
		html_text(out, "p", FLEET_NO_OUTLIERS);
	else
		fputs("<ul class=\"fleet-outliers\">\n", out);
	for (size_t i = 0; i < f->noutliers; i++)
		html_text(out, "li", fleet_outlier_text(text, sizeof(text), f, &f->outlier[i]));
	if (f->noutliers)
		fputs("</ul>\n", out);
	int rc = html_chart(out, f);
	fputs("</section>\n", out);
	return rc || ferror(out) ? -1 : 0;
}

/* fleet_html_write as a page body. */
static int fleet_body(FILE *out, const void *f)
{
	return fleet_html_write(out, f);
}

int fleet_html_page(FILE *out, const struct fleet *f)
{
	return report_html_page(out, "EBS fleet report", fleet_body, f);
}
