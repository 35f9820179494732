/* steadystate.h - fio's steady-state detection (its steadystate.c), for
 * fio job files that set ss, ss_dur, ss_ramp and ss_interval.
 *
 * One sample per ss_interval of measured time, from ss_ramp on: the IOPS
 * and bandwidth (bytes/s) of that interval.  Once ss_dur / ss_interval
 * samples are in, each new one judges the window of the last ones by the
 * job's criterion, fio's definitions (not SNIA's):
 *   iops, bw: every sample within the limit of the window's mean (the
 *     largest deviation below it; with %, a percentage of the mean);
 *   iops_slope, bw_slope: the least-squares slope, per sample, below the
 *     limit (with %, a percentage of the window's mean, as fio an integer
 *     mean), so it does not scale with the window's length.
 * With a percentage, a window whose mean is 0 is never steady (fio's
 * 0 / 0).
 *
 * ebsbench's snia_iops, snia_bw and snia_p99 judge the window as SNIA's
 * measurement window instead (stats/steady.h: the range within 20 % and
 * the fitted line's rise across it within 10 % of the mean), on the
 * samples' IOPS, bandwidth or p99 completion latency (ns; each interval's
 * own I/Os).  With ss_floor, a steady window ends the job only once that
 * much measured time has passed; until then the window slides on. */
#ifndef EBSBENCH_STEADYSTATE_H
#define EBSBENCH_STEADYSTATE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "job/options.h"
#include "stats/stats.h"

/* What one window's judgement found (fio's ss->slope, deviation and
 * criterion): the criterion in the limit's unit, compared with it. */
struct ss_verdict {
	double slope;	  /* slope mode: per sample; else 0 */
	double deviation; /* deviation mode: the largest |sample - mean|; else 0 */
	double criterion; /* the figure compared with the limit */
	/* SNIA's criteria: the window's range and rise, % of its mean (the
	 * criterion is the larger); 0 otherwise. */
	double range_pct, slope_pct;
	bool steady;
};

/* A job's (or with group_reporting, its group's) detection: fio's td->ss,
 * and what its JSON "steadystate" object reports. */
struct steadystate {
	struct ss_options opt; /* opt.dur_ns 0: detection off, nothing else set */
	unsigned n;	       /* samples in a window: ss_dur / ss_interval */
	uint64_t taken;	       /* samples taken so far */
	uint64_t *iops, *bw;   /* the last n samples, a ring indexed by taken % n */
	uint64_t *p99;	       /* snia_p99's: each sample's p99 (ns); else NULL */
	uint64_t *scratch;     /* the judged window, in time order */
	/* snia_p99's: the completion histogram at the last sample, and room
	 * for the one now (a sample's p99 is of the difference). */
	struct histogram *hist_prev, *hist_now;
	struct ss_verdict last; /* the last judgement; zeros before the window fills */
	bool attained;
};

void steadystate_free(struct steadystate *ss);
/* Sample i (0..n-1) of the window fio reports, in time order: the last n
 * samples, or those taken so far followed by zeros. */
uint64_t steadystate_sample(const struct steadystate *ss, bool iops, unsigned i);
/* The same of the metric the criterion judges (IOPS, bandwidth or p99). */
uint64_t steadystate_judged(const struct steadystate *ss, unsigned i);
/* The mean of those n values, as fio's (integer, zeros counted). */
uint64_t steadystate_mean(const struct steadystate *ss, bool iops);

/* A reporting group's shared detection (group_reporting): each member
 * publishes its running counts, the last member samples their sum and
 * judges it, and every member ends when it says steady, as fio's
 * steadystate_check over a group. */
struct ss_member {
	_Atomic uint64_t ios;
	_Atomic uint64_t bytes;
};
struct ss_group {
	unsigned members;
	struct ss_member *m;
	atomic_bool attained;
};

#endif
