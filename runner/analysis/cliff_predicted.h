/* cliff_predicted.h - a credit cliff the run did not reach: randread
 * ended before the model's cliff (the quick plan's 15 s, a config's
 * shorter runtime), so the cliff is predicted, not measured.
 *
 * From the bucket's balance at randread's start the model gives the second
 * of randread at full demand at which the bucket runs dry: where the cliff
 * would be, and so how long a randread that measures it runs.  The balance
 * is the credit ledger's (verdict.h): the one the run showed, or, when it
 * showed only a lower bound (randread never reached the baseline, as a
 * short one cannot), the one a full bucket at the run's start leaves.
 * Seconds are the run's (time-scaled). */
#ifndef EBSBENCH_CLIFF_PREDICTED_H
#define EBSBENCH_CLIFF_PREDICTED_H

#include <jansson.h>

#include "model/model.h"

/* When cliff (the device's analysis cliff object) found none on a bursting
 * volume whose bucket was not empty: sets cliff's "predicted" object
 * ({ "measured": false, "second", "credits", "percent", "full_start",
 * "measure_s", "sentence" }) if randread (phases: the device's analysis
 * phases, run order) ended before the predicted cliff, and adds the
 * finding (in place of cliff_json's "no cliff"); state: the device's
 * credits_at_start object, or JSON null. */
void cliff_predicted_add(json_t *cliff, const struct ebs_volume *v, const json_t *phases,
			 const json_t *state, double time_scale, const char *label,
			 json_t *findings);

#endif
