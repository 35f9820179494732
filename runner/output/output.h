/* output.h - a finished job as fio prints it: JSON, JSON+ or the human form.
 * Outside output/: a job list's reports written, and one job's JSON for
 * results.json; the forms' own entry points are in output/internal.h. */
#ifndef EBSBENCH_OUTPUT_H
#define EBSBENCH_OUTPUT_H

#include <stddef.h>

#include "job/job.h"

/* A finished job list's reports (a job each, or with group_reporting
 * one per group, its jobs' stats merged) in every format l's
 * --output-format names, to stdout or l's --output.  0, or -1 with a
 * one-line reason (out of memory, the file, a failed write). */
int output_jobs_write(const struct job_list *l, const struct jobs_result *res, char *err,
		      size_t errlen);

/* The rest of the folder's face (last: each sees what is declared above). */
#include "output/output_json.h"

#endif
