/* run_step.h - one step of the plan on its device, and its record in
 * results.json (inner header of run/). */
#ifndef EBSBENCH_RUN_STEP_H
#define EBSBENCH_RUN_STEP_H

#include <signal.h>
#include <stddef.h>

#include "run/run_state.h"

/* Step k of st's plan: EBS statistics around its fio job, its logs in
 * the output directory, its phase appended to results.json's "phases"
 * when it ran at all.  A loadcurve step first gets its lead-in from the
 * idle gap before it (plan_load_ramp_ns).  Returns 0, or -1 with a
 * one-line reason (the phase may still have been recorded). */
int run_step(struct run_state *st, size_t k, const volatile sig_atomic_t *stop, char *err,
	     size_t errlen);
/* Where the log named log (an artifact name) goes: in the output
 * directory.  0, or -1 when the path does not fit in cap. */
int run_log_path(const struct run_state *st, const char *log, char *path, size_t cap, char *err,
		 size_t errlen);

#endif
