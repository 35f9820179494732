/* delivered.h - a volume that delivers less than it is sold as: a gp3 at
 * 3,000 IOPS whose full-demand phases all held 1,500 (a modification still
 * optimizing, wrong facts in the config, a limit in front of it).  The level
 * is named once, with its ratio and the likely causes in order; the
 * phases are then judged against it ("as delivered"), so one cause makes
 * one finding instead of a "worse than predicted" per phase. */
#ifndef EBSBENCH_DELIVERED_H
#define EBSBENCH_DELIVERED_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "analysis/verdict.h"

/* One unit's delivered limit. */
struct delivered {
	const char *unit;   /* "IOPS" or "MiB/s" */
	double level;	    /* the median of its phases' plateaus */
	double provisioned; /* what the model allows those phases */
	bool by_instance;   /* the model's bound for some was the instance's */
	char phases[128];   /* "randread and randwrite" */
	size_t count;
};

/* From a device's verdicts (verdict_phases): whether every phase the
 * volume's or the instance's limit should bind at full demand (no rate,
 * deeper than VERDICT_LOW_DEPTH, no credit bucket) held one level below
 * what the model allows, beyond VERDICT_TOLERANCE.  A gp2 with a bucket is left to
 * its cliff: its level is the baseline the cliff falls to. */
bool delivered_find(const json_t *phases, const char *unit, struct delivered *out);

/* Whether the level is the instance's EBS baseline where the model gave
 * the phases its burst (the instance's burst assumed unused at the start
 * of the run), and log page 0xD0, where read, does not blame the volume:
 * then the instance's burst was spent before the run, and the level is its
 * limit, not the volume's.  Its sentence is added to findings. */
bool delivered_instance_spent(const json_t *results, const struct verdict_device *d,
			      const struct delivered *dl, json_t *findings);

/* analysis.devices[].delivered, its sentence added to findings: the
 * causes in order, log page 0xD0's exceeded counters saying whose limit
 * throttled where the phases recorded them. */
json_t *delivered_json(const json_t *results, const struct verdict_device *d,
		       const struct delivered *dl, json_t *findings);

#endif
