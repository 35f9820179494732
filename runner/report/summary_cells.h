/* summary_cells.h - what each cell of summary.md's tables says: the rows of
 * the reference benchmark's TL;DR and of a measurement table, each a function of one
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

/* The reference benchmark's TL;DR: random read IOPS and p99, random write IOPS, qd1
 * latency, sequential read / write, monthly cost. */
extern const struct summary_row summary_cells_tldr_rows[];
extern const size_t summary_cells_tldr_count;

/* A measurement table: IOPS, per-second mean and range, throughput,
 * latency, EBS throttling, Little's law, kernel-vs-engine check. */
extern const struct summary_row summary_cells_phase_rows[];
extern const size_t summary_cells_phase_count;

/* The cost table's columns: analysis.devices[].cost. */
void summary_cells_monthly(char *buf, size_t len, const struct summary_cell_ctx *c);
void summary_cells_per_3000(char *buf, size_t len, const struct summary_cell_ctx *c);

#endif
