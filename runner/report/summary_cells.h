/* summary_cells.h - what each cell of summary.md's tables says: the rows of
 * the seed's TL;DR and of a measurement table, each a function of one
 * device's phase.  summary.c lays them out. */
#ifndef EBSBENCH_SUMMARY_CELLS_H
#define EBSBENCH_SUMMARY_CELLS_H

#include <jansson.h>
#include <stddef.h>

/* A cell's inputs: one device of one run, and the row's phase on it. */
struct summary_cell_ctx {
	const json_t *run;
	const char *device;  /* label */
	const json_t *phase; /* NULL when the device did not run it */
};

/* Writes the cell's text, or REPORT_MISSING, into buf. */
typedef void summary_cell_fn(char *buf, size_t len, const struct summary_cell_ctx *c);

struct summary_row {
	const char *label;
	const char *phase; /* NULL: the phase of the table's section */
	summary_cell_fn *cell;
};

/* The seed's TL;DR: random read IOPS and p99, random write IOPS, qd1
 * latency, sequential read / write, monthly cost. */
extern const struct summary_row summary_tldr_rows[];
extern const size_t summary_tldr_row_count;

/* A measurement table: IOPS, per-second mean and range, throughput,
 * latency, EBS throttling, Little's law, kernel-vs-engine check. */
extern const struct summary_row summary_phase_rows[];
extern const size_t summary_phase_row_count;

/* The cost table's columns: analysis.devices[].cost. */
void summary_monthly_cell(char *buf, size_t len, const struct summary_cell_ctx *c);
void summary_per_3000_cell(char *buf, size_t len, const struct summary_cell_ctx *c);

#endif
