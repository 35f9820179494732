/* run_step.c - one step of the plan: a fio job on its device between two
 * readings of its EBS statistics, then its phase record in results.json. */
#include "run/run_step.h"
#include "run/internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/job.h"
#include "lib/lib.h"
#include "output/output.h"
#include "run/run_record.h"

int run_log_path(const struct run_state *st, const char *log, char *path, size_t cap, char *err,
		 size_t errlen)
{
	int n = snprintf(path, cap, "%s/%s", st->out_dir, log);
	if (n >= 0 && (size_t)n < cap)
		return 0;
	return error_set(err, errlen, "output_dir %s is too long for a log path", st->out_dir);
}

/* Step s's histogram windows in results.json's form (job/histlog.h's
 * histlog_sparse); JSON null for a step that keeps none. */
static json_t *hist_json(const struct plan_step *s, json_t *windows)
{
	if (!s->hist_log[0] || !windows)
		return json_null();
	return json_pack("{sssisisisO}", "log", s->hist_log, "window_ms", (int)s->job.log_hist_msec,
			 "coarseness", (int)s->job.log_hist_coarseness, "bins",
			 (int)(HISTLOG_FIO_BINS >> s->job.log_hist_coarseness), "windows", windows);
}

/* Step s's record in results.json's "phases". */
/* The quick plan's record of how a step ended (docs/results-json.md):
 * steady by SNIA's test after its floor, or at its ceiling; a step with
 * no stop rule may have drawn on a credit bucket (run/plan_quick.h). */
static json_t *stop_json(const struct plan_step *s, const struct steadystate *ss)
{
	const struct ss_options *o = &s->job.ss;
	if (!o->dur_ns)
		return json_pack("{sbsbsfss}", "when_steady", false, "steady", false, "ceiling_s",
				 (double)s->job.runtime_ns / 1e9, "why",
				 s->job.time_based ? "it may draw on burst credit" : "one pass");
	return json_pack("{sbsbsssfsfsf}", "when_steady", true, "steady", ss->attained, "metric",
			 o->p99	   ? "p99"
			 : o->iops ? "IOPS"
				   : "bandwidth",
			 "round_s", (double)o->interval_ns / 1e9, "floor_s",
			 (double)o->floor_ns / 1e9, "ceiling_s", (double)s->job.runtime_ns / 1e9);
}

static json_t *phase_json(const struct run_state *st, const struct plan_step *s,
			  const struct job_stats *js, const struct steadystate *ss,
			  const struct iolog_series *kept, json_t *ebs, int64_t start_ms,
			  int64_t end_ms, uint64_t idle_ns)
{
	const struct job_options *o = &s->job;
	json_t *p = json_pack("{sIsssssIsI}", "step", (json_int_t)(s - st->plan.steps), "phase",
			      s->phase, "device", st->devices[s->device].label, "started_ms",
			      (json_int_t)start_ms, "ended_ms", (json_int_t)end_ms);
	json_object_set_new(p, "idle_before_s",
			    idle_ns ? json_real((double)idle_ns / 1e9) : json_null());
	json_object_set_new(p, "iodepth", json_integer(o->iodepth));
	json_object_set_new(p, "bs", json_integer(o->bs));
	json_object_set_new(p, "rw", json_string(options_rw_name(o->rw)));
	json_object_set_new(p, "runtime_s", json_real((double)o->runtime_ns / 1e9));
	json_object_set_new(p, "window_ms", json_integer(o->log_avg_msec));
	json_object_set_new(p, "job", output_job_json(o, js, o->ss.dur_ns ? ss : NULL, false));
	if (st->cfg.quick)
		json_object_set_new(p, "stop", stop_json(s, ss));
	json_object_set_new(p, "iops_log", json_string(s->iops_log));
	json_object_set_new(p, "iops_series", kept->iops ? json_incref(kept->iops) : json_array());
	json_object_set_new(p, "clat_hist", hist_json(s, kept->hist));
	if (s->lat_log[0])
		json_object_set_new(p, "lat_log", json_string(s->lat_log));
	if (s->together) /* one of a group run at once: its first step names it */
		json_object_set_new(p, "together",
				    json_pack("{sIsI}", "group", (json_int_t)s->group_first,
					      "devices", (json_int_t)s->together));
	json_object_set_new(p, "ebs_stats", ebs);
	json_object_set_new(p, "disk_check", run_record_disk_check(js));
	if (s->load.percent > 0) /* a loadcurve step: its offered load, what it got */
		json_object_set_new(
			p, "load",
			plan_load_json(&s->load,
				       (double)(js->dir[DDIR_READ].ios + js->dir[DDIR_WRITE].ios) /
					       ((double)js->runtime_ns / 1e9)));
	return p;
}

/* What the plan still holds after step k, for the progress line's ETA
 * (a resumed run's steps done before the stop left out). */
static uint64_t planned_after(const struct run_state *st, size_t k)
{
	uint64_t sum = 0;
	for (size_t i = k + 1; i < st->plan.count; i++)
		if (!st->resume.done || !st->resume.done[i])
			sum += st->plan.steps[i].planned_ns;
	return sum;
}

/* The device's idle time before a step that starts now: since its last
 * phase of this process, else (a resumed run) since its last I/O before
 * the stop, the gap included; 0 for its first phase. */
static uint64_t idle_before_ns(const struct run_state *st, size_t device, uint64_t now_ns,
			       int64_t now_ms)
{
	uint64_t last = st->last_end_ns[device];
	int64_t before = st->resume.device_end_ms[device];
	if (last)
		return now_ns - last;
	return before > 0 && now_ms > before ? (uint64_t)(now_ms - before) * 1000000u : 0;
}

/* A loadcurve step's lead-in, from the idle gap before it (plan.h). */
static void loadcurve_ramp(struct run_state *st, size_t k)
{
	struct plan_step *s = &st->plan.steps[k];
	if (s->load.percent > 0) {
		uint64_t idle = idle_before_ns(st, s->device, clock_now_ns(), run_record_wall_ms());
		s->job.ramp_ns = plan_load_ramp_ns(s, idle);
		s->load.ramp_s = (double)s->job.ramp_ns / 1e9;
		if (s->load.bursting && s->load.above_sustained && !s->load.no_ramp)
			fprintf(stderr,
				"ebsbench run: %s loadcurve %.0f %%: lead-in %.2f s for a gap of "
				"%.2f s\n",
				st->devices[s->device].label, s->load.percent, s->load.ramp_s,
				(double)idle / 1e9);
	}
}

/* One step in flight, split so that a together group runs its steps' I/O
 * in threads between serial starts and records (results.json, the EBS
 * statistics' ioctls and the ledger of idle times stay on one thread). */
struct step_exec {
	struct run_state *st;
	size_t k;
	struct job_context ctx;
	struct ebs_sample before, after;
	struct iolog_paths *paths;
	struct job_stats *js;
	struct steadystate *ss;	  /* job_run sets it up */
	struct iolog_series kept; /* the series the job kept for results.json */
	uint64_t start_ns;
	int64_t start_ms, end_ms; /* end_ms: its I/O's, not the group's */
	char label[160];
	char err[512];
	int rc;
	pthread_t thread;
	bool threaded;
};

/* Everything before the step's first I/O; -1 only when out of memory. */
static int step_begin(struct step_exec *x, struct run_state *st, size_t k, bool beside,
		      const volatile sig_atomic_t *stop)
{
	const struct plan_step *s = &st->plan.steps[k];
	const struct run_device *d = &st->devices[s->device];
	*x = (struct step_exec){ .st = st, .k = k };
	x->paths = calloc(1, sizeof(*x->paths));
	x->js = malloc(sizeof(*x->js));
	x->ss = calloc(1, sizeof(*x->ss));
	if (!x->js || !x->paths || !x->ss)
		return -1;
	stats_job_init(x->js);
	loadcurve_ramp(st, k);
	snprintf(x->label, sizeof(x->label), "[%zu/%zu] %s %s %s", k + 1, st->plan.count, s->phase,
		 d->label, d->info.dev_path);
	x->ctx = (struct job_context){ .stop = stop,
				       .label = x->label,
				       .remaining_after_ns = planned_after(st, k),
				       .beside = beside,
				       .ss = x->ss };
	run_record_ebs_sample(d->info.dev_path, &x->before);
	x->start_ns = clock_now_ns();
	x->start_ms = run_record_wall_ms();
	x->rc = run_log_path(st, s->iops_log, x->paths->path[IOLOG_IOPS],
			     sizeof(x->paths->path[IOLOG_IOPS]), x->err, sizeof(x->err));
	if (x->rc == 0 && s->hist_log[0])
		x->rc = run_log_path(st, s->hist_log, x->paths->path[IOLOG_HIST],
				     sizeof(x->paths->path[IOLOG_HIST]), x->err, sizeof(x->err));
	if (x->rc == 0 && s->lat_log[0]) /* io_latency_log: a row per I/O */
		x->rc = run_log_path(st, s->lat_log, x->paths->path[IOLOG_CLAT],
				     sizeof(x->paths->path[IOLOG_CLAT]), x->err, sizeof(x->err));
	x->paths->lat_per_io = s->lat_log[0] != '\0';
	x->paths->keep = &x->kept;
	return 0;
}

/* The step's fio job on its own target and logs (a thread's, in a group). */
static void *step_io(void *arg)
{
	struct step_exec *x = arg;
	const struct plan_step *s = &x->st->plan.steps[x->k];
	struct target t;
	struct iolog logs;
	if (x->rc == 0)
		x->rc = target_open(&t, &s->job, x->err, sizeof(x->err));
	if (x->rc == 0) {
		x->rc = iolog_open(&logs, &s->job, x->paths, x->err, sizeof(x->err));
		if (x->rc == 0)
			x->rc = job_run(&s->job, &t, &logs, x->js, &x->ctx, x->err, sizeof(x->err));
		char log_err[256];
		if (iolog_close(&logs, log_err, sizeof(log_err)) && x->rc == 0) {
			snprintf(x->err, sizeof(x->err), "%s", log_err);
			x->rc = -1;
		}
		target_close(&t);
	}
	if (x->rc == 0 && x->js->error)
		x->rc = -1; /* err already names the failed I/O */
	x->end_ms = run_record_wall_ms();
	return NULL;
}

/* After the I/O: the EBS statistics again, the idle ledger, the phase's
 * record when it ran at all; frees what step_begin took. */
static void step_end(struct step_exec *x, const volatile sig_atomic_t *stop)
{
	struct run_state *st = x->st;
	const struct plan_step *s = &st->plan.steps[x->k];
	const struct run_device *d = &st->devices[s->device];
	if (x->js && x->paths && x->ss) {
		run_record_ebs_sample(d->info.dev_path, &x->after);
		uint64_t idle = idle_before_ns(st, s->device, x->start_ns, x->start_ms);
		st->last_end_ns[s->device] = clock_now_ns();
		if (x->js->runtime_ns) {
			json_t *ebs = run_record_ebs_stats(&x->before, &x->after,
							   x->js->runtime_ns / 1000);
			json_t *p = phase_json(st, s, x->js, x->ss, &x->kept, ebs, x->start_ms,
					       x->end_ms, idle);
			if (x->kept.iops_full || x->kept.hist_full)
				fprintf(stderr,
					"ebsbench run: %s: results.json keeps the first %u windows "
					"of its series; its logs hold them all\n",
					x->label, IOLOG_KEEP_WINDOWS);
			/* Stopped mid-way (as far as can be told): a resume runs it again. */
			if (stop && *stop)
				json_object_set_new(p, "cut", json_true());
			json_array_append_new(json_object_get(st->results, RESULTS_KEY_PHASES), p);
		}
		steadystate_free(x->ss);
	}
	json_decref(x->kept.iops);
	json_decref(x->kept.hist);
	free(x->ss);
	free(x->js);
	free(x->paths);
}

int run_step(struct run_state *st, size_t k, const volatile sig_atomic_t *stop, char *err,
	     size_t errlen)
{
	struct step_exec x;
	if (step_begin(&x, st, k, false, stop)) {
		step_end(&x, stop);
		return error_set(err, errlen, "out of memory");
	}
	step_io(&x);
	step_end(&x, stop);
	if (x.rc)
		snprintf(err, errlen, "%s", x.err);
	return x.rc;
}

int run_steps_together(struct run_state *st, size_t k, size_t n, const bool *skip,
		       const volatile sig_atomic_t *stop, char *errs, size_t errlen)
{
	struct step_exec *x = calloc(n, sizeof(*x));
	int rc = 0;
	if (!x)
		return error_set(errs, errlen, "out of memory");
	errs[0] = '\0';
	size_t running = 0;
	for (size_t i = 0; i < n; i++)
		running += !skip[i];
	for (size_t i = 0; i < n; i++)
		if (!skip[i] && step_begin(&x[i], st, k + i, running > 1, stop) == 0)
			x[i].threaded = pthread_create(&x[i].thread, NULL, step_io, &x[i]) == 0;
	for (size_t i = 0; i < n; i++) {
		if (skip[i])
			continue;
		if (x[i].threaded)
			pthread_join(x[i].thread, NULL);
		else if (x[i].rc == 0) {
			snprintf(x[i].err, sizeof(x[i].err), "%s",
				 x[i].js ? "cannot start its thread" : "out of memory");
			x[i].rc = -1;
		}
		step_end(&x[i], stop);
		if (x[i].rc) {
			size_t used = strlen(errs);
			snprintf(errs + used, errlen - used, "%s%s: %s", rc ? "; " : "",
				 st->devices[st->plan.steps[k + i].device].label, x[i].err);
			rc = -1;
		}
	}
	free(x);
	return rc;
}
