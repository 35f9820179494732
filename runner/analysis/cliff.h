/* cliff.h - find a credit cliff in a per-second IOPS series.
 *
 * A cliff is a drop that is large (the level after is below max_ratio of
 * the level before, e.g. gp2's 3,000 -> 300) and fast (it takes at most
 * max_transition seconds), and sustained: the lower level is the median
 * of the whole rest of the series, so a stall that recovers is not one.
 * A slow decline (3,000 -> 300 over minutes) is not a cliff: adjacent
 * windows never differ enough, and the result says CLIFF_NONE; a drop
 * that is large but takes longer than max_transition says CLIFF_TOO_SLOW.
 *
 * Index i of the series is the second [i, i+1) from the start of the
 * phase, as fio's --log_avg_msec=1000 log gives it one sample per line.
 * Medians over windows make single outliers (fio's first sample, a
 * one-second stall) harmless.  The window starts at `window` seconds and
 * halves down to min_window until a cliff turns up, so one a few seconds
 * from either end is found too; the whole search is O(n * window). */
#ifndef EBSBENCH_CLIFF_H
#define EBSBENCH_CLIFF_H

#include <stdbool.h>
#include <stddef.h>

struct cliff_params {
	/* Samples ignored at the start: fio's first second runs at about
	 * twice the rate while the queue fills (the reference benchmark's 5,997). */
	size_t skip_leading;
	size_t window;	   /* seconds on each side a level is judged by */
	size_t min_window; /* narrowest window a short series may use */
	double max_ratio;  /* after / before must be below this */
	size_t max_transition;
};

enum cliff_result {
	CLIFF_FOUND,
	CLIFF_NONE,	 /* no large, sustained drop */
	CLIFF_TOO_SLOW,	 /* large and sustained, but over more than max_transition s */
	CLIFF_TOO_SHORT, /* fewer than skip_leading + 4 * min_window samples */
};

/* Samples [start, end) of the series. */
struct cliff_plateau {
	size_t start, end;
	double mean, median, min, max;
};

struct cliff {
	enum cliff_result result;
	/* The second reported as "the cliff": the first one at the lower
	 * level.  The reference benchmark's series (3,001 to 1,998 s, 2,659 at 1,999 s, 300
	 * from 2,000 s) gives second 2,000, drop_start 1,999, transition 1. */
	size_t second;
	size_t drop_start;   /* first second below the upper level */
	size_t transition_s; /* second - drop_start: 0 for a clean step */
	/* When the level crossed, in seconds from the series start, counting
	 * each transition second by how far it still was at the upper level:
	 * 1,999.87 for the reference benchmark (1,999 + (2,659 - 300) / (3,001 - 300)). */
	double edge_s;
	double ratio; /* after.median / before.median */
	/* For CLIFF_NONE and CLIFF_TOO_SHORT, before is the whole series
	 * after skip_leading and after is empty. */
	struct cliff_plateau before, after;
};

/* window 30 s (at most a quarter of the series), min_window 5 s, skip 1,
 * ratio 0.6, transition at most 10 s.  A cliff closer than min_window to
 * either end cannot be told from a stall and is not reported. */
struct cliff_params cliff_params_default(void);

/* Looks for the sharpest sustained drop in iops[0..n).  Negative and
 * non-finite samples count as 0.  Returns 0, or -1 if out of memory. */
int cliff_find(const double *iops, size_t n, const struct cliff_params *params, struct cliff *out);

const char *cliff_result_name(enum cliff_result result);

#endif
