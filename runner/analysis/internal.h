/* internal.h - what analysis/'s files share among themselves (and its unit
 * tests call): the steps of building results["analysis"] that analysis.c
 * puts together; nothing outside analysis/ calls these, so the face
 * (analysis.h) does not include this header. */
#ifndef EBSBENCH_ANALYSIS_INTERNAL_H
#define EBSBENCH_ANALYSIS_INTERNAL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "analysis/little.h"
#include "analysis/verdict.h"

/* little.c: Little's law judged from numbers, a phase's mean and p50 latency, a verdict's line */
/* tolerance is relative (LITTLE_TOLERANCE: within 5 %). */
struct little_check little_judge(double iops, double mean_latency_s, double iodepth,
				 double tolerance);

/* A rated step (offered_iops > 0): whether it served the offered rate
 * (in_flight is then offered rate x latency); closed-loop verdicts never. */
struct little_check little_judge_rated(double iops, double mean_latency_s, double iodepth,
				       double offered_iops, double tolerance);

/* A results.json phase's mean latency over both directions, each
 * direction's lat_ns mean weighted by its IOPS (for a rated step counted
 * from each I/O's scheduled issue time), in seconds; 0 without I/O.  The
 * mean, not a percentile: a depth's throughput is depth / mean latency,
 * whatever the shape of the distribution (a throttle's waits make it
 * bimodal, and a p50 hides the slow mode). */
double little_mean_latency_s(const json_t *phase);

/* A low-depth phase's latency as Little's law reads it: iodepth in flight
 * allow iodepth / mean_s I/O a second; waited: the mean lies beyond
 * `tolerance` above the p50 (or no p50 tells), a slow mode the device's
 * own service time does not explain, so some limit made the I/Os wait. */
struct little_latency {
	double mean_s, p50_s; /* NaN when not recorded */
	bool waited;
};
struct little_latency little_latency_of(const json_t *phase, double tolerance);

/* A sentence for the report saying what a verdict means. */
const char *little_note(enum little_verdict verdict);

/* loadcurve.c: the knee of a device's load curve, and its analysis.devices[].loadcurve */
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

/* verdict.c: a prediction and a verdict for every phase of a device */
/* One object per phase of the device, in run order (see results.h,
 * analysis.devices[].phases); the findings gain a sentence per phase.
 * *credit_state is set to the credit state object of the cliff phase
 * (analysis.devices[].credits_at_start), or JSON null. */
json_t *verdict_phases(const json_t *results, const struct verdict_device *d, json_t *findings,
		       json_t **credit_state);

#endif
