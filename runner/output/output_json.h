/* output_json.h - the pieces of fio's JSON document, for embedding one job
 * in a larger record (results.json keeps every phase as a fio job). */
#ifndef EBSBENCH_OUTPUT_JSON_H
#define EBSBENCH_OUTPUT_JSON_H

#include <jansson.h>
#include <stdbool.h>

#include "job/job.h"
#include "stats/stats.h"

/* One element of fio's "jobs" array; ss: the job's steady-state record
 * (its "steadystate" object), or NULL. */
json_t *output_job_json(const struct job_options *o, const struct job_stats *s,
			const struct steadystate *ss, bool plus);

#endif
