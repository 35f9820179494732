/* iolog.h - fio-format log files, rows "time_ms, value, ddir, bs, offset":
 * IOPS and bandwidth per window, latency (total, completion, submission)
 * per window or per I/O; and fio's completion latency histogram log, a row
 * per window of log_hist_msec (job/histlog.h).  The caller says where each log goes, so the
 * names belong to whoever asks: `ebsbench fio` names them as fio does
 * (iolog_paths_fio, job/internal.h), a run as its artifacts say.  A run also keeps the IOPS
 * and histogram series in memory for results.json (struct iolog_series):
 * the files are for fio's readers, never read back. */
#ifndef EBSBENCH_IOLOG_H
#define EBSBENCH_IOLOG_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "job/histlog.h"
#include "job/options.h"

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

/* The most windows a series keeps: 72 h of a run's 1 s windows (a default
 * plan's longest phase is 2,700 s).  At the bound an IOPS series holds
 * about 10 MiB of JSON integers and a histogram series about 40 MiB of
 * windows (154 bytes a window measured on a loop device at 3,000 IOPS;
 * run/run_step.c).  The logs keep every window past it. */
#define IOLOG_KEEP_WINDOWS (1u << 18)

/* What a run keeps of its logs, as results.json holds it (run_step.c), built
 * as the rows are written and as a reader of the files would count them:
 * the rows of one time are one window (a last sliver of a window that
 * rounds to the previous window's ms joins it).  iops: each IOPS log
 * window's total, its directions summed (JSON integers); hist: each
 * histogram log window, its directions summed, in results.json's compact
 * form (histlog_sparse), or NULL when no histogram log is written.  *_full:
 * the series reached IOLOG_KEEP_WINDOWS and kept no more.  iolog_open makes
 * the arrays; the caller owns them after iolog_close. */
struct iolog_series {
	json_t *iops;
	json_t *hist;
	uint64_t iops_ms; /* the last IOPS window's time */
	bool iops_full, hist_full;
};

/* Where each kind of log goes: a path, or "" for a log not written.
 * lat_per_io: the latency logs get a row per I/O even when log_avg_msec
 * windows the IOPS and bandwidth logs (a run's "io_latency_log"; fio's
 * own names leave it false: there log_avg_msec windows every log).
 * keep: where the series go in memory too; NULL: nowhere (`ebsbench fio`). */
struct iolog_paths {
	char path[IOLOG_KINDS][IOLOG_PATH_MAX];
	bool lat_per_io;
	struct iolog_series *keep;
};

struct iolog {
	FILE *file[IOLOG_KINDS];   /* NULL: not written */
	bool windowed;		   /* latency logs: a row per window of log_avg_msec */
	bool per_io;		   /* some latency log has a row per I/O */
	bool dirs[DDIR_COUNT];	   /* the directions the job does */
	struct histlog *hist;	   /* the histogram log's state; NULL: not written */
	struct iolog_series *keep; /* the paths' */
};

/* Creates the logs that paths names, for a job of o (and the series
 * paths->keep asks for); -1 with a reason naming the file that could not
 * be created. */
int iolog_open(struct iolog *l, const struct job_options *o, const struct iolog_paths *paths,
	       char *err, size_t errlen);
/* Flushes and closes; -1 with a reason when a write was lost. */
int iolog_close(struct iolog *l, char *err, size_t errlen);

#endif
