/* fleet_md.c - fleet.md: the fleet_text.c words as Markdown, a class's
 * figures in a table, names from directories and labels escaped
 * (md_table.c). */
#include "report/fleet.h"

#include "report/md_table.h"
#include "report/report.h"

/* One class: its distribution table and merged percentiles. */
static void md_group(FILE *out, const struct fleet *f, size_t g)
{
	char cells[FLEET_DIST_COLUMNS][FLEET_CELL_LEN], text[FLEET_TEXT_LEN];
	const char *row[FLEET_DIST_COLUMNS];

	fputs("\n## ", out);
	md_text(out, f->group[g].name);
	fprintf(out, " (%zu volumes)\n\n", f->group[g].volumes);
	md_table_row(out, fleet_dist_headings, FLEET_DIST_COLUMNS);
	md_table_rule(out, FLEET_DIST_COLUMNS);
	for (int c = 0; c < FLEET_DIST_COLUMNS; c++)
		row[c] = cells[c];
	for (int k = 0; k < FLEET_FIGURES; k++) {
		if (fleet_dist_cells(f, g, (enum fleet_figure)k, cells))
			md_table_row(out, row, FLEET_DIST_COLUMNS);
	}
	fputc('\n', out);
	for (int p = 0; p < FLEET_HIST_PHASES; p++) {
		if (fleet_merged_text(text, sizeof(text), f, g, (enum fleet_hist_phase)p))
			fprintf(out, "- %s\n", text);
	}
}

int fleet_md_write(FILE *out, const struct fleet *f)
{
	char text[FLEET_TEXT_LEN * 2];

	fprintf(out, "# Fleet report\n\n%s\n", fleet_intro_text(text, sizeof(text), f));
	if (f->hist_skipped)
		fprintf(out,
			"\n%zu histograms had another bin layout than the first and were left "
			"out of the merged percentiles.\n",
			f->hist_skipped);
	for (size_t g = 0; g < f->ngroups; g++)
		md_group(out, f, g);
	fprintf(out, "\n## Outliers\n\n");
	if (!f->noutliers)
		fprintf(out, "%s\n", FLEET_NO_OUTLIERS);
	for (size_t i = 0; i < f->noutliers; i++) {
		fputs("- ", out);
		md_text(out, fleet_outlier_text(text, sizeof(text), f, &f->outlier[i]));
		fputc('\n', out);
	}
	fprintf(out, "\n![fleet](%s)\n", FLEET_SVG_FILE);
	return ferror(out) ? -1 : 0;
}
