/* run_exec.c - a run from its request to its exit status: prepare
 * everything that can be checked before the first I/O, read first, run
 * the steps in plan order saving results.json after each, and finish with
 * the analysis, the report and the uploads. */
#include "run/run_exec.h"
#include "run/internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "lib/lib.h"
#include "results/results.h"
#include "run/artifacts.h"
#include "run/run_devices.h"
#include "run/run_record.h"
#include "run/run_resume.h"
#include "run/run_show.h"
#include "run/run_step.h"

/* results.json's "plan": what the run was asked to run. */
static json_t *plan_json(const struct run_state *st)
{
	json_t *phases = json_array();
	for (size_t i = 0; i < st->plan.phase_count; i++)
		json_array_append_new(phases, json_string(st->plan.phases[i]));
	json_t *o = json_pack("{sfsssIsosb}", "time_scale", st->cfg.time_scale, "region",
			      st->cfg.region, "test_size", (json_int_t)plan_test_size(&st->cfg),
			      "phases", phases, "read_only", !st->plan.writes);
	if (st->cfg.quick) /* the default plan's record stays as it was */
		json_object_set_new(o, "name", json_string(PLAN_QUICK));
	return o;
}

/* results.json before the first phase. */
static json_t *results_start(const struct run_state *st)
{
	char when[32];
	json_t *devices = json_array();
	for (size_t i = 0; i < st->device_count; i++)
		json_array_append_new(devices, run_record_device(&st->devices[i]));
	json_t *env = run_record_environment(&st->cfg);
	run_record_iso_utc(when, sizeof(when), run_record_wall_ms());
	json_object_set_new(env, "started", json_string(when));
	return json_pack("{sisosososososo}", RESULTS_KEY_SCHEMA, RESULTS_SCHEMA,
			 RESULTS_KEY_EBSBENCH, run_record_ebsbench(&st->cfg),
			 RESULTS_KEY_ENVIRONMENT, env, RESULTS_KEY_PLAN, plan_json(st),
			 RESULTS_KEY_PRICES,
			 run_record_prices(&st->cfg.prices, st->cfg.prices_overridden),
			 RESULTS_KEY_DEVICES, devices, RESULTS_KEY_PHASES, json_array());
}

/* Everything that can be checked before the first I/O; returns an exit code. */
/* Every upload URL outlives what is left of the plan's estimate (a
 * resume's steps done left out): 0, or -1 naming the first that does not. */
static int check_urls(const struct run_state *st, char *err, size_t errlen)
{
	uint64_t ns = st->plan.total_ns;
	for (size_t k = 0; st->resume.done && k < st->plan.count; k++)
		if (st->resume.done[k])
			ns -= st->plan.steps[k].planned_ns;
	return upload_config_check(&st->cfg.upload, time(NULL), (double)ns / 1e9, err, errlen);
}

static int prepare(struct run_state *st, const struct run_request *a, char *err, size_t errlen)
{
	config_defaults(&st->cfg);
	if (config_load_file(&st->cfg, a->config, err, errlen) ||
	    (a->plan && plan_select(&st->cfg, a->plan, err, errlen)))
		return 2;
	st->out_dir = a->out ? a->out : st->cfg.output_dir;
	/* An image cannot hold its own digest: whoever launched it (the Pod
	 * spec, the appliance's command line) passes it in. */
	const char *digest = getenv("EBSBENCH_IMAGE_DIGEST");
	if (!st->cfg.image_digest[0] && digest && strlen(digest) < sizeof(st->cfg.image_digest))
		snprintf(st->cfg.image_digest, sizeof(st->cfg.image_digest), "%s", digest);
	struct discover_options dopt = { .all_block_devices = st->cfg.device_count > 0,
					 .accept_model = st->cfg.accept_model[0]
								 ? st->cfg.accept_model
								 : NULL };
	if (discover_devices(&dopt, &st->found, err, errlen))
		return 1; /* the machine, not the config: /sys or mountinfo unreadable */
	/* A device the config names that is not there is the config's fault. */
	if (run_devices_resolve(&st->cfg, &st->found, st->devices, &st->device_count, err, errlen))
		return 2;
	if (plan_build(&st->plan, &st->cfg, st->devices, st->device_count, err, errlen))
		return 2;
	/* A URL that expires mid-run loses the results: refuse it now (a
	 * resume, once it knows which steps are left: check_urls). */
	if (!a->resume && check_urls(st, err, errlen))
		return 2;
	if (st->plan.writes &&
	    run_devices_check_writes(&st->cfg, st->devices, st->device_count, err, errlen))
		return 3;
	run_exec_start(st);
	return 0;
}

void run_exec_start(struct run_state *st)
{
	st->results = results_start(st);
	upload_init(&st->up, &st->cfg.upload, st->out_dir, st->results, stderr);
	st->up.content_type = artifacts_content_type;
}

/* The phase's IOPS log (if the phase got as far as writing one) and
 * results.json so far (if it could be saved): an eviction loses at most
 * the phase running. */
static void upload_phase(struct run_state *st, size_t k, bool saved)
{
	const struct plan_step *s = &st->plan.steps[k];
	char path[IOLOG_PATH_MAX], err[256];
	if (!run_log_path(st, s->iops_log, path, sizeof(path), err, sizeof(err)) &&
	    !access(path, F_OK))
		upload_send(&st->up, s->iops_log, UPLOAD_MIDRUN);
	const char *const kept[] = { s->hist_log, s->lat_log }; /* "" when not kept */
	for (size_t i = 0; i < ARRAY_SIZE(kept); i++) {
		if (kept[i][0] &&
		    !run_log_path(st, kept[i], path, sizeof(path), err, sizeof(err)) &&
		    !access(path, F_OK))
			upload_send(&st->up, kept[i], UPLOAD_MIDRUN);
	}
	if (saved)
		upload_send(&st->up, RESULTS_FILE, UPLOAD_MIDRUN);
}

/* output_dir, made before the first I/O: a directory the run cannot
 * write is a config (or --out) error, found before any device is touched. */
static int make_out_dir(const char *dir, char *err, size_t errlen)
{
	struct stat sb;
	if (mkdir(dir, 0755) && errno != EEXIST)
		return error_set(err, errlen, "cannot create output_dir %s: %s", dir,
				 strerror(errno));
	if (stat(dir, &sb) || !S_ISDIR(sb.st_mode) || access(dir, W_OK))
		return error_set(err, errlen, "output_dir %s is not a writable directory", dir);
	return 0;
}

/* The second look before the first write (run_devices_read_first):
 * returns 0 to go on, 3 when a device holds data.  A signal that ends the
 * reading goes on to save results with no phase run. */
static int read_first(struct run_state *st, const volatile sig_atomic_t *stop)
{
	char err[1024];
	if (!st->plan.writes ||
	    !run_devices_read_first(&st->plan, st->devices, st->device_count,
				    json_object_get(st->results, RESULTS_KEY_DEVICES), stop, err,
				    sizeof(err)))
		return 0;
	fprintf(stderr, "ebsbench run: %s\n", err);
	return stop && *stop ? 0 : 3;
}

/* results.json names the step about to run, saved (not uploaded) before
 * its first I/O: after a SIGKILL or a lost node, a resume knows which step
 * was cut and when it began.  Removed again before the step's own save. */
static void mark_running(struct run_state *st, size_t k)
{
	char err[512];
	json_object_set_new(st->results, "running",
			    json_pack("{sIsI}", "step", (json_int_t)k, "started_ms",
				      (json_int_t)run_record_wall_ms()));
	if (results_save(st->results, st->out_dir, err, sizeof(err)))
		fprintf(stderr, "ebsbench run: %s\n", err);
	else if (st->cfg.upload.resume_get) /* a lost pod's resume reads S3's copy */
		upload_send(&st->up, RESULTS_FILE, UPLOAD_MIDRUN);
}

/* --resume: the stopped run's results.json in the output directory (with
 * --resume=auto fetched from S3 when not there), read against this run and
 * merged into its results.  RUN_RESUME_LOCAL resumed; with auto
 * RUN_RESUME_NONE (start afresh) or _FINISHED (nothing to do); or -1 with
 * one line. */
static int resume(struct run_state *st, bool auto_, char *err, size_t errlen)
{
	char why[512];
	if (auto_) {
		int found = run_resume_fetch(&st->cfg.upload, st->out_dir, why, sizeof(why), err,
					     errlen);
		if (why[0])
			fprintf(stderr, "ebsbench run: %s\n", why);
		if (found != RUN_RESUME_LOCAL)
			return found;
	}
	json_t *prev = results_load(st->out_dir, why, sizeof(why));
	if (prev && auto_ && run_resume_finished(prev)) {
		fprintf(stderr, "ebsbench run: the run in %s finished: nothing to resume\n",
			st->out_dir);
		json_decref(prev);
		return RUN_RESUME_FINISHED;
	}
	if (!prev)
		return error_set(err, errlen, "no stopped run to continue: %s", why);
	int rc = run_resume_read(prev, st->results, &st->plan, st->out_dir, run_record_wall_ms(),
				 &st->resume, why, sizeof(why));
	if (rc)
		error_set(err, errlen, "%s/%s: %s", st->out_dir, RESULTS_FILE, why);
	else {
		char line[400];
		run_resume_merge(st->results, prev, &st->resume, &st->plan);
		run_resume_describe(&st->resume, &st->plan, st->results, line, sizeof(line));
		fprintf(stderr, "ebsbench run: %s\n", line);
	}
	json_decref(prev);
	return rc ? -1 : RUN_RESUME_LOCAL;
}

/* Steps k..k+n-1: one step (n 1), or a together group at once, less
 * those a resume found done.  0, or -1 with err naming the device(s). */
static int run_steps(struct run_state *st, size_t k, size_t n, const volatile sig_atomic_t *stop,
		     char *err, size_t errlen)
{
	bool skip[CONFIG_MAX_DEVICES];
	if (n == 1)
		return run_step(st, k, stop, err, errlen);
	for (size_t i = 0; i < n; i++)
		skip[i] = st->resume.done && st->resume.done[k + i];
	return run_steps_together(st, k, n, skip, stop, err, errlen);
}

static int execute(struct run_state *st, const volatile sig_atomic_t *stop)
{
	char err[1024];
	int failed = 0;
	for (size_t k = 0, n; k < st->plan.count && !(stop && *stop); k += n) {
		const struct plan_step *s = &st->plan.steps[k];
		n = s->together ? s->together : 1; /* a group: plan.h */
		bool done = true;
		for (size_t i = 0; i < n; i++)
			done = done && st->resume.done && st->resume.done[k + i];
		if (done)
			continue; /* finished whole before the stop */
		err[0] = '\0';
		mark_running(st, k);
		int rc = run_steps(st, k, n, stop, err, sizeof(err));
		json_object_del(st->results, "running");
		if (rc) {
			fprintf(stderr,
				"ebsbench run: phase %s on %s failed (the others still run): %s\n",
				s->phase,
				n > 1 ? "the devices at once" : st->devices[s->device].label, err);
			failed = 1;
		}
		/* Saved after every phase: an eviction loses at most one. */
		bool saved = !results_save(st->results, st->out_dir, err, sizeof(err));
		if (!saved) {
			fprintf(stderr, "ebsbench run: %s\n", err);
			failed = 1;
		}
		for (size_t i = 0; i < n; i++)
			upload_phase(st, k + i, saved && i + 1 == n);
	}
	return failed;
}

/* Returns 0, 1 (a file could not be written) or 4 (an upload failed). */
static int finish(struct run_state *st, const struct run_reporter *report, bool stopped)
{
	char err[512], when[32];
	int rc = 0;
	json_t *env = json_object_get(st->results, RESULTS_KEY_ENVIRONMENT);
	run_record_iso_utc(when, sizeof(when), run_record_wall_ms());
	json_object_set_new(env, "finished", json_string(when));
	json_object_set_new(env, "stopped_early", json_boolean(stopped));
	analysis_build(st->results, &st->cfg.prices);
	if (results_save(st->results, st->out_dir, err, sizeof(err)) ||
	    (report->render && report->render(&st->results, 1, st->out_dir, err, sizeof(err)))) {
		fprintf(stderr, "ebsbench run: %s\n", err);
		rc = 1;
	}
	/* First, so slow or failing uploads never hide what was measured. */
	if (report->print_tldr)
		report->print_tldr(stderr, &st->results, 1);
	const char *report_files[ARTIFACT_REPORT_COUNT];
	size_t report_count = plan_report_files(&st->plan, report_files);
	if (upload_finish(&st->up, report_files, report_count) && !rc)
		rc = 4;
	fprintf(stderr, "ebsbench run: results in %s/\n", st->out_dir);
	return rc;
}

int run_exec_steps(struct run_state *st, const struct run_reporter *report,
		   const volatile sig_atomic_t *stop)
{
	run_devices_probe(st->devices, st->device_count, json_object_get(st->results, "devices"),
			  stop);
	int code = read_first(st, stop);
	if (code)
		return code;
	code = execute(st, stop);
	bool stopped = stop && *stop;
	int end = finish(st, report, stopped);
	/* A run not whole says so first: its resume reports the rest. */
	if (stopped)
		return EXIT_STOPPED;
	/* A failed phase says more than a failed upload. */
	return end == 1 || (end && !code) ? end : code;
}

void run_exec_free(struct run_state *st)
{
	run_resume_free(&st->resume);
	upload_free(&st->up);
	json_decref(st->results);
	plan_free(&st->plan);
	discover_list_free(&st->found);
	config_free(&st->cfg);
}

int run_execute(const struct run_request *req, const struct run_reporter *report,
		const volatile sig_atomic_t *stop)
{
	char err[512] = "";
	struct run_state *st = calloc(1, sizeof(*st));
	if (!st)
		return 1;
	int code = prepare(st, req, err, sizeof(err));
	if (code)
		fprintf(stderr, "ebsbench run: %s\n", err);
	else if (req->dry_run) {
		run_show_notes(st);
		run_show_plan(stdout, st);
	} else if (make_out_dir(st->out_dir, err, sizeof(err))) {
		fprintf(stderr, "ebsbench run: %s\n", err);
		code = 2;
	} else {
		int found = req->resume ? resume(st, req->resume_auto, err, sizeof(err))
					: RUN_RESUME_NONE;
		if (found < 0) {
			fprintf(stderr, "ebsbench run --resume: %s\n", err);
			code = 2;
		} else if (found != RUN_RESUME_FINISHED && check_urls(st, err, sizeof(err))) {
			fprintf(stderr, "ebsbench run: %s\n", err);
			code = 2;
		} else if (found != RUN_RESUME_FINISHED) {
			run_show_notes(st);
			code = run_exec_steps(st, report, stop);
		}
	}
	run_exec_free(st);
	free(st);
	return code;
}
