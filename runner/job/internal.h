/* internal.h - what job/'s files share among themselves and nothing outside
 * job/ calls: the option parser's pieces, the logs' and windows' writers,
 * the steady-state detection's steps and the one-off reads' helpers.  The
 * face (job/job.h) never includes it. */
#ifndef EBSBENCH_JOB_INTERNAL_H
#define EBSBENCH_JOB_INTERNAL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "job/job.h"
#include "job/window.h"
#include "stats/stats.h"

/* options.c: the command line's words, and the filename fio gives a job. */
/* Parses `--name=value` words (argv[0] is not skipped). */
int options_parse_argv(struct job_options *o, int argc, char **argv, char *err, size_t errlen);

/* fio's default filename for a job that names none: jobname.jobnum.filenum
 * ("latency.0.0" for the first job), in the current directory. */
void options_default_filename(struct job_options *o, unsigned jobnum);

/* options_check.c: a job's options checked together. */
/* Checks the combination once every option is in: name and filename given,
 * bs non-zero, iodepth in range and so on.  numjobs above 1 is refused
 * here: only a job list (job/jobfile.h) makes clones, and it validates each
 * clone with numjobs 1. */
int options_validate(const struct job_options *o, char *err, size_t errlen);

/* options_parse.c: the option table's number parser. */
/* A decimal number 0..max with nothing after it; 0, or -1. */
int options_parse_uint(const char *value, unsigned max, unsigned *out);

/* options_rw.c: what a pattern does, and the syncs. */
/* Whether a pattern does any reads, any writes, any trims. */
bool options_rw_reads(enum rw_pattern rw);
bool options_rw_writes(enum rw_pattern rw);
bool options_rw_trims(enum rw_pattern rw);
/* Sets rw from fio's rw values (and its alias readwrite): the option
 * table's setter; 0, or -1 for a value that is not one. */
int options_set_rw(struct job_options *o, const char *v);
/* Whether the pattern issues I/O in direction d (read, write or trim). */
bool options_rw_does(enum rw_pattern rw, enum ddir d);
/* The sync --fsync or --fdatasync asks for (DDIR_SYNC, DDIR_DATASYNC) and
 * its every-N; 0 when neither is given. */
unsigned options_sync_every(const struct job_options *o, enum ddir *kind);

/* options_fio.c: I/O priorities and block sizes from the cmdprio and bssplit options. */
/* The I/O priority cmdprio marks I/Os with: class << 13 | level. */
uint16_t options_cmdprio_ioprio(const struct job_options *o);
/* The priority of cmdprio_bssplit's share's I/Os. */
uint16_t options_share_ioprio(const struct job_options *o, const struct bs_share *share);
/* The distinct priorities the cmdprio options give (the default, 0, not
 * counted), in the order given, up to max of them into prios; returns how
 * many there are. */
unsigned options_ioprios(const struct job_options *o, uint16_t *prios, unsigned max);
/* Whether any I/O gets a priority of its own (cmdprio_percentage or
 * cmdprio_bssplit). */
bool options_cmdprio(const struct job_options *o);
/* The largest and smallest I/O size: bs, or bssplit's extremes. */
uint32_t options_max_bs(const struct job_options *o);
uint32_t options_min_bs(const struct job_options *o);

/* jobfile.c: fio's ${VAR} expansion. */
/* fio's ${VAR} expansion of an option line: each ${NAME} becomes the
 * environment variable's value, or nothing where it is unset.  Returns 0,
 * or -1 when the result does not fit out. */
int jobfile_expand_env(const char *in, char *out, size_t outlen);

/* target.c: the region a job's I/O reaches. */
/* The bytes of the region o's I/O reaches on a target of size bytes, from
 * o->offset (below size): o->size, or all past the offset when that is 0
 * or more than there is, in whole blocks of o's smallest block size. */
uint64_t target_region_bytes(const struct job_options *o, uint64_t size);

/* steadystate.c: fio's steady-state detection, set up, fed and judged. */
/* Judges the n samples y (oldest first) by o's criterion. */
void steadystate_judge(const struct ss_options *o, const uint64_t *y, unsigned n,
		       struct ss_verdict *v);
/* Sets ss up for o (off when o->dur_ns is 0).  0, or -1 out of memory. */
int steadystate_init(struct steadystate *ss, const struct ss_options *o, char *err, size_t errlen);
/* Takes one interval's sample; once the window is full judges it.
 * Returns whether the job is now steady (and sets attained). */
bool steadystate_add(struct steadystate *ss, uint64_t iops, uint64_t bw);
/* One sample as the SNIA criteria take it: also the interval's p99 (ns;
 * snia_p99) and the measured time at its end, held to ss_floor. */
struct ss_round {
	uint64_t iops, bw, p99_ns, measured_ns;
};
bool steadystate_add_round(struct steadystate *ss, const struct ss_round *r);
/* snia_p99's sample: the caller merges the job's completion histograms
 * (every direction, cumulative) into *hist_now; returns the p99 of the
 * completions since the last call, 0 when there were none. */
uint64_t steadystate_round_p99(struct steadystate *ss);

/* histlog.c: fio's histogram log, its bins and rows (job/histlog.h). */
/* Starts a log for a job of block size bs doing the directions dirs. */
void histlog_init(struct histlog *h, unsigned coarseness, uint32_t bs, const bool dirs[DDIR_COUNT]);

/* The fio bin that holds every value of our bucket index. */
unsigned histlog_fio_bin(unsigned index);

/* What happened between the snapshots before and now, in fio's bins. */
void histlog_fio_counts(const struct histogram *now, const struct histogram *before,
			uint64_t fine[HISTLOG_FIO_BINS]);

/* Sums each 2^coarseness neighbouring bins of fine into coarse, as fio's
 * hist_sum does; returns how many coarse bins there are. */
unsigned histlog_coarsen(const uint64_t fine[HISTLOG_FIO_BINS], unsigned coarseness,
			 uint64_t *coarse);

/* Writes one row in fio's format: "ms, ddir, bs, b0, b1, ..., bn-1". */
void histlog_put_row(FILE *f, uint64_t ms, int ddir, uint32_t bs, const uint64_t *bins, unsigned n);

/* Writes the rows of a window that closed at ms (one per direction the job
 * does) from the job's cumulative clat histograms, then remembers them;
 * f NULL: rows not written.  h->sum then holds every row of time ms summed:
 * returns true when that time is the previous window's (its rows join
 * those, as a reader of the log sums them), false for a new one. */
bool histlog_window(struct histlog *h, FILE *f, uint64_t ms,
		    const struct direction_stats dir[DDIR_COUNT]);

/* One window's n bins as results.json keeps them (a run's series,
 * job/iolog.h), so the latency heatmap (and any later reader) re-renders
 * a results directory from results.json alone:
 *
 *   "clat_hist": { "log": "gp2_rr_clat_hist.1.log", "window_ms": 1000,
 *                  "coarseness": 4, "bins": 116,
 *                  "windows": [ "40:1286 637 0 205", "", ... ] }
 *
 * One string per window of window_ms, in time order, its directions
 * summed: "FIRST:C C C" are the counts of bins FIRST, FIRST + 1, ... up to
 * the window's last non-empty bin; an empty window is "".  (A string, so
 * that results.json's indented layout keeps a window on one line.)  Bin j
 * holds fio's bins j x 2^c to (j + 1) x 2^c - 1, c the coarseness: the
 * buckets of stats/histogram.h with those indices.  results_hist_window
 * reads one back.  Size: a window holds one count per bin between its
 * fastest and slowest I/O, 4 per octave: 154 bytes a window measured on a
 * loop device capped at 3,000 IOPS (1 s windows, latencies over 15
 * octaves), so about 420 kB for a 2,700 s phase, against 1.06 MB for its
 * fio-format log (393 bytes a row). */
json_t *histlog_sparse(const uint64_t *bins, unsigned n);

/* iolog.c: fio's names for the logs, and their rows. */
/* fio's names for o's write_iops_log/write_bw_log/write_lat_log=P:
 * P_iops.1.log, P_bw.1.log, P_lat.1.log, P_clat.1.log, P_slat.1.log;
 * write_hist_log=P: P_clat_hist.1.log. */
void iolog_paths_fio(struct iolog_paths *p, const struct job_options *o);
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

/* job.c: one job on its own target, for the reads besides a run's phases. */
/* job_run without logs, on its own target (opened and closed here): for
 * the reads the run makes besides its phases (read_first.h, init_probe.h).
 * s is initialised here.  0, or -1 with err (a failed I/O included). */
int job_run_once(const struct job_options *o, struct job_stats *s, const struct job_context *ctx,
		 char *err, size_t errlen);

/* read_first.c: `ebsbench fio`'s read first of a job. */
/* Job o's read first, for `ebsbench fio`: nothing (r->length 0) when o
 * writes no block device, says allow_destroy, or names a device in use
 * (mounted or held: the job's own exclusive open refuses it, saying so);
 * else its region, read as read_first_device reads it.  0, or -1 with
 * err. */
int read_first_job(struct read_first *r, const struct job_options *o, const struct job_context *ctx,
		   char *err, size_t errlen);

/* init_probe.c: the probe's verdict from its two passes. */
/* The state blocks read in each pass, at those medians, say. */
const char *init_probe_state(uint64_t blocks, double first_ms, double second_ms);

#endif
