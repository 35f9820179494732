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

/* The rest of the folder's face (last: each sees what is declared above). */
#include "output/output_json.h"

#endif
