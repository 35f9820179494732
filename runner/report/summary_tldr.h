/* summary_tldr.h - summary.md's TL;DR and the notes under it
 * (summary_tldr.c). */
#ifndef EBSBENCH_SUMMARY_TLDR_H
#define EBSBENCH_SUMMARY_TLDR_H

#include <jansson.h>
#include <stdio.h>

#include "report/summary_table.h"

/* The measured table and its notes, for every column of c. */
void summary_tldr_write(FILE *out, const struct results_columns *c);
/* The model's second of a credit cliff the run stopped short of (the quick
 * plan's), from analysis.devices[].cliff.predicted: NULL when the cliff was
 * measured or none was predicted. */
const char *summary_predicted_cliff(const json_t *run, const char *label);
/* "> **Credit cliff:** sentence": under the TL;DR and again in the cliff
 * phase's section, so no reader takes the burst figure for what the volume
 * sustains. */
void summary_predicted_cliff_write(FILE *out, const char *sentence);

#endif
