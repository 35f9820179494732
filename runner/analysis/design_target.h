/* design_target.h - AWS's own delivery target, as a verdict per volume
 * ("Amazon EBS optimization", EBS user guide): gp2 and gp3 are designed to
 * deliver at least 90 % of their provisioned IOPS 99 % of the time, io1 and
 * io2 99.9 % of the time, st1 and sc1 90 % of their expected throughput 99 %
 * of the time.  Judged on the real seconds of the phases the volume's own
 * limit binds at full demand (no rate, deeper than VERDICT_LOW_DEPTH):
 * the share of them at or above 90 % of the provisioned rate (gp2's and
 * st1/sc1's baseline).  A run with fewer seconds than one in (1 - share
 * of time) cannot tell a miss from chance: "too short to judge". */
#ifndef EBSBENCH_DESIGN_TARGET_H
#define EBSBENCH_DESIGN_TARGET_H

#include <jansson.h>

#include "analysis/verdict.h"

#define DESIGN_TARGET_LEVEL 0.90 /* of the provisioned rate */

/* analysis.devices[].design_target from the device's verdicts, its
 * sentence added to findings; JSON null where the EBS model does not
 * apply.  provisioned: the rate the target is a share of (IOPS, or MiB/s
 * for st1/sc1). */
json_t *design_target_judge(const json_t *results, const struct verdict_device *d,
			    const json_t *phases, double provisioned, json_t *findings);

#endif
