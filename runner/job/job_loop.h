/* job_loop.h - the engine loop's state, shared by the three files that make
 * the loop: job.c (start, turn, stop), job_issue.c (what the next I/O is:
 * direction, size, offset, priority, and when a sync is due) and
 * job_account.c (what a completion adds to the statistics, windows and
 * logs), each with its own header.  Only job/ includes these; everyone else
 * calls job_run. */
#ifndef EBSBENCH_JOB_LOOP_H
#define EBSBENCH_JOB_LOOP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>

#include "device/device.h"
#include "engine/engine.h"
#include "job/iolog.h"
#include "job/offsets.h"
#include "job/options.h"
#include "job/progress.h"
#include "job/rate.h"
#include "job/rng.h"
#include "job/steadystate.h"
#include "job/target.h"
#include "job/window.h"
#include "stats/stats.h"

struct job_loop {
	const struct job_options *o;
	const struct target *t;
	struct job_stats *s;
	struct iolog *logs;
	struct engine engine;
	struct io_unit *units;
	struct io_unit **done;
	struct io_unit **batch; /* queued this turn, awaiting their issue time */
	struct io_unit *free_list;
	void *buffers;
	unsigned depth;
	unsigned submit_max; /* I/Os per submit call at most: iodepth_batch_submit */
	unsigned inflight;
	struct offset_gen offsets;
	struct rng mix;
	struct window_tracker windows;
	struct window_tracker hist_windows; /* log_hist_msec's, for the histogram log */
	struct progress progress;
	struct rate_schedule rate; /* a rated job's issue times */
	bool rated;
	uint64_t seed;
	uint64_t start_ns;    /* job start, ramp included */
	uint64_t measure_ns;  /* end of ramp: stats count from here */
	uint64_t deadline_ns; /* stop issuing here; 0 = none */
	bool measuring;
	bool stopping;
	bool deadline_reached;
	/* --fsync/--fdatasync: writes issued since the last sync, and whether
	 * a sync is in flight (nothing is issued past it). */
	unsigned writes_since_sync;
	bool sync_inflight;
	/* trimwrite, randtrimwrite: the block just trimmed, written next. */
	bool write_trimmed;
	uint64_t trimmed_offset;
	uint32_t trimmed_length;
	/* io_size and number_ios (options.h): the bytes issued that count
	 * toward io_size, and the I/Os toward number_ios. */
	uint64_t issued_bytes;
	uint64_t counted_ios;
	/* fio's steady state (job_steady.c): the detection this job samples
	 * (NULL: none, or another member of its group samples), the group
	 * whose counts it shares, and the sampling clock: the next sample's
	 * time and the last look, in ns since measure_ns, with the counts
	 * then. */
	struct steadystate *ss;
	struct ss_group *ss_group;
	unsigned ss_member;
	uint64_t ss_next_ns;
	uint64_t ss_prev_ns;
	uint64_t ss_prev_ios;
	uint64_t ss_prev_bytes;
	struct blkdev_contents *check_reads; /* job_context's */
	struct rusage usage_start;
	struct disk_sample disk_start;
	char *err;
	size_t errlen;
};

#endif
