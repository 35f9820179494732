/* plan_loadcurve.h - the loadcurve phase's planner, a row of the plan's
 * table (inner header of run/; plan.h has what the rest of the run uses). */
#ifndef EBSBENCH_PLAN_LOADCURVE_H
#define EBSBENCH_PLAN_LOADCURVE_H

#include "run/plan_step.h"

/* The loadcurve phase's steps on n devices (its plan_phase_fn). */
int plan_loadcurve_steps(struct plan *p, const struct run_config *c,
			 const struct run_device *devices, size_t n, const struct phase_template *t,
			 json_t *overrides, double runtime_s, char *err, size_t errlen);

#endif
