/* job_loop.h - the engine loop's state, shared by the three files that make
 * the loop: job.c (start, turn, stop), job_issue.c (what the next I/O is:
 * direction, size, offset, priority, and when a sync is due) and
 * job_account.c (what a completion adds to the statistics, windows and
 * logs).  Only job/ includes this; everyone else calls job_run. */
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
	struct blkdev_contents *check_reads; /* job_context's */
	struct rusage usage_start;
	struct disk_sample disk_start;
	char *err;
	size_t errlen;
};

/* job_issue.c: queues up to max I/Os while units are free (a rated job:
 * every I/O due by now), each I/O counted from now (its due time); returns
 * how many were queued into batch[]. */
unsigned job_fill_queue(struct job_loop *L, uint64_t now, unsigned max);
unsigned job_fill_due(struct job_loop *L, uint64_t now);

/* job_account.c: one completion (at now) into the statistics, windows and
 * logs; an error stops the job. */
void job_account(struct job_loop *L, struct io_unit *u, uint64_t now);
/* The window sinks: a closed window into the IOPS/bandwidth samples and
 * logs, a closed histogram-log window into its rows. */
void job_on_window(void *ctx, uint64_t end_ns, uint64_t span_ns, const struct window_totals *t);
void job_on_hist_window(void *ctx, uint64_t end_ns, uint64_t span_ns,
			const struct window_totals *t);
/* At the end: the last windows closed, runtime, CPU and disk figures. */
void job_finish_windows(struct job_loop *L, uint64_t end);
void job_finish_stats(struct job_loop *L, uint64_t end);

#endif
