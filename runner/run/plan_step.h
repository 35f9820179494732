/* plan_step.h - what every phase planner shares, below plan.c and the
 * phases planned in files of their own (plan_loadcurve.c): the table row
 * a phase is made from, a step's job, logs and estimate, the plan's total
 * and room for more steps (inner header of run/). */
#ifndef EBSBENCH_PLAN_STEP_H
#define EBSBENCH_PLAN_STEP_H

#include "run/plan.h"

struct phase_template;

/* How a phase with steps of its own becomes steps on n devices, appended
 * to p (fio's ioengine_ops, for phases): t is its row of the plan's table,
 * runtime_s the config's (< 0: none).  0, or -1 with a one-line reason. */
typedef int plan_phase_fn(struct plan *p, const struct run_config *c,
			  const struct run_device *devices, size_t n,
			  const struct phase_template *t, json_t *overrides, double runtime_s,
			  char *err, size_t errlen);

/* A phase of the plan's table (plan.c): its name, log short name and shape. */
struct phase_template {
	const char *phase;
	const char *short_name;
	const char *rw;
	const char *bs;
	const char *iodepth;
	double runtime_s;	  /* 0: one pass over the test region */
	plan_phase_fn *add_steps; /* NULL: the template on every device in turn */
};

/* Options common to every step, then the template's (t may be NULL), then
 * the config's overrides, then runtime_s (unscaled seconds; 0: one pass)
 * times time_scale.  0, or -1 with a one-line reason. */
int plan_step_job(struct plan_step *s, const struct phase_template *t, json_t *overrides,
		  const struct run_config *c, const struct run_device *d, double runtime_s,
		  unsigned log_msec, char *err, size_t errlen);
/* The phases the latency heatmap shows keep a histogram log of the IOPS
 * log's windows (log_msec), named for label; others none.  0, or -1. */
int plan_step_hist_log(struct plan_step *s, const char *label, unsigned log_msec, char *err,
		       size_t errlen);
/* A pass over bytes of d at its baseline throughput (100 MiB/s when the
 * model has none). */
uint64_t plan_pass_ns(uint64_t bytes, const struct run_device *d);
/* The step's expected length, for ETAs and URL expiry checks. */
uint64_t plan_step_estimate_ns(const struct plan_step *s, const struct run_device *d);
/* ns into the plan's total, which stops at UINT64_MAX (584 years) rather
 * than wrap to minutes: sixteen phases of 700 days on sixteen devices pass
 * it, and the URL expiry check must see them. */
void plan_add_time(struct plan *p, uint64_t ns);
/* Whether the default plan leaves phase out on d: a volume with a
 * throughput bucket (st1, sc1) gets HDD's plan, the layout and 1 MiB
 * sequential reads (to the bucket's cliff) and writes at a queue of 8
 * (AWS advises at least 4); 4k phases would cost a whole MiB of credit
 * per I/O.  A config's own phases run as given. */
bool plan_step_skips(const struct run_config *c, const struct run_device *d, const char *phase);
/* Room for `more` steps after the ones planned; -1 with a reason. */
int plan_reserve(struct plan *p, size_t more, char *err, size_t errlen);

#endif
