/* summary.h - summary.md, the report a user reads first, rendered from
 * parsed results.json documents (results.h) so `ebsbench report` can
 * rebuild it from any old results directory.
 *
 * A missing phase, key or whole "analysis" section renders as
 * REPORT_MISSING (an em dash), so a run stopped early or a document from
 * an older ebsbench still renders. */
#ifndef EBSBENCH_SUMMARY_H
#define EBSBENCH_SUMMARY_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/* One run (nruns == 1): environment, the reference benchmark's TL;DR, a section per
 * phase, the cliff, findings, cost and the list of phases.  A fleet
 * (nruns > 1): one TL;DR with a column per run and device, cost, and each
 * run's findings.  Returns 0, or -1 on a write error. */
int summary_write(FILE *out, json_t *const *runs, size_t nruns);

/* The TL;DR table alone: what `ebsbench run` shows when it finishes.
 * Returns 0, or -1 on a write error. */
int summary_write_tldr(FILE *out, json_t *const *runs, size_t nruns);

#endif
