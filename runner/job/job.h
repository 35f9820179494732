/* job.h - run one job: keep iodepth I/Os in flight on the target (or, with
 * --rate_iops, issue each I/O at its due time, at most iodepth in flight)
 * until the region is done or the runtime is up, and measure every
 * completion. */
#ifndef EBSBENCH_JOB_H
#define EBSBENCH_JOB_H

#include <signal.h>
#include <stddef.h>

#include "device/device.h"
#include "job/iolog.h"
#include "job/options.h"
#include "job/steadystate.h"
#include "stats/stats.h"
#include "job/target.h"

struct job_context {
	/* Set (by a signal handler) to end the job early with its results so
	 * far, as SIGINT does for fio. */
	const volatile sig_atomic_t *stop;
	/* Progress label; NULL: "name on filename (engine)". */
	const char *label;
	/* Planned time after this job, so progress shows the whole run's ETA. */
	uint64_t remaining_after_ns;
	/* Other jobs run beside it (threads of a group, a together phase):
	 * its progress is a line every 10 s, never a redrawn line. */
	bool beside;
	/* NULL, or: every read's data is scanned into it as the write guard
	 * scans a device (blkdev_scan_area), and the job stops at the first
	 * sector that is neither zeros nor ebsbench's own (read_first.h). */
	struct blkdev_contents *check_reads;
	/* NULL, or where fio's steady-state detection of the job's ss options
	 * keeps its samples and verdict (set up by job_run).  With
	 * ss_group, the job shares its counts as member ss_member of the
	 * group, and only the last member has ss. */
	struct steadystate *ss;
	struct ss_group *ss_group;
	unsigned ss_member;
};

/* Returns 0 when the job ran (an I/O error is reported in s->error and
 * err), -1 when it could not start (err says why). */
int job_run(const struct job_options *o, const struct target *t, struct iolog *logs,
	    struct job_stats *s, const struct job_context *ctx, char *err, size_t errlen);

/* The rest of the folder's face (last: each sees what is declared above). */
#include "job/jobfile.h"
#include "job/init_probe.h"
#include "job/jobs.h"
#include "job/options_json.h"
#include "job/read_first.h"

#endif
