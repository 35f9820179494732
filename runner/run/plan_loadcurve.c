/* plan_loadcurve.c - the loadcurve phase of the plan: 4k randread at fixed
 * offered loads (plan.h), each step its rate, arrivals, depth and length. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lib.h"
#include "run/plan.h"
#include "run/internal.h"
#include "run/plan_loadcurve.h"
#include "run/plan_quick.h"

/* Offered loads in percent of the sustained rate: the knee is expected
 * between 90 and 110 %, so the steps are densest there. */
const double plan_loadcurve_default_percents[] = { 25, 50, 75, 90, 100, 110 };
const size_t plan_loadcurve_default_count = ARRAY_SIZE(plan_loadcurve_default_percents);

/* A step runs at least a minute, and long enough that this many of its
 * I/Os lie beyond its p99 (20,000 I/Os): a p99 resting on 200 samples
 * moves by a few percent from run to run, not by its whole value. */
#define LOADCURVE_STEP_MIN_S 60.0
#define LOADCURVE_STEP_MAX_S 600.0
#define LOADCURVE_TAIL_IOS 200.0
/* And, whatever the time scale, 3 s of real time: a token-bucket cap lets
 * a tenth of a second's worth through above it before it holds (QEMU's
 * throttle does, with no burst set), which a step at 110 % fills in its
 * first second; a time-scaled minute (0.6 s at 0.01) never built a queue,
 * so no step showed a knee.  At time_scale 1 the minute is longer. */
#define LOADCURVE_STEP_MIN_REAL_S 3.0
/* The queue holds 4 ms of the offered load (at least 32): EBS serves 4k
 * in well under a millisecond, so at every step up to 110 % the volume,
 * not the queue, is what can hold the rate back. */
#define LOADCURVE_QUEUE_S 0.004
/* The longest lead-in of a step above the sustained rate (plan_load_ramp_ns):
 * at 110 % a minute spends what a 6 s gap refills. */
#define LOADCURVE_RAMP_MAX_S 60.0
#define LOADCURVE_MIN_DEPTH 32u
#define LOADCURVE_MAX_DEPTH 1024u

double plan_loadcurve_step_seconds(double offered, double time_scale)
{
	double s = offered > 0 ? LOADCURVE_TAIL_IOS / 0.01 / offered : LOADCURVE_STEP_MAX_S;
	s = fmin(LOADCURVE_STEP_MAX_S, fmax(LOADCURVE_STEP_MIN_S, ceil(s)));
	return time_scale > 0 ? fmax(s, ceil(LOADCURVE_STEP_MIN_REAL_S / time_scale)) : s;
}

unsigned plan_loadcurve_iodepth(double offered)
{
	double depth = ceil(offered * LOADCURVE_QUEUE_S);
	if (!(depth > LOADCURVE_MIN_DEPTH))
		return LOADCURVE_MIN_DEPTH;
	return depth > LOADCURVE_MAX_DEPTH ? LOADCURVE_MAX_DEPTH : (unsigned)depth;
}

double plan_sustained_iops(const struct run_device *d, const struct instance_ebs_limits *inst,
			   const char **from)
{
	if (!d->info.ebs_like) {
		/* No model of the device: what its config says it sustains, its
		 * iops or the baseline its type and size give (a gp2 typed with
		 * its size, whose iops would be that figure), else nothing. */
		bool sized = !d->type_assumed && !d->size_assumed &&
			     ebs_type_rules(d->volume.type)->size_derived;
		if (d->volume.iops > 0 && !d->volume.iops_assumed) {
			*from = "the config's iops";
			return d->volume.iops;
		}
		*from = sized ? "the baseline of the config's type and size"
			      : "not an EBS volume and no \"iops\" in its config";
		return sized ? d->randread.baseline.ops : 0;
	}
	struct ebs_rate r = ebs_rate_with_instance(d->randread.baseline, 4096, inst, false);
	*from = r.bound == EBS_BOUND_INSTANCE_IOPS || r.bound == EBS_BOUND_INSTANCE_THROUGHPUT
			? "the instance's baseline EBS IOPS"
		: ebs_type_rules(d->volume.type)->size_derived ? "the volume's baseline"
							       : "the volume's provisioned IOPS";
	return r.ops > 0 && isfinite(r.ops) ? r.ops : 0;
}

/* What the gap refilled, spent at the step's surplus over the baseline. */
uint64_t plan_load_ramp_ns(const struct plan_step *s, uint64_t idle_ns)
{
	const struct plan_load *l = &s->load;
	if (!l->bursting || !l->above_sustained || !idle_ns || l->no_ramp)
		return 0;
	double ramp_ns =
		(double)idle_ns * l->sustained_iops / (l->offered_iops - l->sustained_iops);
	return ramp_ns <= LOADCURVE_RAMP_MAX_S * 1e9 ? (uint64_t)ramp_ns : 0;
}

json_t *plan_load_json(const struct plan_load *l, double measured_iops)
{
	/* On burst: above what the volume sustains, and served closer to the
	 * offered rate than to the sustained one. */
	bool measured = isfinite(measured_iops);
	bool burst = l->above_sustained && measured &&
		     measured_iops > (l->sustained_iops + l->offered_iops) / 2;
	return json_pack("{s:f,s:f,s:f,s:s,s:b,s:f,s:o}", "percent", l->percent, "offered_iops",
			 l->offered_iops, "sustained_iops", l->sustained_iops, "sustained_from",
			 l->sustained_from, "above_sustained", l->above_sustained, "ramp_s",
			 l->ramp_s, "on_burst", measured ? json_boolean(burst) : json_null());
}

/* The percentages to run: the config's "loads" (taken out of the
 * overrides) or the default six, ascending. */
static int loadcurve_percents(json_t *overrides, double *pct, size_t *n, char *err, size_t errlen)
{
	json_t *loads = json_object_get(overrides, "loads"), *v;
	size_t i;
	*n = 0;
	if (!loads) {
		for (; *n < plan_loadcurve_default_count; (*n)++)
			pct[*n] = plan_loadcurve_default_percents[*n];
		return 0;
	}
	json_array_foreach(loads, i, v)
	{
		double x = json_number_value(v);
		if (!json_is_number(v) || !(x > 0 && x <= 1000) || (i && x <= pct[i - 1]) ||
		    i == PLAN_LOADCURVE_MAX_STEPS)
			break;
		pct[(*n)++] = x;
	}
	if (!json_is_array(loads) || *n == 0 || *n != json_array_size(loads)) {
		snprintf(err, errlen,
			 "config: phase 'loadcurve': \"loads\" must be 1-%d rising percentages "
			 "of the sustained rate (0-1000], e.g. [25, 50, 100]",
			 PLAN_LOADCURVE_MAX_STEPS);
		return -1;
	}
	json_object_del(overrides, "loads");
	return 0;
}

/* One step at `load` on device di, with the step's rate, arrivals and
 * depth under the config's options (which may change the arrivals and
 * the depth, never the rate). */
static int loadcurve_step(struct plan *p, const struct phase_template *t, json_t *overrides,
			  const struct run_config *c, const struct run_device *devices, size_t di,
			  const struct plan_load *load, double runtime_s, char *err, size_t errlen)
{
	struct plan_step *s = &p->steps[p->count++];
	char rate[32], depth[32];
	/* The slot may have held a randread step before they moved: nothing
	 * of it (its histogram log's name) may carry over. */
	memset(s, 0, sizeof(*s));
	snprintf(rate, sizeof(rate), "%.0f", load->offered_iops);
	snprintf(depth, sizeof(depth), "%u", plan_loadcurve_iodepth(load->offered_iops));
	json_t *opts = json_pack("{ssssss}", "rate_iops", rate, "rate_process", "poisson",
				 "iodepth", depth);
	json_object_update(opts, overrides);
	snprintf(s->phase, sizeof(s->phase), "loadcurve");
	snprintf(s->short_name, sizeof(s->short_name), "lc%.0f", load->percent);
	s->device = di;
	s->load = *load;
	double seconds = runtime_s >= 0 ? runtime_s
			 : c->quick /* its ceiling, and the real time a step needs */
				 ? fmax(plan_quick_seconds(PLAN_QUICK_LC_CEILING_S, c),
					ceil(LOADCURVE_STEP_MIN_REAL_S / c->time_scale))
				 : plan_loadcurve_step_seconds(load->offered_iops, c->time_scale);
	int rc = artifacts_iops_log(s->iops_log, sizeof(s->iops_log), devices[di].label,
				    s->short_name, err, errlen);
	if (rc == 0)
		rc = plan_step_job(s, t, opts, c, &devices[di], seconds, p->log_avg_msec, err,
				   errlen);
	json_decref(opts);
	if (rc || (c->quick && plan_quick_stop(s, c, &devices[di], err, errlen)))
		return -1;
	s->planned_ns = plan_step_estimate_ns(s, &devices[di]);
	if (load->bursting && load->above_sustained && !load->no_ramp) /* room for its lead-in */
		s->planned_ns += (uint64_t)(LOADCURVE_RAMP_MAX_S * 1e9);
	plan_add_time(p, s->planned_ns);
	return 0;
}

/* Device di's steps.  A bursting volume runs them from the highest load
 * down: right after randread emptied its bucket, the steps above the
 * baseline find no credits (a rising order would refill the bucket in
 * the low steps and serve the high ones on burst); below the baseline
 * credits change nothing. */
static int loadcurve_device(struct plan *p, const struct phase_template *t, json_t *overrides,
			    const struct run_config *c, const struct run_device *devices, size_t di,
			    const double *pct, size_t k, double runtime_s, char *err, size_t errlen)
{
	const struct run_device *d = &devices[di];
	struct plan_load load = { .bursting = d->randread.bursts, .no_ramp = c->quick };
	if (plan_step_skips(c, d, t->phase))
		return 0;
	load.sustained_iops = plan_sustained_iops(d, ebs_instance_limits_find(c->instance_type),
						  &load.sustained_from);
	if (!(load.sustained_iops > 0)) {
		size_t used = strlen(p->notes);
		snprintf(p->notes + used, sizeof(p->notes) - used,
			 "no load curve on %s: %s (no sustained rate known)\n", d->label,
			 load.sustained_from);
		return 0;
	}
	for (size_t j = 0; j < k; j++) {
		load.percent = pct[d->randread.bursts ? k - 1 - j : j];
		load.offered_iops = fmax(1, round(load.sustained_iops * load.percent / 100));
		load.above_sustained = load.offered_iops > load.sustained_iops;
		if (loadcurve_step(p, t, overrides, c, devices, di, &load, runtime_s, err, errlen))
			return -1;
	}
	return 0;
}

/* The loadcurve phase: its steps device by device.  Right after
 * randread, each device's steps follow its own randread at once, so a
 * gp2 meets them with the bucket that randread's cliff emptied rather
 * than refilled while the other devices ran. */
int plan_loadcurve_steps(struct plan *p, const struct run_config *c,
			 const struct run_device *devices, size_t n, const struct phase_template *t,
			 json_t *overrides, double runtime_s, char *err, size_t errlen)
{
	double pct[PLAN_LOADCURVE_MAX_STEPS];
	size_t k;
	if (json_object_get(overrides, "rate_iops")) {
		snprintf(err, errlen,
			 "config: phase 'loadcurve' sets each step's rate_iops itself (give "
			 "\"loads\" in percent instead)");
		return -1;
	}
	if (loadcurve_percents(overrides, pct, &k, err, errlen) ||
	    plan_reserve(p, n * k, err, errlen))
		return -1;
	bool paired = p->phase_count >= 2 && !strcmp(p->phases[p->phase_count - 2], "randread") &&
		      p->count >= n;
	for (size_t d = 0; d < n; d++) /* an HDD volume has no randread step to pair with */
		paired = paired && !plan_step_skips(c, &devices[d], "randread");
	struct plan_step *randread = paired ? malloc(n * sizeof(*randread)) : NULL;
	if (paired && !randread)
		return error_set(err, errlen, "plan: out of memory");
	if (paired) {
		p->count -= n;
		memcpy(randread, p->steps + p->count, n * sizeof(*randread));
	}
	int rc = 0;
	for (size_t d = 0; d < n && rc == 0; d++) {
		if (paired)
			p->steps[p->count++] = randread[d];
		rc = loadcurve_device(p, t, overrides, c, devices, d, pct, k, runtime_s, err,
				      errlen);
	}
	free(randread);
	return rc;
}
