/* run_step.h - one step of the plan on its device, and its record in
 * results.json (inner header of run/). */
#ifndef EBSBENCH_RUN_STEP_H
#define EBSBENCH_RUN_STEP_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "run/run_state.h"

/* Step k of st's plan: EBS statistics around its fio job, its logs in
 * the output directory, its phase appended to results.json's "phases"
 * when it ran at all.  A loadcurve step first gets its lead-in from the
 * idle gap before it (plan_load_ramp_ns).  Returns 0, or -1 with a
 * one-line reason (the phase may still have been recorded). */
int run_step(struct run_state *st, size_t k, const volatile sig_atomic_t *stop, char *err,
	     size_t errlen);
/* Steps k..k+n-1 of st's plan, a together group (plan.h), at once: each
 * device's job in a thread of its own, its EBS statistics, and its
 * record appended in plan order once all have ended.  skip[i] leaves step
 * k+i out (a resume's steps done).  Returns 0, or -1 with each failed
 * device's reason in errs ("gp3a: ...; gp3b: ..."). */
int run_steps_together(struct run_state *st, size_t k, size_t n, const bool *skip,
		       const volatile sig_atomic_t *stop, char *errs, size_t errlen);
/* Where the log named log (an artifact name) goes: in the output
 * directory.  0, or -1 when the path does not fit in cap. */
int run_log_path(const struct run_state *st, const char *log, char *path, size_t cap, char *err,
		 size_t errlen);

#endif
