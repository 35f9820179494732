/* jobs.h - a job list run as fio runs it: the jobs of one group (between
 * stonewalls) at once, a thread each with its own target, offsets and
 * stats, and the groups one after another. */
#ifndef EBSBENCH_JOBS_H
#define EBSBENCH_JOBS_H

#include <signal.h>
#include <stddef.h>

#include "job/jobfile.h"
#include "job/steadystate.h"
#include "stats/stats.h"

/* How one job of the list went. */
struct job_outcome {
	struct job_stats *stats; /* what it measured; zeros if it never started */
	int failed;		 /* 1: it could not run or an I/O failed (err says why) */
	char err[512];
	/* fio's steady-state record, with the job's ss options (ss.n 0: none;
	 * with group_reporting only the group's last job holds the group's). */
	struct steadystate ss;
};

struct jobs_result {
	struct job_outcome *outcomes; /* one per entry of the list, in its order */
	unsigned count;
	/* The first job's disk over the whole run, fio's one disk_util. */
	struct disk_util disk;
	int64_t start_unix_ms;
	/* With the command line's --idle-prof: the CPUs' idleness from the
	 * first group's start to the run's end, as fio's. */
	struct cpu_idleness idle;
};

/* Runs every job of l; stop (a signal flag) ends the running jobs early
 * and starts no more.  Returns 0 when the outcomes were filled (some jobs
 * may have failed), -1 when nothing could start (err says why). */
int jobs_run(struct jobs_result *r, const struct job_list *l, const volatile sig_atomic_t *stop,
	     char *err, size_t errlen);
void jobs_result_free(struct jobs_result *r);

/* Before any job of l runs: the region of each job that writes a block
 * device, unless it says allow_destroy=1, read whole (read_first.h), each
 * region once.  Returns 0 when every one held only zeros and ebsbench's
 * own data, or -1 with a one-line refusal in why naming the device and the
 * byte (or why it could not be read, or that stop ended the reading). */
int jobs_read_first(const struct job_list *l, const volatile sig_atomic_t *stop, char *why,
		    size_t len);

/* fio's sum_thread_stats over a group, for group_reporting: the n jobs'
 * I/O added up, histograms merged exactly, latency moments combined, window
 * samples summed (the group's bandwidth is its jobs' together), the runtime
 * the longest, CPU shares over the jobs' summed runtimes.  into is
 * initialised here. */
void jobs_merge_group(struct job_stats *into, const struct job_stats *const *from, unsigned n);

#endif
