/* plan_quick.h - the quick plan (`--plan quick`, "plan": "quick" in the
 * config): every phase of the plan, each step ended by SNIA's steady-state
 * test (job/steadystate.h's snia_*) between a floor and a ceiling, on a
 * smaller test region, and no credit bucket drained (inner header of
 * run/; docs/run.md, "The quick plan", says it for users).
 *
 * Times, unscaled seconds (time_scale applies, but never below
 * PLAN_QUICK_MIN_SCALE: a round stays long enough to hold a few hundred
 * I/Os and outlast a throttle's first tenth of a second):
 *   round 1 s, window 5 rounds (SNIA's), floor 10 s, ceiling 15 s for a
 *   phase of the table that has a runtime, after one unmeasured round
 *   (ramp_time); floor 5 s, ceiling 10 s for a load-curve step (which
 *   keeps its 3 s of real time at least).
 * The layout, one pass, stays one pass over the smaller region.
 *
 * Never steady on borrowed credit: a step that may be served from a credit
 * bucket carries no stop and runs to its ceiling.  That is every step on a
 * volume whose bucket bursts (gp2 below 1 TiB, st1, sc1) except a
 * load-curve step at or below the sustained rate, and every step that may
 * ask more than the instance's EBS baseline when the instance bursts. */
#ifndef EBSBENCH_PLAN_QUICK_H
#define EBSBENCH_PLAN_QUICK_H

#include "run/plan_step.h"

#define PLAN_QUICK_ROUND_S 1.0
#define PLAN_QUICK_FLOOR_S 10.0
#define PLAN_QUICK_CEILING_S 15.0
#define PLAN_QUICK_LC_FLOOR_S 5.0
#define PLAN_QUICK_LC_CEILING_S 10.0
#define PLAN_QUICK_MIN_SCALE 0.2
/* The test region at most (the default plan's is 8 GiB). */
#define PLAN_QUICK_TEST_SIZE (1ull << 30)

/* The unscaled seconds that run `seconds` of the quick plan at c's time
 * scale, held to PLAN_QUICK_MIN_SCALE. */
double plan_quick_seconds(double seconds, const struct run_config *c);
/* Gives timed step s on device d its unmeasured round (a load-curve step
 * aside) and its stop rule (its runtime is the ceiling), unless it may be
 * served from a credit bucket.  0, or -1 with a reason. */
int plan_quick_stop(struct plan_step *s, const struct run_config *c, const struct run_device *d,
		    char *err, size_t errlen);

#endif
