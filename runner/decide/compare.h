/* compare.h - two runs side by side (`ebsbench compare A B`): phase by
 * phase, the change in IOPS, throughput and p50/p99 latency (completion
 * latency; a rated load-curve step's from each I/O's scheduled issue time,
 * the one its load is quoted by everywhere, with no interval),
 * each run's figure with a 95 % interval from its per-window samples, and
 * the change in the gp2 cliff time with its resolution; plus a sentence
 * for every way the runs are not comparable.
 *
 * Intervals are batch means: a level's windows (phases[].iops_series, or
 * the histograms of phases[].clat_hist) are cut into COMPARE_BATCHES runs
 * of consecutive windows, and the interval is Student's t over the batch
 * figures, so the windows' autocorrelation (a throttle's bucket, a queue)
 * stays inside a batch instead of shrinking the interval.  A percentile's
 * batch figure is the percentile of the batch's merged histogram; its
 * estimate the percentile of every window of the level merged.  A change
 * is "not significant" when the two runs' intervals overlap.
 *
 * Levels: a phase whose analysis found a cliff (gp2's randread) is two
 * states, the burst before the cliff and the baseline after it; each is
 * compared with the same level of the other run, never their mean, and the
 * windows of the transition between them are left out.  Every level also
 * leaves out its first real second (COMPARE_SKIP_S), the device's start-up
 * burst, at most a fifth of its windows. */
#ifndef EBSBENCH_COMPARE_H
#define EBSBENCH_COMPARE_H

#include <jansson.h>
#include <stddef.h>

#define COMPARE_BATCHES 10
#define COMPARE_MIN_WINDOWS 4 /* fewer: no interval */
#define COMPARE_SKIP_S 1.0
/* Credit-state warnings: start balances this many points apart, or idle
 * gaps whose refills differ by this share of the bucket. */
#define COMPARE_CREDIT_POINTS 10.0
#define COMPARE_REFILL_SHARE 0.05

/* One run's figure: NaN low/high when it has too few windows (or only a
 * whole-phase figure, batches 0). */
struct compare_interval {
	double estimate, low, high;
	size_t windows, batches;
};

/* The comparison of run b against run a (both results.json with their
 * analysis), a new document:
 * { "a": {"name", "started", "instance_type", "version"}, "b": {...},
 *   "method": "...", "warnings": ["sentence", ...],
 *   "phases": [ { "device": "gp2", "device_b": "gp2", "title": "gp2 (gp2, 100 GiB)",
 *                 "phase": "randread", "step": "110 %" | null, "level": "burst" |
 *                 "after the cliff" | "whole", "from_s": [a, b], "to_s": [a, b],
 *                 "metrics": [ { "metric": "iops" | "throughput" | "p50" | "p99",
 *                                "unit": "IOPS" | "bytes/s" | "ns",
 *                                "a": {"estimate", "low", "high", "windows", "batches"},
 *                                "b": {...}, "change": b - a, "change_percent": ..,
 *                                "verdict": "not significant" | "higher" | "lower" |
 *                                           "no interval",
 *                                "latency": "completion" | "scheduled" (p50, p99) } ] } ],
 *   "cliffs": [ { "device": "gp2", "phase": "randread", "a_s": 19.99 | null,
 *                 "b_s": 20.05 | null, "change_s": 0.06, "resolution_s": 0.01,
 *                 "time_scale": 0.01, "verdict": "later" | "earlier" |
 *                 "not significant" | "only in A" | "only in B" } ] }
 * The cliff's resolution is one window (time-scaled): the wider of the two
 * runs'; a change within it is "not significant".  NULL out of memory. */
json_t *compare_build(const json_t *a, const json_t *b, const char *name_a, const char *name_b);

#endif
