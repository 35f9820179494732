/* output.h - a finished job as fio prints it: JSON, JSON+ or the human form. */
#ifndef EBSBENCH_OUTPUT_H
#define EBSBENCH_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "job/job.h"
#include "stats/stats.h"

/* One entry of fio's "jobs": a job, or with group_reporting its group's
 * sum (jobs > 1). */
struct job_report {
	const struct job_options *o; /* the job's, or the group's first job's */
	const struct job_stats *s;
	unsigned groupid;
	unsigned jobs;	/* jobs summed into it */
	unsigned clone; /* 0, or which numjobs copy of its job it is (1..) */
};

/* fio's JSON document for a run: "global options" (those global gives;
 * none for NULL), one entry per report in order, the run's start time and
 * disk_util once.  Returns 0, or -1 when writing failed. */
int output_json_run(FILE *out, const struct job_options *global, const struct job_report *r,
		    unsigned n, const struct disk_util *disk, int64_t start_unix_ms, bool plus);
/* fio's normal output for a run: every job, then each group's totals, then
 * the disk once. */
int output_normal_run(FILE *out, const struct job_report *r, unsigned n,
		      const struct disk_util *disk);

/* fio's JSON document for one job (json+ adds clat "bins").
 * Returns 0, or -1 when writing failed. */
int output_json(FILE *out, const struct job_options *o, const struct job_stats *s, bool plus);

/* The human report, laid out like fio's normal output. */
int output_normal(FILE *out, const struct job_options *o, const struct job_stats *s);

/* The rest of the folder's face (last: each sees what is declared above). */
#include "output/output_json.h"

#endif
