/* off_model.h - the phases of a device the model did not explain ("worse"
 * or "better" beyond the tolerance), each with its figures, in one finding;
 * their own sentences stay details.  The sweep has its own. */
#ifndef EBSBENCH_OFF_MODEL_H
#define EBSBENCH_OFF_MODEL_H

#include <jansson.h>

#include "analysis/verdict.h"

/* Adds the finding for list (verdict_phases' objects) of device d, if any. */
void off_model_finding(const struct verdict_device *d, const json_t *list, json_t *findings);

#endif
