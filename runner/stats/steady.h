/* steady.h - steady state of a series of round values, SNIA's way.
 *
 * The Solid State Storage Performance Test Specification (PTS 2.0.1) calls
 * a measurement window of 5 rounds steady when both hold:
 *  - range: max - min of the round values is within 20 % of their mean;
 *  - slope: the least-squares line's rise or fall across the window
 *    (|slope| x (rounds - 1)) is within 10 % of their mean.
 * steady_window() finds the first window where both hold.  The plain
 * least-squares slope is public on its own, so fio's `ss` criteria (which
 * measure per sample, not across the window) can share it.  Pure
 * functions: no I/O, no state. */
#ifndef EBSBENCH_STEADY_H
#define EBSBENCH_STEADY_H

#include <stdbool.h>
#include <stddef.h>

#define STEADY_ROUNDS 5	      /* SNIA's measurement window */
#define STEADY_RANGE_PCT 20.0 /* max - min, % of the window's mean */
#define STEADY_SLOPE_PCT 10.0 /* the fitted line's rise or fall, % of the mean */

/* Why a series was not called steady; STEADY_OK when it was. */
enum steady_fail {
	STEADY_OK = 0,
	STEADY_FAIL_RANGE, /* the range criterion failed (the slope held) */
	STEADY_FAIL_SLOPE, /* the slope criterion failed (the range held) */
	STEADY_FAIL_BOTH,  /* both failed */
	STEADY_FAIL_SHORT, /* fewer rounds than one window */
	STEADY_FAIL_EMPTY, /* the window's mean is not above zero: nothing to compare with */
};

struct steady_result {
	bool steady;
	/* The steady window's first round (steady after round first + rounds),
	 * or, when never steady, the last window's: the state the series ended
	 * in.  0 with STEADY_FAIL_SHORT (then range and slope are over all the
	 * rounds there were). */
	size_t first;
	size_t rounds; /* rounds in the window (fewer with STEADY_FAIL_SHORT) */
	double mean;
	double range_pct; /* (max - min) / mean x 100 */
	double slope_pct; /* |slope| x (rounds - 1) / mean x 100 */
	enum steady_fail failed;
};

/* The least-squares slope of y[i] against i = 0..n-1: the fitted line's
 * change per round (per sample).  0 for n < 2. */
double steady_slope(const double *y, size_t n);

/* Slides a window of `window` rounds (STEADY_ROUNDS for SNIA's) over
 * y[0..n) and fills *out with the first window where both criteria hold,
 * or with the last window and the criterion that failed there. */
void steady_window(const double *y, size_t n, size_t window, struct steady_result *out);

/* A word for the failed criterion: "range", "slope", "range and slope",
 * "too few rounds", "no data"; "" for STEADY_OK.  results.json's spelling. */
const char *steady_fail_name(enum steady_fail failed);

#endif
