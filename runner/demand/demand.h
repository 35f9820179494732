/* demand.h - what a volume was asked to do, over time, in one
 * form whatever it was read from: AWS CloudWatch's EBS metrics as the AWS
 * CLI prints them (get-metric-data, get-metric-statistics), or the CSV of
 * docs/demand.md (what `ebsbench observe` writes, observe.h: the face
 * hands it on).  decide/demand_sim.h replays it through the EBS limits.
 *
 * A trace is a list of intervals of equal length, oldest first: per
 * interval the read and write operations and bytes asked for in it (the
 * CloudWatch Sum over its period).  Intervals missing from the source are
 * gaps: left out of the list and counted, and read as idle time. */
#ifndef EBSBENCH_DEMAND_H
#define EBSBENCH_DEMAND_H

#include <stdbool.h>
#include <stddef.h>

/* One interval: its start (Unix seconds) and what was asked in it. */
struct demand_point {
	double t;
	double read_ops, write_ops;
	double read_bytes, write_bytes;
};

#define DEMAND_NAME_LEN 32

/* One volume's demand. */
struct demand_trace {
	char volume[DEMAND_NAME_LEN]; /* "vol-0abc...", or the source's name for it */
	double interval_s;	      /* the period: the smallest step between points */
	struct demand_point *p;	      /* oldest first, one per interval present */
	size_t n, cap;
	size_t gaps;  /* intervals missing between the first and the last */
	bool partial; /* CloudWatch said PartialData, or a NextToken was left */
	/* CloudWatch's BurstBalance (gp2, st1, sc1), in percent: its first
	 * value and its lowest, when the source had it (has_balance). */
	bool has_balance;
	double balance_first_pct, balance_first_t;
	double balance_min_pct, balance_min_t;
	unsigned metrics; /* DEMAND_M_* bits: which of the four the source had */
};

enum {
	DEMAND_M_READ_OPS = 1,
	DEMAND_M_WRITE_OPS = 2,
	DEMAND_M_READ_BYTES = 4,
	DEMAND_M_WRITE_BYTES = 8,
	DEMAND_M_ALL = 15,
	DEMAND_M_BURST_BALANCE = 16, /* not demand: the bucket's balance, in percent */
};

/* Several volumes' demand, as one file (or several) held them. */
struct demand_set {
	struct demand_trace *v;
	size_t n, cap;
};

/* Reads one file into set, adding its volumes (a volume already in the
 * set, by name, gains the file's metrics: get-metric-statistics prints
 * one metric per file).  The form is told from the content: JSON with
 * MetricDataResults or Datapoints, else the CSV.  Returns 0, or -1 with
 * one line in err naming the file, the place and the problem. */
int demand_read_file(const char *path, struct demand_set *set, char *err, size_t errlen);
void demand_set_free(struct demand_set *set);

/* A trace's mean and peak over its intervals: operations and MiB/s per
 * second, reads and writes together. */
struct demand_stats {
	double seconds; /* covered, gaps included */
	double mean_iops, peak_iops, mean_mibs, peak_mibs;
	double peak_t; /* start of the interval with the most operations */
};
struct demand_stats demand_stats_of(const struct demand_trace *tr);

/* How much higher than its window's mean the busiest interval of a fine
 * trace runs, for windows of window_s (60: what a per-minute CloudWatch
 * trace averages away): the largest interval rate over its window's mean
 * rate, in operations, windows with any I/O only.  1 when the trace is no
 * finer than the window. */
double demand_peak_to_mean(const struct demand_trace *tr, double window_s);

/* The rest of the folder's face: a device's demand sampled live. */
#include "demand/observe.h"

#endif
