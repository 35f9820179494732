/* plan_step.c - one step of the plan, whatever phase planned it: its
 * job from the table row, the config and the run's own options, its logs,
 * its estimate, and the plan's room and total time it joins. */
#include "run/plan_step.h"
#include "run/internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/job.h"
#include "lib/lib.h"
#include "run/artifacts.h"

/* The plan's own option settings: a refusal says it came from the plan. */
static int plan_refused(const char *why, char *err, size_t errlen)
{
	return error_set(err, errlen, "plan: %s", why);
}

static int set_option(struct job_options *o, const char *name, const char *value, char *err,
		      size_t errlen)
{
	char why[256];
	return options_set(o, name, value, why, sizeof(why)) ? plan_refused(why, err, errlen) : 0;
}

static int set_number(struct job_options *o, const char *name, uint64_t value, char *err,
		      size_t errlen)
{
	char why[256];
	return options_set_number(o, name, value, why, sizeof(why)) ? plan_refused(why, err, errlen)
								    : 0;
}

/* A run writes one IOPS log per step, named by its artifacts (and so
 * signed and uploaded): a phase asking fio for other logs is refused, as
 * they would land outside the results. */
static int own_logs_only(const char *phase, const struct job_options *o, char *err, size_t errlen)
{
	const char *asked = o->iops_log[0]   ? "write_iops_log"
			    : o->bw_log[0]   ? "write_bw_log"
			    : o->lat_log[0]  ? "write_lat_log"
			    : o->hist_log[0] ? "write_hist_log"
					     : NULL;
	if (asked)
		snprintf(err, errlen,
			 "config: phase '%s': a run names its own logs (LABEL_SHORT_iops.1.log), "
			 "drop \"%s\"",
			 phase, asked);
	return asked ? -1 : 0;
}

/* A phase's "io_latency_log": true keeps each I/O's completion latency in
 * LABEL_SHORT_clat.1.log (artifacts_lat_log; fio's lat log format, a row
 * per I/O as fio writes it at log_avg_msec=0), for checking a histogram's
 * percentiles against the I/Os themselves.  The key is the run's, not an
 * fio option: *opts becomes a copy without it (returns 1: the caller
 * drops the copy), or stays (0); -1 with a reason when it is not a boolean. */
static int io_latency_log(struct plan_step *s, const char *label, json_t **opts, char *err,
			  size_t errlen)
{
	json_t *keep = json_object_get(*opts, PLAN_IO_LATENCY_LOG);
	if (!keep)
		return 0;
	if (!json_is_boolean(keep))
		return error_set(err, errlen, "config: phase '%s': \"%s\" must be true or false",
				 s->phase, PLAN_IO_LATENCY_LOG);
	if (json_is_true(keep) &&
	    artifacts_lat_log(s->lat_log, sizeof(s->lat_log), label, s->short_name, err, errlen))
		return -1;
	*opts = json_copy(*opts);
	json_object_del(*opts, PLAN_IO_LATENCY_LOG);
	return 1;
}

int plan_step_job(struct plan_step *s, const struct phase_template *t, json_t *overrides,
		  const struct run_config *c, const struct run_device *d, double runtime_s,
		  unsigned log_msec, char *err, size_t errlen)
{
	struct job_options *o = &s->job;
	char name[96];
	uint64_t test_size = plan_test_size(c);
	uint64_t size = test_size < d->info.size_bytes ? test_size : d->info.size_bytes;
	options_defaults(o);
	snprintf(name, sizeof(name), "%s-%s", d->label, s->phase);
	if (set_option(o, "name", name, err, errlen) ||
	    set_option(o, "filename", d->info.dev_path, err, errlen) ||
	    set_number(o, "size", size - size % (1u << 20), err, errlen) ||
	    set_option(o, "ioengine", c->ioengine, err, errlen) ||
	    set_option(o, "direct", "1", err, errlen) ||
	    set_number(o, "log_avg_msec", log_msec, err, errlen))
		return -1;
	if (t &&
	    (set_option(o, "rw", t->rw, err, errlen) || set_option(o, "bs", t->bs, err, errlen) ||
	     set_option(o, "iodepth", t->iodepth, err, errlen)))
		return -1;
	json_t *opts = overrides;
	int copied = overrides ? io_latency_log(s, d->label, &opts, err, errlen) : 0;
	int bad = copied < 0 || (opts && (options_apply_json(o, opts, err, errlen) ||
					  own_logs_only(s->phase, o, err, errlen)));
	if (copied > 0)
		json_decref(opts);
	if (bad)
		return -1;
	if (o->allow_destroy) { /* the run reads first unless the config lists the volume */
		snprintf(
			err, errlen,
			"config: phase '%s': allow_destroy is the config's list of volumes that "
			"may be overwritten (\"allow_destroy\": [\"vol-...\"]), not a phase option",
			s->phase);
		return -1;
	}
	if (runtime_s > 0) {
		uint64_t ms = (uint64_t)llround(runtime_s * c->time_scale * 1000.0);
		char text[32];
		snprintf(text, sizeof(text), "%llums", (unsigned long long)(ms ? ms : 1));
		if (set_option(o, "runtime", text, err, errlen) ||
		    set_option(o, "time_based", "1", err, errlen))
			return -1;
	}
	return 0;
}

/* Only ours: own_logs_only refused the config's. */
int plan_step_hist_log(struct plan_step *s, const char *label, unsigned log_msec, char *err,
		       size_t errlen)
{
	if (!artifacts_draws_phase(ARTIFACT_HEATMAP_SVG, s->phase))
		return 0;
	return artifacts_hist_log(s->hist_log, sizeof(s->hist_log), label, s->short_name, err,
				  errlen) ||
			       set_number(&s->job, "log_hist_msec", log_msec, err, errlen) ||
			       set_number(&s->job, "log_hist_coarseness", PLAN_HIST_COARSENESS, err,
					  errlen)
		       ? -1
		       : 0;
}

uint64_t plan_pass_ns(uint64_t bytes, const struct run_device *d)
{
	double mibs = d->randread.baseline_mibs > 0 ? d->randread.baseline_mibs : 100.0;
	return (uint64_t)((double)bytes / (mibs * 1048576.0) * 1e9);
}

uint64_t plan_step_estimate_ns(const struct plan_step *s, const struct run_device *d)
{
	const struct job_options *o = &s->job;
	if (o->time_based)
		return o->ramp_ns + o->runtime_ns;
	/* A pass covers what the device has at most, whatever size says. */
	uint64_t bytes = o->size && o->size < d->info.size_bytes ? o->size : d->info.size_bytes;
	return plan_pass_ns(bytes, d) + o->ramp_ns;
}

void plan_add_time(struct plan *p, uint64_t ns)
{
	p->total_ns = ns > UINT64_MAX - p->total_ns ? UINT64_MAX : p->total_ns + ns;
}

bool plan_step_skips(const struct run_config *c, const struct run_device *d, const char *phase)
{
	static const char *const hdd[] = { "layout", "seqread", "seqwrite" };
	if (c->phases || !ebs_type_throughput_bucket(d->volume.type))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(hdd); i++)
		if (!strcmp(phase, hdd[i]))
			return false;
	return true;
}

int plan_reserve(struct plan *p, size_t more, char *err, size_t errlen)
{
	if (p->count + more <= p->cap)
		return 0;
	size_t cap = p->count + more > 2 * p->cap ? p->count + more : 2 * p->cap;
	struct plan_step *steps = realloc(p->steps, cap * sizeof(*steps));
	if (!steps)
		return error_set(err, errlen, "plan: out of memory");
	memset(steps + p->cap, 0, (cap - p->cap) * sizeof(*steps));
	p->steps = steps;
	p->cap = cap;
	return 0;
}
