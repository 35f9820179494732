/* iolog.h - fio-format log files, rows "time_ms, value, ddir, bs, offset":
 * IOPS and bandwidth per window, latency (total, completion, submission)
 * per window or per I/O; and fio's completion latency histogram log, a row
 * per window of log_hist_msec (job/histlog.h).  The caller says where each log goes, so the
 * names belong to whoever asks: `ebsbench fio` names them as fio does
 * (iolog_paths_fio), a run as its artifacts say. */
#ifndef EBSBENCH_IOLOG_H
#define EBSBENCH_IOLOG_H

#include <stdbool.h>
#include <stdio.h>

#include "job/histlog.h"
#include "job/options.h"
#include "job/window.h"

enum iolog_kind {
	IOLOG_IOPS,
	IOLOG_BW,
	IOLOG_LAT,
	IOLOG_CLAT,
	IOLOG_SLAT,
	IOLOG_HIST,
	IOLOG_KINDS
};

#define IOLOG_PATH_MAX (OPTIONS_PATH_MAX + 32)

/* Where each kind of log goes: a path, or "" for a log not written.
 * lat_per_io: the latency logs get a row per I/O even when log_avg_msec
 * windows the IOPS and bandwidth logs (a run's "io_latency_log"; fio's
 * own names leave it false: there log_avg_msec windows every log). */
struct iolog_paths {
	char path[IOLOG_KINDS][IOLOG_PATH_MAX];
	bool lat_per_io;
};

struct iolog {
	FILE *file[IOLOG_KINDS]; /* NULL: not written */
	bool windowed;		 /* latency logs: a row per window of log_avg_msec */
	bool per_io;		 /* some latency log has a row per I/O */
	bool dirs[DDIR_COUNT];	 /* the directions the job does */
	struct histlog *hist;	 /* the histogram log's state; NULL: not written */
};

/* fio's names for o's write_iops_log/write_bw_log/write_lat_log=P:
 * P_iops.1.log, P_bw.1.log, P_lat.1.log, P_clat.1.log, P_slat.1.log;
 * write_hist_log=P: P_clat_hist.1.log. */
void iolog_paths_fio(struct iolog_paths *p, const struct job_options *o);
/* Creates the logs that paths names, for a job of o; -1 with a reason naming
 * the file that could not be created. */
int iolog_open(struct iolog *l, const struct job_options *o, const struct iolog_paths *paths,
	       char *err, size_t errlen);
/* One row per direction for a closed window (values averaged over it). */
void iolog_window(struct iolog *l, uint64_t end_ns, uint64_t span_ns,
		  const struct window_totals *t);
/* The histogram log's rows for a window of log_hist_msec that closed at
 * end_ns, from the job's cumulative clat histograms; nothing when the log
 * is not written. */
void iolog_hist_window(struct iolog *l, uint64_t end_ns,
		       const struct direction_stats dir[DDIR_COUNT]);
/* One row per I/O, for latency logs without log_avg_msec. */
void iolog_io(struct iolog *l, uint64_t time_ns, enum ddir d, uint32_t bs, uint64_t offset,
	      uint64_t slat, uint64_t clat, uint64_t lat);
/* Flushes and closes; -1 with a reason when a write was lost. */
int iolog_close(struct iolog *l, char *err, size_t errlen);

#endif
