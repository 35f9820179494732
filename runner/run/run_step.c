/* run_step.c - one step of the plan: a fio job on its device between two
 * readings of its EBS statistics, then its phase record in results.json. */
#include "run/run_step.h"

#include <stdio.h>
#include <stdlib.h>

#include "job/job.h"
#include "lib/lib.h"
#include "output/output.h"
#include "run/run_hist.h"
#include "run/run_record.h"

int run_log_path(const struct run_state *st, const char *log, char *path, size_t cap, char *err,
		 size_t errlen)
{
	int n = snprintf(path, cap, "%s/%s", st->out_dir, log);
	if (n >= 0 && (size_t)n < cap)
		return 0;
	return error_set(err, errlen, "output_dir %s is too long for a log path", st->out_dir);
}

/* Step s's histogram log, read back into results.json's compact form;
 * JSON null for a step that keeps none (or whose log is unreadable). */
static json_t *hist_json(const struct run_state *st, const struct plan_step *s)
{
	char path[IOLOG_PATH_MAX], err[256];
	json_t *hist = NULL;
	if (s->hist_log[0] && !run_log_path(st, s->hist_log, path, sizeof(path), err, sizeof(err)))
		hist = run_hist_read(path, s->hist_log, s->job.log_hist_msec,
				     s->job.log_hist_coarseness, err, sizeof(err));
	if (s->hist_log[0] && !hist)
		fprintf(stderr, "ebsbench run: %s\n", err);
	return hist ? hist : json_null();
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
			  const struct job_stats *js, const struct steadystate *ss, json_t *ebs,
			  int64_t start_ms, uint64_t idle_ns)
{
	char log_path[IOLOG_PATH_MAX], err[256];
	const struct job_options *o = &s->job;
	json_t *series = run_log_path(st, s->iops_log, log_path, sizeof(log_path), err, sizeof(err))
				 ? NULL
				 : run_record_iops_series(log_path, err, sizeof(err));
	json_t *p = json_pack("{sIsssssIsI}", "step", (json_int_t)(s - st->plan.steps), "phase",
			      s->phase, "device", st->devices[s->device].label, "started_ms",
			      (json_int_t)start_ms, "ended_ms", (json_int_t)run_record_wall_ms());
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
	json_object_set_new(p, "iops_series", series ? series : json_array());
	json_object_set_new(p, "clat_hist", hist_json(st, s));
	if (s->lat_log[0])
		json_object_set_new(p, "lat_log", json_string(s->lat_log));
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

int run_step(struct run_state *st, size_t k, const volatile sig_atomic_t *stop, char *err,
	     size_t errlen)
{
	const struct plan_step *s = &st->plan.steps[k];
	const struct run_device *d = &st->devices[s->device];
	struct ebs_sample before, after;
	struct target t;
	struct iolog logs;
	struct iolog_paths *paths = calloc(1, sizeof(*paths));
	char label[160];
	struct job_stats *js = malloc(sizeof(*js));
	struct steadystate *ss = calloc(1, sizeof(*ss)); /* job_run sets it up */
	if (!js || !paths || !ss) {
		free(js);
		free(paths);
		free(ss);
		return error_set(err, errlen, "out of memory");
	}
	stats_job_init(js);
	loadcurve_ramp(st, k);
	snprintf(label, sizeof(label), "[%zu/%zu] %s %s %s", k + 1, st->plan.count, s->phase,
		 d->label, d->info.dev_path);
	struct job_context ctx = {
		.stop = stop, .label = label, .remaining_after_ns = planned_after(st, k), .ss = ss
	};
	run_record_ebs_sample(d->info.dev_path, &before);
	uint64_t start_ns = clock_now_ns();
	int64_t start_ms = run_record_wall_ms();
	int rc = run_log_path(st, s->iops_log, paths->path[IOLOG_IOPS],
			      sizeof(paths->path[IOLOG_IOPS]), err, errlen);
	if (rc == 0 && s->hist_log[0])
		rc = run_log_path(st, s->hist_log, paths->path[IOLOG_HIST],
				  sizeof(paths->path[IOLOG_HIST]), err, errlen);
	if (rc == 0 && s->lat_log[0]) /* io_latency_log: a row per I/O */
		rc = run_log_path(st, s->lat_log, paths->path[IOLOG_CLAT],
				  sizeof(paths->path[IOLOG_CLAT]), err, errlen);
	paths->lat_per_io = s->lat_log[0] != '\0';
	if (rc == 0)
		rc = target_open(&t, &s->job, err, errlen);
	if (rc == 0) {
		rc = iolog_open(&logs, &s->job, paths, err, errlen);
		if (rc == 0)
			rc = job_run(&s->job, &t, &logs, js, &ctx, err, errlen);
		char log_err[256];
		if (iolog_close(&logs, log_err, sizeof(log_err)) && rc == 0) {
			snprintf(err, errlen, "%s", log_err);
			rc = -1;
		}
		target_close(&t);
	}
	if (rc == 0 && js->error)
		rc = -1; /* err already names the failed I/O */
	run_record_ebs_sample(d->info.dev_path, &after);
	uint64_t idle = idle_before_ns(st, s->device, start_ns, start_ms);
	st->last_end_ns[s->device] = clock_now_ns();
	if (js->runtime_ns) {
		json_t *ebs = run_record_ebs_stats(&before, &after, js->runtime_ns / 1000);
		json_t *p = phase_json(st, s, js, ss, ebs, start_ms, idle);
		/* Stopped mid-way (as far as can be told): a resume runs it again. */
		if (stop && *stop)
			json_object_set_new(p, "cut", json_true());
		json_array_append_new(json_object_get(st->results, RESULTS_KEY_PHASES), p);
	}
	steadystate_free(ss);
	free(ss);
	free(js);
	free(paths);
	return rc;
}
