/* job_account.h - the loop's completing side (job_account.c): what a
 * completion and a closed window add to the statistics and logs. */
#ifndef EBSBENCH_JOB_ACCOUNT_H
#define EBSBENCH_JOB_ACCOUNT_H

#include "job/job_loop.h"
#include "job/window.h"

/* One completion (at now) into the statistics, windows and
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
