/* results.h - results.json, the one record of a run.
 *
 * `ebsbench run` writes it; the analysis, summary.md, the SVG charts and
 * `ebsbench report` all read it, so a results directory can be re-rendered
 * (or re-priced) later without the devices.  Its schema, every field and
 * what it means, and the versions: docs/results-json.md (a field added or
 * changed there and here, RESULTS_SCHEMA one up).  Readers accept every
 * schema from RESULTS_SCHEMA_OLDEST to RESULTS_SCHEMA and refuse a newer
 * one with a line naming both numbers.
 */
#ifndef EBSBENCH_RESULTS_H
#define EBSBENCH_RESULTS_H

#include <jansson.h>
#include <stdbool.h>

#define RESULTS_SCHEMA 4
#define RESULTS_SCHEMA_OLDEST 1
#define RESULTS_FILE "results.json"
/* results.json's top-level keys (docs/results-json.md), named once: the
 * run writes them (run/run_exec.c) and every reader looks them up by
 * these.  Keys inside the sections are still spelled where they are used:
 * "phases" is also plan.phases and analysis.devices[].phases. */
#define RESULTS_KEY_SCHEMA "schema"
#define RESULTS_KEY_EBSBENCH "ebsbench"
#define RESULTS_KEY_ENVIRONMENT "environment"
#define RESULTS_KEY_PLAN "plan"
#define RESULTS_KEY_PRICES "prices"
#define RESULTS_KEY_DEVICES "devices"
#define RESULTS_KEY_PHASES "phases"
#define RESULTS_KEY_ANALYSIS "analysis"
#define RESULTS_KEY_UPLOADS "uploads"
/* The block-size sweep's steps: "phase": "sweep", told apart by rw and bs. */
#define RESULTS_PHASE_SWEEP "sweep"
/* The load curve's steps: "phase": "loadcurve", told apart by "load". */
#define RESULTS_PHASE_LOADCURVE "loadcurve"
/* Every device at once, a step each: "phase": "together", with "together". */
#define RESULTS_PHASE_TOGETHER "together"

/* 0 when root is a JSON object of a schema this ebsbench reads
 * (1..RESULTS_SCHEMA), else -1 with a one-line reason ("written by a newer
 * ebsbench: schema 3, this one reads 1 to 2"). */
int results_schema_check(const json_t *root, char *err, size_t errlen);
/* Loads DIR/results.json; NULL with a one-line reason in err. */
json_t *results_load(const char *dir, char *err, size_t errlen);
/* Either: path a results directory or a results.json file itself. */
json_t *results_load_any(const char *path, char *err, size_t errlen);
/* Writes DIR/results.json atomically (temp file + rename), so an upload or
 * a reader never sees half a file. */
int results_save(const json_t *results, const char *dir, char *err, size_t errlen);

/* The rest of the folder's face (last: each sees what is declared above). */
#include "results/results_read.h"

#endif
