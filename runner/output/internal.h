/* internal.h - what output/'s files share among themselves and nothing
 * outside output/ calls: a run's reports as every form reads them, each
 * form's entry point, and the one-job forms.  The face (output/output.h)
 * never includes it. */
#ifndef EBSBENCH_OUTPUT_INTERNAL_H
#define EBSBENCH_OUTPUT_INTERNAL_H

#include <stdbool.h>
#include <stdio.h>

#include "job/job.h"
#include "output/output.h"
#include "stats/stats.h"

/* What every form prints: a run's reports. */
/* One entry of fio's "jobs": a job, or with group_reporting its group's
 * sum (jobs > 1). */
struct job_report {
	const struct job_options *o; /* the job's, or the group's first job's */
	const struct job_stats *s;
	unsigned groupid;
	unsigned jobs;	/* jobs summed into it */
	unsigned clone; /* 0, or which numjobs copy of its job it is (1..) */
	/* fio's steady-state record (its group's last job's), or NULL. */
	const struct steadystate *ss;
};

/* A whole run as fio prints it at the end: its reports in order and what
 * fio shows once for the run. */
struct run_report {
	const struct job_options *global; /* "global options"; NULL for none */
	const struct job_report *r;
	unsigned n;
	const struct disk_util *disk; /* fio's one disk_util */
	int64_t start_unix_ms;
	enum idle_prof idle_prof;	 /* --idle-prof: cpu_idleness in the JSON */
	const struct cpu_idleness *idle; /* measured over the run, with idle_prof */
};

/* output_common.c: one job as a run of its own. */
/* One job as a run of its own (report and run filled from o and s, its
 * disk from s), for the one-job forms below and results.json's phases. */
void output_run_of_job(struct run_report *run, struct job_report *one, const struct job_options *o,
		       const struct job_stats *s);

/* output_json.c: fio's JSON document, for a run or one job. */
/* fio's JSON document for a run: "global options", one entry per report
 * in order, the run's start time, disk_util and cpu_idleness once (json+
 * adds clat "bins").  Returns 0, or -1 when writing failed. */
int output_json_run(FILE *out, const struct run_report *run, bool plus);
/* One job's JSON (json+ with plus), a run of its own. */
int output_json(FILE *out, const struct job_options *o, const struct job_stats *s, bool plus);

/* output_normal.c: fio's normal output, for a run or one job. */
/* fio's normal output for a run: every job, then each group's totals, then
 * the disk once. */
int output_normal_run(FILE *out, const struct run_report *run);
/* One job's normal output, a run of its own. */
int output_normal(FILE *out, const struct job_options *o, const struct job_stats *s);

/* output_terse.c: fio's terse lines, and every format a job list names. */
/* fio's terse lines, version 3: one per report, each ending in the run's
 * disk. */
int output_terse_run(FILE *out, const struct run_report *run);
/* Every format the output_format bits name, each once, in fio's order:
 * every terse line, then the JSON (or JSON+) document, then normal.
 * Returns 0, or -1 when writing failed. */
int output_formats(FILE *out, const struct run_report *run, unsigned formats);

#endif
