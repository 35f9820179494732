/* verdict.h - a prediction and a verdict for every phase of a device, and
 * the credit balance the volume started a cliff phase with.
 *
 * The prediction is the lowest of what the volume allows over the phase
 * (provisioned IOPS, or gp2's bucket: burst while its credits last, then
 * baseline), the instance's EBS limit and, at low depth, iodepth / the
 * phase's mean latency (Little's law: at qd1 the time each I/O takes,
 * service and any throttle's wait alike, not the bucket, sets the rate;
 * a p50 would hide a throttle's slow mode), with the one that bound it
 * named.
 * Sequential phases are predicted in MiB/s with I/O counted in 256 KiB
 * units.  The bucket is followed phase by phase as a ledger (full before
 * the device's first phase, or what the randread's evidence implies, refilled at baseline in each
 * idle gap, spent by what each phase measured, empty after a cliff), so the refill after an idle
 * gap is just the ledger's balance at the phase's start.
 *
 * Here: the tolerances the verdicts (and decide/) use, and what the
 * verdicts need of a device; verdict_phases itself is in analysis/internal.h. */
#ifndef EBSBENCH_VERDICT_H
#define EBSBENCH_VERDICT_H

#include <jansson.h>
#include <stdbool.h>

#include "model/model.h"

/* Measured within 10 % of the prediction is "as predicted". */
#define VERDICT_TOLERANCE 0.10
/* Up to this iodepth the latency bounds the rate; deeper, the latency is
 * the queue a throttle builds and bounds nothing. */
#define VERDICT_LOW_DEPTH 2
/* A gp2 phase that began below this share of its bucket says so. */
#define VERDICT_CREDITS_LOW_PERCENT 95.0

/* What the verdicts of one device need from the rest of the analysis. */
struct verdict_device {
	const char *label;
	struct ebs_volume volume;
	bool is_ebs;				    /* false: the EBS model does not apply */
	const struct instance_ebs_limits *instance; /* NULL: unknown */
	double time_scale;
	/* The randread cliff, in seconds of the run as it happened; NaN when
	 * none was found. */
	double cliff_s;
	/* The randread held the baseline from its first second where a full
	 * bucket would have burst: the ledger starts empty, not full. */
	bool bucket_empty;
	/* The levels the volume held below what the model allows (delivered.h),
	 * its phases judged against them; 0 where it delivered as sold. */
	double delivered_iops, delivered_mibs;
	/* The randread's credit state a first pass inferred, when its evidence
	 * overruled the full bucket a rested volume is assumed to start with:
	 * the ledger then starts at start_credits, the balance that evidence
	 * implies, and that state is the one reported.  NULL: start full. */
	const json_t *evidence;
	double start_credits;
	/* The phases held the instance's EBS baseline where its burst was
	 * assumed unused (delivered.h): it was spent before the run. */
	bool instance_spent;
	/* One JSON boolean per results.json phase: it read blocks not yet
	 * loaded from a snapshot (initialization.h); NULL: none did. */
	const json_t *unloaded;
};

#endif
