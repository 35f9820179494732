/* jobfile.h - fio's command line and INI job files turned into the list of
 * jobs a run does, in fio's order and with fio's groups.
 *
 * As fio's init.c: options before the first --name are the defaults every
 * command-line job and the first job file's jobs start from; --name starts
 * a job; the jobs of the files follow the command line's, each file's
 * [global] sections the defaults of the jobs after them, the second and
 * later files starting afresh behind a stonewall.  Every option goes
 * through the one options table (job/options.h). */
#ifndef EBSBENCH_JOBFILE_H
#define EBSBENCH_JOBFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "job/options.h"

/* Most jobs one run holds, clones included. */
#define JOBFILE_MAX_JOBS 256
/* Most job files one command reads, and how deep includes may nest. */
#define JOBFILE_MAX_FILES 16
#define JOBFILE_MAX_INCLUDE_DEPTH 8

/* One job of the run: a clone of numjobs is an entry of its own. */
struct job_entry {
	struct job_options o;
	unsigned groupid; /* fio's: a stonewall after any job starts the next group */
	unsigned number;  /* 1-based position, fio's thread_number: names logs, seeds */
	unsigned clone;	  /* 0 for the job as written, 1.. for numjobs' copies */
};

struct job_list {
	struct job_entry *jobs; /* in the order fio runs and reports them */
	unsigned count;
	unsigned groups;	    /* groupid of the last job + 1 */
	struct job_options *run;    /* the command line's output and output-format */
	struct job_options *global; /* the defaults as the last file left them: fio's
				     * "global options" */
};

/* Reads argv (job files and --name[=value] words, in any order) into l,
 * which it allocates; jobfile_free releases it even after a failure.
 * Returns 0, or -1 with a one-line reason in err (options from a file
 * name FILE:LINE). */
int jobfile_parse_argv(struct job_list *l, int argc, char **argv, char *err, size_t errlen);
void jobfile_free(struct job_list *l);

#endif
