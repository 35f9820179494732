/* plan_quick.c - the quick plan's stop rule on a step, its times and its
 * test region (plan_quick.h says what and why). */
#include "run/plan_quick.h"
#include "run/internal.h"

#include <math.h>
#include <stdio.h>

#include "lib/lib.h"

uint64_t plan_test_size(const struct run_config *c)
{
	if (c->quick && c->test_size > PLAN_QUICK_TEST_SIZE)
		return PLAN_QUICK_TEST_SIZE;
	return c->test_size;
}

double plan_quick_seconds(double seconds, const struct run_config *c)
{
	return c->time_scale >= PLAN_QUICK_MIN_SCALE
		       ? seconds
		       : seconds * PLAN_QUICK_MIN_SCALE / c->time_scale;
}

/* Whether step s on d may draw on a credit bucket: the volume's (it bursts
 * and the step is not a load-curve step at or below the sustained rate,
 * which plan_sustained_iops holds to the instance's baseline too) or the
 * instance's (it bursts and the volume can ask more than its baseline). */
static bool may_borrow(const struct plan_step *s, const struct run_config *c,
		       const struct run_device *d)
{
	bool below_sustained = s->load.percent > 0 && !s->load.above_sustained;
	if (below_sustained)
		return false;
	if (d->randread.bursts)
		return true;
	const struct instance_ebs_limits *inst = ebs_instance_limits_find(c->instance_type);
	if (!ebs_instance_has_burst(inst))
		return false;
	const struct ebs_prediction *p = &d->randread;
	return !(p->burst_iops > 0) || p->burst_iops > inst->baseline_iops ||
	       !(p->burst_mibs > 0) || p->burst_mibs * 1.048576 > inst->baseline_mbps;
}

/* The metric the analysis judges the phase by (analysis/steady_state.h):
 * p99 for a load-curve step and random I/O at queue depth 1, bandwidth
 * for sequential I/O, IOPS for the rest. */
static const char *metric(const struct plan_step *s)
{
	const struct job_options *o = &s->job;
	if (s->load.percent > 0 || (options_rw_is_random(o->rw) && o->iodepth == 1))
		return "snia_p99";
	return options_rw_is_random(o->rw) ? "snia_iops" : "snia_bw";
}

/* An option of the quick plan's, refused only by a bug. */
static int set(struct plan_step *s, const char *name, const char *value, char *err, size_t errlen)
{
	char why[256];
	return options_set(&s->job, name, value, why, sizeof(why))
		       ? error_set(err, errlen, "plan: %s", why)
		       : 0;
}

/* seconds of the quick plan as a duration option in whole microseconds
 * (times `times`: the window is whole rounds, as ss_dur must be). */
static void duration(char *text, size_t len, double seconds, unsigned times,
		     const struct run_config *c)
{
	double us = round(plan_quick_seconds(seconds, c) * c->time_scale * 1e6);
	snprintf(text, len, "%.0fus", (us > 1000 ? us : 1000) * times);
}

int plan_quick_stop(struct plan_step *s, const struct run_config *c, const struct run_device *d,
		    char *err, size_t errlen)
{
	char round[32], window[32], floor_[32];
	if (!s->job.time_based)
		return 0;
	duration(round, sizeof(round), PLAN_QUICK_ROUND_S, 1, c);
	/* One round unmeasured: the queue filling, a throttle's first tenth
	 * of a second, weigh on a 15 s phase as they do not on 600 s.  A
	 * load-curve step's lead-in is its own (plan_load_ramp_ns). */
	if (s->load.percent == 0 && set(s, "ramp_time", round, err, errlen))
		return -1;
	if (may_borrow(s, c, d))
		return 0;
	duration(window, sizeof(window), PLAN_QUICK_ROUND_S, STEADY_ROUNDS, c);
	duration(floor_, sizeof(floor_),
		 s->load.percent > 0 ? PLAN_QUICK_LC_FLOOR_S : PLAN_QUICK_FLOOR_S, 1, c);
	/* Shown in the dry run's options, and in fio's record of the step. */
	return set(s, "ss", metric(s), err, errlen) || set(s, "ss_interval", round, err, errlen) ||
			       set(s, "ss_dur", window, err, errlen) ||
			       set(s, "ss_floor", floor_, err, errlen)
		       ? -1
		       : 0;
}
