/* little.h - Little's law per phase: a closed-loop benchmark keeps
 * iodepth I/Os in flight, so IOPS x mean latency should equal iodepth.
 * When it does, the latency is queueing the limit explains (32 / 300 =
 * 106.7 ms on a gp2 past its cliff), not a slow device.  At qd1 there is
 * no queue: one I/O in flight holds by construction, and the latency is
 * the device's service time (plus any throttle delay).  A rated step (a
 * load-curve step, --rate_iops) is not a closed loop: it keeps its offered
 * rate x latency in flight, which iodepth only caps, so fewer than
 * iodepth is what a rate does, never a slow submitter.
 *
 * Here: what summary.md reads (a phase's judgement, the verdicts); the
 * judgements analysis/'s own files build it from are in analysis/internal.h. */
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

/* A results.json phase, both directions, its latency from lat_ns (for a
 * rated step counted from each I/O's scheduled issue time), judged as a
 * rated step when its job had a rate: the one judgement the analysis and
 * the summary both quote. */
struct little_check little_judge_phase(const json_t *phase);

#endif
