/* output.h - a finished job as fio prints it: JSON, JSON+ or the human form. */
#ifndef EBSBENCH_OUTPUT_H
#define EBSBENCH_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "job/job.h"
#include "stats/stats.h"

/* fio's JSON document for one job (json+ adds clat "bins").
 * Returns 0, or -1 when writing failed. */
int output_json(FILE *out, const struct job_options *o, const struct job_stats *s, bool plus);

/* The human report, laid out like fio's normal output. */
int output_normal(FILE *out, const struct job_options *o, const struct job_stats *s);

/* fio's terse line, version 3 (what --output-format=terse prints). */
int output_terse(FILE *out, const struct job_options *o, const struct job_stats *s);

/* Every format o->output_format names, each once, in fio's order: terse,
 * then JSON (or JSON+), then normal.  Returns 0, or -1 when writing failed. */
int output_formats(FILE *out, const struct job_options *o, const struct job_stats *s);

/* The rest of the folder's face (last: each sees what is declared above). */
#include "output/output_json.h"

#endif
