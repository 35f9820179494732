/* iolog.h - fio's log files: P_iops.1.log, P_bw.1.log, P_lat.1.log,
 * P_clat.1.log and P_slat.1.log, rows "time_ms, value, ddir, bs, offset". */
#ifndef EBSBENCH_IOLOG_H
#define EBSBENCH_IOLOG_H

#include <stdbool.h>
#include <stdio.h>

#include "job/options.h"
#include "job/window.h"

struct io_logs {
	FILE *iops, *bw, *lat, *clat, *slat;
	bool windowed;	       /* log_avg_msec set: a row per window */
	bool dirs[DDIR_COUNT]; /* the directions the job does */
};

int io_logs_open(struct io_logs *l, const struct job_options *o, char *err, size_t errlen);
/* One row per direction for a closed window (values averaged over it). */
void io_logs_window(struct io_logs *l, uint64_t end_ns, uint64_t span_ns,
		    const struct window_totals *t);
/* One row per I/O, for latency logs without log_avg_msec. */
void io_logs_io(struct io_logs *l, uint64_t time_ns, enum ddir d, uint32_t bs, uint64_t offset,
		uint64_t slat, uint64_t clat, uint64_t lat);
/* Flushes and closes; -1 with a reason when a write was lost. */
int io_logs_close(struct io_logs *l, char *err, size_t errlen);

#endif
