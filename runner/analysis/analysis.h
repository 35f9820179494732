/* analysis.h - what the measurements mean: the credit cliff against the EBS
 * model's prediction, credit refill after idle gaps, Little's law per phase,
 * cost, and a sentence per finding.  Reads and extends results.json, so
 * `ebsbench report` can re-run it on old results (with other prices). */
#ifndef EBSBENCH_ANALYSIS_H
#define EBSBENCH_ANALYSIS_H

#include <jansson.h>

#include "model/model.h"

/* Replaces results["analysis"]. */
void analysis_build(json_t *results, const struct ebs_prices *prices);
/* A results.json device's volume facts, its type's defaults for the rest. */
void analysis_volume_from_json(const json_t *device, struct ebs_volume *v);
/* The phase the device's cliff is found in: randread, or seqread on st1/sc1
 * (ebs_cliff_phase of its recorded type). */
const char *analysis_cliff_phase(const json_t *device);

/* analysis.devices[].cliff.verdict of a gp2 randread that held its
 * baseline from its first second where a full bucket would have burst: the
 * bucket was empty when it began, and the ledger starts there. */
#define ANALYSIS_BUCKET_EMPTY "bucket empty at the start"

/* The rest of the folder's face (last: each sees what is declared above). */
#include "analysis/little.h"
#include "analysis/loadcurve.h"
#include "analysis/verdict.h"

#endif
