/* cmd_run.c - config -> devices -> plan -> steps -> results.json -> report. */
#include "cli/cli.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "lib/lib.h"
#include "run/run.h"
#include "job/job.h"
#include "output/output.h"
#include "report/report.h"
#include "results/results.h"
#include "upload/upload.h"

struct run_state {
	struct run_config cfg;
	struct discover_list found;
	struct run_device devices[CONFIG_MAX_DEVICES];
	size_t device_count;
	struct plan plan;
	json_t *results;
	const char *out_dir;
	uint64_t last_end_ns[CONFIG_MAX_DEVICES]; /* monotonic; 0: no phase yet */
	struct uploader up;
};

static const char usage[] =
	"usage: ebsbench run --config FILE|- [--out DIR] [--dry-run] [--plan sweep]\n"
	"Runs the EKS gp2/gp3 benchmark sequence on the configured (or discovered) EBS volumes,\n"
	"one device at a time, and writes results.json, fio-format IOPS logs, summary.md and\n"
	"SVG charts to DIR.  Before its first write it reads all it will overwrite, and writes\n"
	"only over zeros and ebsbench's own data.  --dry-run prints the plan (and how much is\n"
	"read first) and touches no device.\n"
	"--plan sweep runs the dd/hdparm block-size sweep (O_DIRECT writes of 16k..1M, then\n"
	"2M reads, one I/O at a time) in place of the config's phases.\n"
	"With an \"upload\" block in the config, each file also goes to S3 as soon as it is\n"
	"written (see README.md, Upload).\n"
	"Exit: 0 ok (a SIGTERM or SIGINT that ended it early included), 1 a phase failed (the\n"
	"rest still ran), a result file could not be written or the devices could not be\n"
	"listed, 2 usage or config, before any I/O (a device that is not there, none to test,\n"
	"an output_dir that cannot be made, expiring URLs included), 3 refused to write to a\n"
	"device, 4 an upload failed (every file is kept in DIR); 1 wins over 4.\n";

static int64_t wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Where a log of step s goes: its artifact name in the output dir. */
static int log_path_of(const struct run_state *st, const char *log, char *path, size_t cap,
		       char *err, size_t errlen)
{
	int n = snprintf(path, cap, "%s/%s", st->out_dir, log);
	if (n >= 0 && (size_t)n < cap)
		return 0;
	return error_set(err, errlen, "output_dir %s is too long for a log path", st->out_dir);
}

/* Where step s's IOPS log goes. */
static int iops_log_path(const struct run_state *st, const struct plan_step *s, char *path,
			 size_t cap, char *err, size_t errlen)
{
	return log_path_of(st, s->iops_log, path, cap, err, errlen);
}

/* Step s's histogram log, read back into results.json's compact form;
 * JSON null for a step that keeps none (or whose log is unreadable). */
static json_t *hist_json(const struct run_state *st, const struct plan_step *s)
{
	char path[IOLOG_PATH_MAX], err[256];
	json_t *hist = NULL;
	if (s->hist_log[0] && !log_path_of(st, s->hist_log, path, sizeof(path), err, sizeof(err)))
		hist = run_hist_read(path, s->hist_log, s->job.log_hist_msec,
				     s->job.log_hist_coarseness, err, sizeof(err));
	if (s->hist_log[0] && !hist)
		fprintf(stderr, "ebsbench run: %s\n", err);
	return hist ? hist : json_null();
}

static json_t *phase_json(const struct run_state *st, const struct plan_step *s,
			  const struct job_stats *js, json_t *ebs, int64_t start_ms,
			  uint64_t idle_ns)
{
	char log_path[IOLOG_PATH_MAX], err[256];
	const struct job_options *o = &s->job;
	json_t *series = iops_log_path(st, s, log_path, sizeof(log_path), err, sizeof(err))
				 ? NULL
				 : run_record_iops_series(log_path, err, sizeof(err));
	json_t *p =
		json_pack("{sssssIsI}", "phase", s->phase, "device", st->devices[s->device].label,
			  "started_ms", (json_int_t)start_ms, "ended_ms", (json_int_t)wall_ms());
	json_object_set_new(p, "idle_before_s",
			    idle_ns ? json_real((double)idle_ns / 1e9) : json_null());
	json_object_set_new(p, "iodepth", json_integer(o->iodepth));
	json_object_set_new(p, "bs", json_integer(o->bs));
	json_object_set_new(p, "rw", json_string(options_rw_name(o->rw)));
	json_object_set_new(p, "runtime_s", json_real((double)o->runtime_ns / 1e9));
	json_object_set_new(p, "window_ms", json_integer(o->log_avg_msec));
	json_object_set_new(p, "job", output_job_json(o, js, false));
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

static uint64_t planned_after(const struct plan *p, size_t k)
{
	uint64_t sum = 0;
	for (size_t i = k + 1; i < p->count; i++)
		sum += p->steps[i].planned_ns;
	return sum;
}

/* A loadcurve step's lead-in, from the idle gap before it (plan.h). */
static void loadcurve_ramp(struct run_state *st, size_t k)
{
	struct plan_step *s = &st->plan.steps[k];
	uint64_t last = st->last_end_ns[s->device];
	if (s->load.percent > 0) {
		uint64_t idle = last ? clock_now_ns() - last : 0;
		s->job.ramp_ns = plan_load_ramp_ns(s, idle);
		s->load.ramp_s = (double)s->job.ramp_ns / 1e9;
		if (s->load.bursting && s->load.above_sustained)
			fprintf(stderr,
				"ebsbench run: %s loadcurve %.0f %%: lead-in %.2f s for a gap of "
				"%.2f s\n",
				st->devices[s->device].label, s->load.percent, s->load.ramp_s,
				(double)idle / 1e9);
	}
}

/* One phase on one device: EBS statistics around a fio job. */
static int run_step(struct run_state *st, size_t k, const volatile sig_atomic_t *stop, char *err,
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
	if (!js || !paths) {
		free(js);
		free(paths);
		return error_set(err, errlen, "out of memory");
	}
	stats_job_init(js);
	loadcurve_ramp(st, k);
	snprintf(label, sizeof(label), "[%zu/%zu] %s %s %s", k + 1, st->plan.count, s->phase,
		 d->label, d->info.dev_path);
	struct job_context ctx = { .stop = stop,
				   .label = label,
				   .remaining_after_ns = planned_after(&st->plan, k) };
	run_record_ebs_sample(d->info.dev_path, &before);
	uint64_t start_ns = clock_now_ns();
	int64_t start_ms = wall_ms();
	int rc = iops_log_path(st, s, paths->path[IOLOG_IOPS], sizeof(paths->path[IOLOG_IOPS]), err,
			       errlen);
	if (rc == 0 && s->hist_log[0])
		rc = log_path_of(st, s->hist_log, paths->path[IOLOG_HIST],
				 sizeof(paths->path[IOLOG_HIST]), err, errlen);
	if (rc == 0 && s->lat_log[0]) /* io_latency_log: a row per I/O */
		rc = log_path_of(st, s->lat_log, paths->path[IOLOG_CLAT],
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
	uint64_t idle = st->last_end_ns[s->device] ? start_ns - st->last_end_ns[s->device] : 0;
	st->last_end_ns[s->device] = clock_now_ns();
	if (js->runtime_ns) {
		json_t *ebs = run_record_ebs_stats(&before, &after, js->runtime_ns / 1000);
		json_array_append_new(json_object_get(st->results, "phases"),
				      phase_json(st, s, js, ebs, start_ms, idle));
	}
	free(js);
	free(paths);
	return rc;
}

static json_t *plan_json(const struct run_state *st)
{
	json_t *phases = json_array();
	for (size_t i = 0; i < st->plan.phase_count; i++)
		json_array_append_new(phases, json_string(st->plan.phases[i]));
	return json_pack("{sfsssIsosb}", "time_scale", st->cfg.time_scale, "region", st->cfg.region,
			 "test_size", (json_int_t)st->cfg.test_size, "phases", phases, "read_only",
			 !st->plan.writes);
}

static json_t *results_start(const struct run_state *st)
{
	char when[32];
	json_t *devices = json_array();
	for (size_t i = 0; i < st->device_count; i++)
		json_array_append_new(devices, run_record_device(&st->devices[i]));
	json_t *env = run_record_environment(&st->cfg);
	run_record_iso_utc(when, sizeof(when), wall_ms());
	json_object_set_new(env, "started", json_string(when));
	return json_pack("{sisosososososo}", "schema", RESULTS_SCHEMA, "ebsbench",
			 run_record_ebsbench(&st->cfg), "environment", env, "plan", plan_json(st),
			 "prices", run_record_prices(&st->cfg.prices, st->cfg.prices_overridden),
			 "devices", devices, "phases", json_array());
}

/* What the run reads before its first write, as --dry-run shows it: a
 * line each on stderr, and the plan's "read_first". */
static json_t *read_first_json(const struct run_state *st)
{
	json_t *reads = json_array();
	for (size_t i = 0; i < st->device_count; i++) {
		const struct plan_read_first *r = &st->plan.read_first[i];
		const struct run_device *d = &st->devices[i];
		if (!r->length)
			continue;
		fprintf(stderr,
			"ebsbench run: before its first write the run reads %.1f MiB of %s (%s) "
			"from byte %" PRIu64 ", and writes only if they hold zeros or ebsbench's "
			"own data\n",
			(double)r->length / 1048576.0, d->info.dev_path, d->label, r->offset);
		json_array_append_new(reads,
				      json_pack("{sssssIsIsf}", "device", d->label, "path",
						d->info.dev_path, "offset", (json_int_t)r->offset,
						"bytes", (json_int_t)r->length, "planned_s",
						(double)r->planned_ns / 1e9));
	}
	return reads;
}

static void print_plan(FILE *out, const struct run_state *st)
{
	json_t *steps = json_array();
	for (size_t i = 0; i < st->plan.count; i++) {
		const struct plan_step *s = &st->plan.steps[i];
		json_t *opts = json_object();
		for (unsigned g = 0; g < s->job.given_count; g++)
			json_object_set_new(opts, s->job.given[g].name,
					    json_string(s->job.given[g].value));
		json_array_append_new(steps, json_pack("{sssssssfsoss}", "phase", s->phase,
						       "device", st->devices[s->device].label,
						       "path", st->devices[s->device].info.dev_path,
						       "planned_s", (double)s->planned_ns / 1e9,
						       "options", opts, "iops_log", s->iops_log));
		if (s->hist_log[0])
			json_object_set_new(json_array_get(steps, i), "hist_log",
					    json_string(s->hist_log));
		if (s->lat_log[0])
			json_object_set_new(json_array_get(steps, i), "lat_log",
					    json_string(s->lat_log));
		if (s->load.percent > 0)
			json_object_set_new(json_array_get(steps, i), "load",
					    plan_load_json(&s->load, NAN));
	}
	json_t *doc = json_pack("{sOsfsbsoso}", "devices", json_object_get(st->results, "devices"),
				"planned_s", (double)st->plan.total_ns / 1e9, "writes",
				st->plan.writes, "read_first", read_first_json(st), "steps", steps);
	json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	fputc('\n', out);
	json_decref(doc);
}

/* What argv asks for (--plan NAME: another plan than the config's). */
struct run_args {
	const char *config, *out, *plan;
	bool dry;
};

static int parse_args(int argc, char **argv, struct run_args *a)
{
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--config") && i + 1 < argc)
			a->config = argv[++i];
		else if (!strcmp(argv[i], "--plan") && i + 1 < argc)
			a->plan = argv[++i];
		else if (!strcmp(argv[i], "--out") && i + 1 < argc)
			a->out = argv[++i];
		else if (!strcmp(argv[i], "--dry-run"))
			a->dry = true;
		else {
			fprintf(stderr, "ebsbench run: unknown or incomplete argument '%s'\n",
				argv[i]);
			return -1;
		}
	}
	if (!a->config) {
		fprintf(stderr, "ebsbench run: --config FILE is required (- reads stdin)\n");
		return -1;
	}
	return 0;
}

/* Everything that can be checked before the first I/O; returns an exit code. */
static int prepare(struct run_state *st, const struct run_args *a, char *err, size_t errlen)
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
	/* A URL that expires mid-run loses the results: refuse it now. */
	if (upload_config_check(&st->cfg.upload, time(NULL), (double)st->plan.total_ns / 1e9, err,
				errlen))
		return 2;
	if (st->plan.writes &&
	    run_devices_check_writes(&st->cfg, st->devices, st->device_count, err, errlen))
		return 3;
	st->results = results_start(st);
	upload_init(&st->up, &st->cfg.upload, st->out_dir, st->results, stderr);
	st->up.content_type = artifacts_content_type;
	return 0;
}

/* The phase's IOPS log (if the phase got as far as writing one) and
 * results.json so far (if it could be saved): an eviction loses at most
 * the phase running. */
static void upload_phase(struct run_state *st, size_t k, bool saved)
{
	const struct plan_step *s = &st->plan.steps[k];
	char path[IOLOG_PATH_MAX], err[256];
	if (!iops_log_path(st, s, path, sizeof(path), err, sizeof(err)) && !access(path, F_OK))
		upload_send(&st->up, s->iops_log, UPLOAD_MIDRUN);
	const char *const kept[] = { s->hist_log, s->lat_log }; /* "" when not kept */
	for (size_t i = 0; i < ARRAY_SIZE(kept); i++) {
		if (kept[i][0] && !log_path_of(st, kept[i], path, sizeof(path), err, sizeof(err)) &&
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
	if (!st->plan.writes || !run_devices_read_first(&st->plan, st->devices, st->device_count,
							json_object_get(st->results, "devices"),
							stop, err, sizeof(err)))
		return 0;
	fprintf(stderr, "ebsbench run: %s\n", err);
	return stop && *stop ? 0 : 3;
}

static int execute(struct run_state *st, const volatile sig_atomic_t *stop)
{
	char err[512];
	int failed = 0;
	for (size_t k = 0; k < st->plan.count && !(stop && *stop); k++) {
		err[0] = '\0';
		if (run_step(st, k, stop, err, sizeof(err))) {
			const struct plan_step *s = &st->plan.steps[k];
			fprintf(stderr,
				"ebsbench run: phase %s on %s failed (the others still run): %s\n",
				s->phase, st->devices[s->device].label, err);
			failed = 1;
		}
		/* Saved after every phase: an eviction loses at most one. */
		bool saved = !results_save(st->results, st->out_dir, err, sizeof(err));
		if (!saved) {
			fprintf(stderr, "ebsbench run: %s\n", err);
			failed = 1;
		}
		upload_phase(st, k, saved);
	}
	return failed;
}

/* Returns 0, 1 (a file could not be written) or 4 (an upload failed). */
static int finish(struct run_state *st, bool stopped)
{
	char err[512], when[32];
	int rc = 0;
	json_t *env = json_object_get(st->results, "environment");
	run_record_iso_utc(when, sizeof(when), wall_ms());
	json_object_set_new(env, "finished", json_string(when));
	json_object_set_new(env, "stopped_early", json_boolean(stopped));
	analysis_build(st->results, &st->cfg.prices);
	if (results_save(st->results, st->out_dir, err, sizeof(err)) ||
	    report_render(&st->results, 1, st->out_dir, err, sizeof(err))) {
		fprintf(stderr, "ebsbench run: %s\n", err);
		rc = 1;
	}
	/* First, so slow or failing uploads never hide what was measured. */
	report_print_tldr(stderr, &st->results, 1);
	const char *report[ARTIFACT_REPORT_COUNT];
	size_t report_count = plan_report_files(&st->plan, report);
	if (upload_finish(&st->up, report, report_count) && !rc)
		rc = 4;
	fprintf(stderr, "ebsbench run: results in %s/\n", st->out_dir);
	return rc;
}

/* The plan's notes (what it left out), each line as ebsbench run's. */
static void print_notes(const struct run_state *st)
{
	for (const char *line = st->plan.notes; *line;) {
		const char *end = strchr(line, '\n');
		int n = end ? (int)(end - line) : (int)strlen(line);
		fprintf(stderr, "ebsbench run: %.*s\n", n, line);
		line += n + (end != NULL);
	}
}

int cmd_run(int argc, char **argv, const volatile sig_atomic_t *stop)
{
	struct run_args args = { 0 };
	char err[512] = "";
	if (argc == 1 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"))) {
		fputs(usage, stdout);
		return 0;
	}
	if (parse_args(argc, argv, &args))
		return 2;
	struct run_state *st = calloc(1, sizeof(*st));
	if (!st)
		return 1;
	int code = prepare(st, &args, err, sizeof(err));
	if (code)
		fprintf(stderr, "ebsbench run: %s\n", err);
	else if (args.dry) {
		print_notes(st);
		print_plan(stdout, st);
	} else if (make_out_dir(st->out_dir, err, sizeof(err))) {
		fprintf(stderr, "ebsbench run: %s\n", err);
		code = 2;
	} else {
		print_notes(st);
		code = read_first(st, stop);
		if (code == 0) {
			code = execute(st, stop);
			int end = finish(st, stop && *stop);
			/* A failed phase says more than a failed upload. */
			if (end == 1 || (end && !code))
				code = end;
		}
	}
	upload_free(&st->up);
	json_decref(st->results);
	plan_free(&st->plan);
	discover_list_free(&st->found);
	config_free(&st->cfg);
	free(st);
	return code;
}
