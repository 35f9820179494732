/* loadcurve.h - the latency-vs-load curve of one device: p50/p95/p99/p99.9
 * of each loadcurve step (latency from each I/O's scheduled issue time,
 * as an application offering that load sees it) and the knee.
 *
 * The knee is the lowest offered load whose p99 exceeds
 * LOADCURVE_KNEE_FACTOR times the p99 of the lowest load measured (the
 * 25 % step) and stays past it at every higher load (a single spike
 * with the loads above it back under is a busy machine, not a cap).  Why
 * p99 and not "the measured rate fell below the offered one": the
 * decision turns on tail latency at a load, and the tail goes first - at
 * the cap a poisson load is still served on average while
 * its queue, and so its p99, already grows without bound.  Why 4: below
 * a token-bucket cap the volume adds little queueing (p99 at 90 % stays
 * within about twice the unloaded one), at or above it the backlog grows
 * with time and p99 rises by orders of magnitude; 4 lies well between,
 * so the noise of a short step does not move the knee.  Steps served on
 * burst credits (above the sustained rate, with credits left) are not
 * part of the sustained curve: they are listed, never the knee. */
#ifndef EBSBENCH_LOADCURVE_H
#define EBSBENCH_LOADCURVE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#define LOADCURVE_KNEE_FACTOR 4.0
/* A step "held" its load when it measured at least this share of it. */
#define LOADCURVE_HELD_SHARE 0.95

struct loadcurve_step {
	double percent, offered_iops, measured_iops;
	/* Served above the sustained rate (closer to the offered load than to
	 * it): on_burst for a volume with a credit bucket, above_limit for one
	 * without (the step was shorter than the limit's own tolerance).
	 * Either way not the sustained curve: left out of the knee. */
	bool on_burst, above_limit;
	double p50_ms, p95_ms, p99_ms, p999_ms; /* NaN when not recorded */
};

struct loadcurve_knee {
	bool found;
	size_t base;	  /* the reference step (lowest load, not on burst) */
	size_t knee;	  /* when found: the first step past the knee */
	size_t last_good; /* the highest step below the knee; SIZE_MAX: none */
	double threshold_ms;
};

/* The knee of steps sorted by rising percent.  Returns 0, or -1 when no
 * step can be the reference (none with a p99 and off burst). */
int loadcurve_find_knee(const struct loadcurve_step *steps, size_t n, struct loadcurve_knee *k);

/* results.analysis.devices[].loadcurve for `label`: the steps, the knee
 * and its sentence (also added to findings, finding.h), or JSON null when the
 * device ran no loadcurve step.  On a device the EBS model does not cover
 * the sentence says so instead of naming a cap.  delivered_iops: the level
 * the volume held below its cap (delivered.h), which the knee is judged
 * against; 0 when it delivered as sold. */
json_t *loadcurve_analyse(const json_t *results, const char *label, double delivered_iops,
			  json_t *findings);

#endif
