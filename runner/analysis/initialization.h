/* initialization.h - a volume still loading from its snapshot, and the phases
 * that read blocks it had not yet loaded.
 *
 * The run's probe (job/init_probe.h, results.json devices[].initialization)
 * says whether the volume was loading when the run began.  A phase reads
 * blocks not yet loaded when the volume was loading and nothing before it
 * read (or wrote) its whole region: the read first, the initialize phase,
 * a sequential phase that made a whole pass.  Such a phase that fell short
 * of the model is "still loading" (verdict.c), not "worse", and is no
 * evidence of a delivered level (delivered.c): one cause, one finding. */
#ifndef EBSBENCH_INITIALIZATION_H
#define EBSBENCH_INITIALIZATION_H

#include <jansson.h>

/* One JSON boolean per entry of results.json's phases (true: that phase of
 * device label read blocks not yet loaded), or NULL when the device's probe
 * did not find it loading. */
json_t *initialization_unloaded(const json_t *results, const char *label);

/* analysis.devices[].initialization from the device's probe record and its
 * phases' verdicts (verdict_phases, run order), its sentence added to
 * findings; JSON null when the run recorded no probe. */
json_t *initialization_judge(const json_t *results, const char *label, const json_t *verdicts,
			     const json_t *unloaded, json_t *findings);

/* analysis.devices[].initialize: what the opt-in initialize phase (the
 * whole device read once) read, in how long, at what rate, its sentence
 * added to findings; JSON null when the device ran none. */
json_t *initialization_pass(const json_t *results, const char *label, json_t *findings);

#endif
