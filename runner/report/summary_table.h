/* summary_table.h - summary.md's measurement tables (inner header of
 * report/): a column per device of a run, a row per cell function of
 * summary_cells.c.  The TL;DR, each phase section and a fleet's side by
 * side are this one table with other rows and more columns. */
#ifndef EBSBENCH_SUMMARY_TABLE_H
#define EBSBENCH_SUMMARY_TABLE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/summary_cells.h"
#include "results/results.h"

#define SUMMARY_CELL_LEN 256 /* one cell's text */

/* environment.key of a run, or REPORT_MISSING. */
const char *summary_table_env(const json_t *run, const char *key);

/* " (4k, qd32)" from the first column that ran the phase, else "". */
void summary_table_phase_shape(char *buf, size_t len, const struct results_column *cols,
			       size_t ncols, const char *phase);

/* The header row (corner, then each column's device; a fleet's also names
 * the run) and the rule under it. */
void summary_table_header(FILE *out, const char *corner, const struct results_column *cols,
			  size_t ncols, bool fleet);

/* A row per cell function.  section_phase NULL: the TL;DR, where every
 * row shows (with dashes) and labels carry the phase's shape; else a phase
 * section, where a row with nothing in any column is left out. */
void summary_table_rows(FILE *out, const struct summary_row *rows, size_t nrows,
			const struct results_column *cols, size_t ncols, const char *section_phase);

#endif
