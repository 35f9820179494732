/* summary_table.c - the table summary.md's TL;DR and phase sections share
 * (summary_table.h): columns are devices of runs, rows are cell functions,
 * every cell's text through md_table.c's one escaping rule. */
#include "report/summary_table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/md_table.h"
#include "report/report_format.h"

#define DOT " \xc2\xb7 " /* U+00B7 middle dot */

const char *summary_table_env(const json_t *run, const char *key)
{
	const char *s = json_string_value(RESULTS_GET(run, RESULTS_KEY_ENVIRONMENT, key));
	return s ? s : REPORT_MISSING;
}

static void column_header(FILE *out, const struct results_column *col, bool fleet)
{
	char title[SUMMARY_CELL_LEN];

	if (fleet) {
		fprintf(out, "run %zu" DOT, col->run_index);
		md_text(out, summary_table_env(col->run, "instance_id"));
		fputs(DOT, out);
		md_text(out, summary_table_env(col->run, "started"));
		fputs("<br>", out);
	}
	md_text(out, report_device_title(title, sizeof(title), col->device));
}

void summary_table_phase_shape(char *buf, size_t len, const struct results_column *cols,
			       size_t ncols, const char *phase)
{
	char size[REPORT_NUM_LEN];

	buf[0] = '\0';
	for (size_t i = 0; i < ncols; i++) {
		const json_t *p = results_phase(cols[i].run, phase, results_label(cols[i].device));
		double bs = results_num(json_object_get(p, "bs"));
		double qd = results_num(json_object_get(p, "iodepth"));
		if (isfinite(bs) && isfinite(qd)) {
			snprintf(buf, len, " (%s, qd%.0f)", report_size(size, sizeof(size), bs),
				 qd);
			return;
		}
	}
}

void summary_table_header(FILE *out, const char *corner, const struct results_column *cols,
			  size_t ncols, bool fleet)
{
	fprintf(out, "| %s |", corner);
	for (size_t i = 0; i < ncols; i++) {
		fputc(' ', out);
		column_header(out, &cols[i], fleet);
		fputs(" |", out);
	}
	fputc('\n', out);
	md_table_rule(out, ncols + 1);
}

void summary_table_rows(FILE *out, const struct summary_row *rows, size_t nrows,
			const struct results_column *cols, size_t ncols, const char *section_phase)
{
	char *cells = malloc(ncols * SUMMARY_CELL_LEN + 1);
	const char **row = calloc(ncols + 1, sizeof(*row));
	char label[2 * SUMMARY_CELL_LEN], shape[SUMMARY_CELL_LEN];

	for (size_t r = 0; cells && row && r < nrows; r++) {
		const char *phase = rows[r].phase ? rows[r].phase : section_phase;
		bool any = !section_phase;
		for (size_t i = 0; i < ncols; i++) {
			char *cell = cells + i * SUMMARY_CELL_LEN;
			const char *device = results_label(cols[i].device);
			struct summary_cell_ctx ctx = {
				cols[i].run, device,
				phase ? results_phase(cols[i].run, phase, device) : NULL
			};
			rows[r].cell(cell, SUMMARY_CELL_LEN, &ctx);
			any = any || strcmp(cell, REPORT_MISSING);
			row[i + 1] = cell;
		}
		if (!any)
			continue;
		shape[0] = '\0';
		if (!section_phase && phase)
			summary_table_phase_shape(shape, sizeof(shape), cols, ncols, phase);
		snprintf(label, sizeof(label), "%s%s", rows[r].label, shape);
		row[0] = label;
		md_table_row(out, row, ncols + 1);
	}
	free(row);
	free(cells);
}
