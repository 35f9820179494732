/* plan.c - the reference benchmark's sequence, overridable from the config. */
#include "run/plan.h"
#include "run/internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/job.h"
#include "lib/lib.h"
#include "run/artifacts.h"
#include "run/plan_loadcurve.h"
#include "run/plan_quick.h"
#include "run/plan_step.h"

/* The reference benchmark's fio block, in its order. */
static const struct phase_template reference_phases[] = {
	{ "layout", "layout", "write", "1M", "1", 0, NULL },
	{ "randread", "rr", "randread", "4k", "32", 600, NULL },
	/* Not the reference benchmark's: 4k randread at fixed offered loads
	 * (plan_loadcurve.c), each step its own rate and length. */
	{ "loadcurve", "lc", "randread", "4k", "32", 0, plan_loadcurve_steps },
	{ "randwrite", "rw", "randwrite", "4k", "32", 120, NULL },
	{ "lat", "lat", "randread", "4k", "1", 60, NULL },
	{ "seqread", "sr", "read", "1M", "8", 60, NULL },
	{ "seqwrite", "sw", "write", "1M", "8", 60, NULL },
};

#define REFERENCE_PHASES (ARRAY_SIZE(reference_phases))

/* Seed 002's block-size sweep, opt-in: dd if=/dev/zero bs=X oflag=direct
 * (sequential O_DIRECT writes, one I/O at a time) at each size, then
 * hdparm --direct -t (sequential O_DIRECT reads of 2 MiB, one at a time,
 * from the device's start for 3 s).  Every step is a "sweep" phase entry. */
static const struct phase_template sweep_phases[] = {
	{ PLAN_SWEEP, "sweep16k", "write", "16k", "1", 30, NULL },
	{ PLAN_SWEEP, "sweep32k", "write", "32k", "1", 30, NULL },
	{ PLAN_SWEEP, "sweep64k", "write", "64k", "1", 30, NULL },
	{ PLAN_SWEEP, "sweep128k", "write", "128k", "1", 30, NULL },
	{ PLAN_SWEEP, "sweep256k", "write", "256k", "1", 30, NULL },
	{ PLAN_SWEEP, "sweep512k", "write", "512k", "1", 30, NULL },
	{ PLAN_SWEEP, "sweep1m", "write", "1M", "1", 30, NULL },
	{ PLAN_SWEEP, "sweepread", "read", "2M", "1", 3, NULL },
};

#define SWEEP_STEPS (ARRAY_SIZE(sweep_phases))

/* Opt-in: a volume restored from a snapshot read whole once, as AWS advises
 * ("Initialize Amazon EBS volumes"): sequential 1 MiB reads, 16 in flight,
 * over the whole device (not test_size), one pass. */
static const struct phase_template initialize_phase = { "initialize", "init", "read", "1M",
							"16",	      0,      NULL };

static plan_phase_fn together_steps;
/* Opt-in: every device at once (their volumes' sum against the instance's
 * EBS limit): 4k random reads, 32 in flight on each, for 600 s; a config
 * gives a longer runtime to pass the instance's 30-minute burst, or bs to
 * meet its throughput limit instead. */
static const struct phase_template together_phase = { PLAN_TOGETHER, "tg", "randread",	  "4k",
						      "32",	     600,  together_steps };

/* Long enough to pass a predicted credit cliff with margin: the reference
 * benchmark ran 2,700 s for a cliff predicted at 2,000 s. */
#define CLIFF_MARGIN 1.35

/* The steps a phase name expands to: one reference phase, or the whole
 * sweep; NULL (and *count 0) for a phase the config defines itself. */
static const struct phase_template *find_templates(const char *phase, size_t *count)
{
	*count = 1;
	if (!strcmp(phase, PLAN_SWEEP)) {
		*count = SWEEP_STEPS;
		return sweep_phases;
	}
	for (size_t i = 0; i < REFERENCE_PHASES; i++)
		if (!strcmp(reference_phases[i].phase, phase))
			return &reference_phases[i];
	if (!strcmp(phase, initialize_phase.phase))
		return &initialize_phase;
	if (!strcmp(phase, together_phase.phase))
		return &together_phase;
	*count = 0;
	return NULL;
}

/* The sweep's steps set their own pattern: a config may give them other
 * options (runtime, ioengine) but not another rw, bs or iodepth. */
static int sweep_overrides_ok(const char *phase, const json_t *overrides, char *err, size_t errlen)
{
	static const char *const own[] = { "rw", "bs", "iodepth" };
	if (strcmp(phase, PLAN_SWEEP))
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(own); i++)
		if (json_object_get(overrides, own[i])) {
			snprintf(err, errlen,
				 "config: phase 'sweep' sets its own \"%s\" (16k..1M writes "
				 "and a 2M read at iodepth 1): drop it",
				 own[i]);
			return -1;
		}
	return 0;
}

/* The cliff phase (randread; seqread on st1/sc1) runs past the cliff a
 * full bucket gives at full demand; other phases keep default_s.  On
 * st1/sc1 a 4k I/O and a 1 MiB one cost one unit each, so the 4k
 * prediction's burst is the 1 MiB reads' too. */
static double cliff_seconds(const struct run_device *d, const struct phase_template *t,
			    double default_s)
{
	if (strcmp(t->phase, ebs_cliff_phase(d->volume.type)) || !d->randread.bursts ||
	    d->randread.burst_seconds <= 0)
		return default_s;
	double needed = ceil(d->randread.burst_seconds * CLIFF_MARGIN);
	return needed > default_s ? needed : default_s;
}

/* The config's "phases" entry i: a reference phase by name, adjusted, or a new
 * phase that brings its own rw. */
static int phase_entry(json_t *phases, size_t i, const char **name, json_t **overrides,
		       double *runtime_s, char *err, size_t errlen)
{
	json_t *entry = json_array_get(phases, i);
	json_t *phase = json_object_get(entry, "phase");
	if (json_is_string(entry) && !strcmp(json_string_value(entry), PLAN_SWEEP)) {
		*name = PLAN_SWEEP; /* the sweep by name, as it is */
		return 0;
	}
	if (!json_is_object(entry) || !json_is_string(phase)) {
		snprintf(err, errlen,
			 "config: phases[%zu] needs a \"phase\" name (only \"sweep\" may stand "
			 "alone)",
			 i);
		return -1;
	}
	*name = json_string_value(phase);
	*overrides = json_deep_copy(entry);
	json_object_del(*overrides, "phase");
	json_t *runtime = json_object_get(*overrides, "runtime");
	if (runtime) {
		if (!json_is_number(runtime) || json_number_value(runtime) <= 0)
			return error_set(err, errlen, "config: phases[%zu].runtime must be seconds",
					 i);
		*runtime_s = json_number_value(runtime);
		if (*runtime_s > CONFIG_RUNTIME_MAX_S) {
			char key[40];
			snprintf(key, sizeof(key), "phases[%zu].runtime", i);
			return config_number_out_of_range(key, *runtime_s, CONFIG_RUNTIME_RANGE,
							  err, errlen);
		}
		json_object_del(*overrides, "runtime");
	}
	return 0;
}

/* One step of template t (NULL: the config's own phase) on device d. */
static int add_step(struct plan *p, const struct run_config *c, const struct run_device *dev,
		    size_t d, const char *phase, const struct phase_template *t, json_t *overrides,
		    double runtime_s, char *err, size_t errlen)
{
	if (plan_step_skips(c, dev, phase))
		return 0;
	struct plan_step *s = &p->steps[p->count++];
	double seconds = runtime_s >= 0 ? runtime_s : t ? t->runtime_s : 0;
	if (runtime_s < 0 && c->quick && seconds > 0) /* the ceiling: no cliff to pass */
		seconds = plan_quick_seconds(fmin(seconds, PLAN_QUICK_CEILING_S), c);
	else if (runtime_s < 0 && t)
		seconds = cliff_seconds(dev, t, seconds);
	snprintf(s->phase, sizeof(s->phase), "%s", phase);
	snprintf(s->short_name, sizeof(s->short_name), "%s", t ? t->short_name : phase);
	s->device = d;
	if (artifacts_iops_log(s->iops_log, sizeof(s->iops_log), dev->label, s->short_name, err,
			       errlen) ||
	    plan_step_job(s, t, overrides, c, dev, seconds, p->log_avg_msec, err, errlen) ||
	    plan_step_hist_log(s, dev->label, p->log_avg_msec, err, errlen) ||
	    (c->quick && t != &together_phase && plan_quick_stop(s, c, dev, err, errlen)))
		return -1;
	/* The whole device, whatever test_size says (whole MiBs: EBS sizes are GiBs). */
	if (t == &initialize_phase &&
	    options_set_number(&s->job, "size",
			       dev->info.size_bytes - dev->info.size_bytes % (1u << 20), err,
			       errlen))
		return -1;
	s->planned_ns = plan_step_estimate_ns(s, dev);
	plan_add_time(p, s->planned_ns);
	p->writes |= options_rw_changes_data(s->job.rw); /* trims destroy data too */
	return 0;
}

/* The together phase: its step on every device, run at once (run_step.h);
 * the plan's time counts the group once, on its first step.  The quick
 * plan's steady-state stop is left out: every device runs to the end, so
 * the sum is of the same seconds. */
static int together_steps(struct plan *p, const struct run_config *c,
			  const struct run_device *devices, size_t n,
			  const struct phase_template *t, json_t *overrides, double runtime_s,
			  char *err, size_t errlen)
{
	size_t first = p->count;
	uint64_t longest = 0;
	for (size_t d = 0; d < n; d++) {
		if (add_step(p, c, &devices[d], d, t->phase, t, overrides, runtime_s, err, errlen))
			return -1;
		struct plan_step *s = &p->steps[p->count - 1];
		s->together = n;
		s->group_first = first;
		p->total_ns -= s->planned_ns;
		longest = s->planned_ns > longest ? s->planned_ns : longest;
		s->planned_ns = 0;
	}
	p->steps[first].planned_ns = longest;
	plan_add_time(p, longest);
	return 0;
}

static int add_phase_steps(struct plan *p, const struct run_config *c,
			   const struct run_device *devices, size_t n, const char *phase,
			   json_t *overrides, double runtime_s, char *err, size_t errlen)
{
	size_t templates;
	const struct phase_template *t = find_templates(phase, &templates);
	if (!t && !json_object_get(overrides, "rw")) {
		snprintf(err, errlen,
			 "config: phase '%s' is not one of the EKS gp2/gp3 benchmark's (nor "
			 "'sweep', 'initialize' or 'together') and gives no \"rw\"",
			 phase);
		return -1;
	}
	if (p->phase_count == PLAN_MAX_PHASES)
		return error_set(err, errlen, "config: more than %d phases", PLAN_MAX_PHASES);
	if (sweep_overrides_ok(phase, overrides, err, errlen) ||
	    plan_reserve(p, (templates ? templates : 1) * n, err, errlen))
		return -1;
	snprintf(p->phases[p->phase_count++], sizeof(p->phases[0]), "%s", phase);
	size_t before = p->count;
	int rc = 0;
	if (t && t->add_steps) /* a phase with steps of its own */
		rc = t->add_steps(p, c, devices, n, t, overrides, runtime_s, err, errlen);
	for (size_t k = 0; !(t && t->add_steps) && k < (templates ? templates : 1); k++)
		for (size_t d = 0; d < n && rc == 0; d++)
			rc = add_step(p, c, &devices[d], d, phase, t ? &t[k] : NULL, overrides,
				      runtime_s, err, errlen);
	if (rc == 0 && p->count == before) /* left out on every device (plan_step_skips) */
		p->phase_count--;
	return rc;
}

bool plan_has_phase(const struct plan *p, const char *phase)
{
	for (size_t i = 0; i < p->phase_count; i++)
		if (!strcmp(p->phases[i], phase))
			return true;
	return false;
}

int plan_select(struct run_config *c, const char *name, char *err, size_t errlen)
{
	if (!strcmp(name, PLAN_QUICK)) {
		c->quick = true;
		return 0;
	}
	if (strcmp(name, PLAN_SWEEP))
		return error_set(err, errlen, "--plan '%s': the plans are: sweep, quick", name);
	json_decref(c->phases);
	c->phases = json_pack("[s]", PLAN_SWEEP);
	return c->phases ? 0 : (snprintf(err, errlen, "plan: out of memory"), -1);
}

size_t plan_report_files(const struct plan *p, const char *names[ARTIFACT_REPORT_COUNT])
{
	size_t n = 0;
	for (size_t i = ARTIFACT_FIRST_REPORT; i < ARTIFACT_COUNT; i++) {
		const char *const *needs = artifacts_needs_phase((enum artifact)i);
		bool planned = !needs;
		for (size_t k = 0; needs && needs[k]; k++)
			planned = planned || plan_has_phase(p, needs[k]);
		if (planned)
			names[n++] = artifacts_name((enum artifact)i);
	}
	return n;
}

/* Each device's read first: the span of its writing steps' regions,
 * unless allow_destroy names it; its estimate joins the total. */
static void plan_reads_first(struct plan *p, const struct run_config *c,
			     const struct run_device *devices, size_t device_count)
{
	const char *allow[CONFIG_MAX_ALLOW];
	size_t allowed = config_allow_list(c, allow);
	for (size_t k = 0; k < p->count; k++) {
		const struct plan_step *s = &p->steps[k];
		const struct run_device *d = &devices[s->device];
		struct plan_read_first *r = &p->read_first[s->device];
		uint64_t offset, length;
		if (discover_allows_destroy(&d->info, allow, allowed) ||
		    !read_first_region(&s->job, d->info.size_bytes, &offset, &length))
			continue;
		uint64_t end = offset + length;
		if (r->length && r->offset + r->length > end)
			end = r->offset + r->length;
		if (r->length && r->offset < offset)
			offset = r->offset;
		r->offset = offset;
		r->length = end - offset;
	}
	for (size_t i = 0; i < device_count; i++) {
		struct plan_read_first *r = &p->read_first[i];
		r->planned_ns = r->length ? plan_pass_ns(r->length, &devices[i]) : 0;
		plan_add_time(p, r->planned_ns);
	}
}

int plan_build(struct plan *p, const struct run_config *c, const struct run_device *devices,
	       size_t device_count, char *err, size_t errlen)
{
	size_t phase_count = c->phases ? json_array_size(c->phases) : REFERENCE_PHASES;
	memset(p, 0, sizeof(*p));
	p->log_avg_msec = (unsigned)llround(1000.0 * c->time_scale);
	if (p->log_avg_msec == 0)
		p->log_avg_msec = 1;
	for (size_t i = 0; i < phase_count; i++) {
		const char *name = reference_phases[i < REFERENCE_PHASES ? i : 0].phase;
		json_t *overrides = NULL;
		double runtime_s = -1;
		int rc = c->phases ? phase_entry(c->phases, i, &name, &overrides, &runtime_s, err,
						 errlen)
				   : 0;
		if (rc == 0)
			rc = add_phase_steps(p, c, devices, device_count, name, overrides,
					     runtime_s, err, errlen);
		json_decref(overrides);
		if (rc) {
			plan_free(p);
			return -1;
		}
	}
	plan_reads_first(p, c, devices, device_count);
	return 0;
}

void plan_free(struct plan *p)
{
	free(p->steps);
	p->steps = NULL;
	p->count = p->cap = 0;
}
