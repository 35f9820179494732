/* little.h - Little's law per phase: a closed-loop benchmark keeps
 * iodepth I/Os in flight, so IOPS x mean latency should equal iodepth.
 * When it does, the latency is queueing the limit explains (32 / 300 =
 * 106.7 ms on a gp2 past its cliff), not a slow device.  At qd1 there is
 * no queue: one I/O in flight holds by construction, and the latency is
 * the device's service time (plus any throttle delay).  A rated step (a
 * load-curve step, --rate_iops) is not a closed loop: it keeps its offered
 * rate x latency in flight, which iodepth only caps, so fewer than
 * iodepth is what a rate does, never a slow submitter. */
#ifndef EBSBENCH_LITTLE_H
#define EBSBENCH_LITTLE_H

enum little_verdict {
	LITTLE_CONSISTENT,
	LITTLE_SERVICE_TIME, /* consistent at qd1: no queue, the latency is service time */
	LITTLE_UNDERFILLED,  /* fewer in flight than iodepth */
	LITTLE_OVERFILLED,   /* more in flight than iodepth */
	LITTLE_RATED,	     /* a rated step that served its offered rate */
	LITTLE_RATED_BEHIND, /* a rated step that served less than it offered */
	LITTLE_NO_DATA,	     /* a non-positive or non-finite input */
};

struct little_check {
	double in_flight;	    /* IOPS x mean latency */
	double ratio;		    /* in_flight / iodepth */
	double predicted_latency_s; /* iodepth / IOPS */
	enum little_verdict verdict;
};

#include <jansson.h>
#include <stdbool.h>

#define LITTLE_TOLERANCE 0.05

/* iodepth / iops: 32 at 3,000 IOPS is 10.67 ms.  NaN without a rate. */
double little_latency_s(double iodepth, double iops);

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

/* A results.json phase, both directions, its latency from lat_ns (for a
 * rated step counted from each I/O's scheduled issue time), judged as a
 * rated step when its job had a rate: the one judgement the analysis and
 * the summary both quote. */
struct little_check little_judge_phase(const json_t *phase);

/* A sentence for the report saying what a verdict means. */
const char *little_note(enum little_verdict verdict);

#endif
