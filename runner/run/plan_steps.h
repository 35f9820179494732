/* plan_steps.h - what plan.c shares with the phases planned in files of
 * their own (plan_loadcurve.c): a step's job and estimate, room for more
 * steps (inner header of run/). */
#ifndef EBSBENCH_PLAN_STEPS_H
#define EBSBENCH_PLAN_STEPS_H

#include "run/plan.h"

/* A phase of the plan's table (plan.c): its name, log short name and shape. */
struct phase_template;

/* Options common to every step, then the template's (t may be NULL), then
 * the config's overrides, then runtime_s (unscaled seconds; 0: one pass)
 * times time_scale.  0, or -1 with a one-line reason. */
int plan_step_job(struct plan_step *s, const struct phase_template *t, json_t *overrides,
		  const struct run_config *c, const struct run_device *d, double runtime_s,
		  unsigned log_msec, char *err, size_t errlen);
/* The step's expected length, for ETAs and URL expiry checks. */
uint64_t plan_step_estimate_ns(const struct plan_step *s, const struct run_device *d);
/* ns into the plan's total, which stops at UINT64_MAX (584 years) rather
 * than wrap to minutes: sixteen phases of 700 days on sixteen devices pass
 * it, and the URL expiry check must see them. */
void plan_add_time(struct plan *p, uint64_t ns);
/* Room for `more` steps after the ones planned; -1 with a reason. */
int plan_reserve(struct plan *p, size_t more, char *err, size_t errlen);

/* The loadcurve phase's steps on n devices (plan_loadcurve.c); t is its
 * row of the plan's table. */
int plan_loadcurve_steps(struct plan *p, const struct run_config *c,
			 const struct run_device *devices, size_t n, const struct phase_template *t,
			 json_t *overrides, double runtime_s, char *err, size_t errlen);

#endif
