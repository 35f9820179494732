/* test_run_exec.c - the run's step loop on the null engine (no device
 * touched): the steps run in plan order, results.json gets one record per
 * step with every field it has, a stop flag set mid-run ends the loop and
 * marks the run stopped early, and a loadcurve step above a bursting
 * volume's sustained rate gets its lead-in from the idle gap before it.
 * A resume (run_resume.h) of a run killed or stopped mid-way runs every
 * step once and states the gap, a together group whole; a foreign or
 * mismatched record is refused with one line. */
#include <jansson.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "check.h"
#include "fixtures/plan_fixture.h"
#include "lib/lib.h"
#include "results/results.h"
#include "run/run.h"
#include "run/run_resume.h"
#include "run/internal.h"

/* The signal flag the stop test's timer sets, as main.c's SIGTERM handler
 * sets the run's. */
static volatile sig_atomic_t stop_flag;

static void on_alarm(int sig)
{
	(void)sig;
	stop_flag = 1;
}

/* Config text -> a started run writing into dir: devices stand-ins for the
 * config's (plan_fixture_devices), the plan built, results.json begun.
 * NULL, saying why on stderr, when the config or plan is refused. */
static struct run_state *start_run(const char *doc, const char *dir)
{
	char err[512] = "";
	struct run_state *st = calloc(1, sizeof(*st));
	json_t *root = json_loads(doc, 0, NULL);
	config_defaults(&st->cfg);
	int rc = root ? config_from_json(&st->cfg, root, err, sizeof(err)) : -1;
	json_decref(root);
	if (rc == 0) {
		st->device_count = plan_fixture_devices(st->devices, &st->cfg);
		rc = plan_build(&st->plan, &st->cfg, st->devices, st->device_count, err,
				sizeof(err));
	}
	if (rc) {
		fprintf(stderr, "start_run: %s\n", err);
		run_exec_free(st);
		free(st);
		return NULL;
	}
	st->out_dir = dir;
	run_exec_start(st);
	return st;
}

static void end_run(struct run_state *st)
{
	run_exec_free(st);
	free(st);
}

/* results.json as the run saved it in dir. */
static json_t *saved_results(const char *dir)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, RESULTS_FILE);
	return json_load_file(path, 0, NULL);
}

static const struct run_reporter no_report = { 0 };

static const char two_devices[] =
	"{\"devices\": [{\"path\": \"/dev/ebsbench-none-a\", \"label\": \"a\"},"
	"              {\"path\": \"/dev/ebsbench-none-b\", \"label\": \"b\"}],"
	" \"ioengine\": \"null\", \"test_size\": \"64M\","
	" \"phases\": [{\"phase\": \"one\", \"rw\": \"read\", \"runtime\": 0.02},"
	"            {\"phase\": \"two\", \"rw\": \"randread\", \"runtime\": 0.02}]}";

/* A phase record's fields, in results.json's order (results.h). */
static const char *const phase_fields[] = {
	"step",	    "phase",	   "device",	"started_ms", "ended_ms",   "idle_before_s",
	"iodepth",  "bs",	   "rw",	"runtime_s",  "window_ms",  "job",
	"iops_log", "iops_series", "clat_hist", "ebs_stats",  "disk_check",
};

static void check_fields(struct checks *checks, json_t *phase)
{
	const char *key;
	json_t *value;
	size_t i = 0;
	CHECK_EQ_U64(json_object_size(phase), ARRAY_SIZE(phase_fields));
	json_object_foreach(phase, key, value)
	{
		if (i < ARRAY_SIZE(phase_fields) && !CHECK(!strcmp(key, phase_fields[i])))
			fprintf(stderr, "  field %zu is %s, want %s\n", i, key, phase_fields[i]);
		i++;
	}
	CHECK(json_is_object(json_object_get(phase, "job")));
	CHECK(json_is_array(json_object_get(phase, "iops_series")));
	CHECK(json_is_null(json_object_get(phase, "clat_hist"))); /* no heatmap phase */
	CHECK(json_is_object(json_object_get(phase, "ebs_stats")));
	CHECK(json_integer_value(json_object_get(phase, "started_ms")) <=
	      json_integer_value(json_object_get(phase, "ended_ms")));
}

/* Two phases on two devices: one/a, one/b, two/a, two/b, run in that
 * order, each recorded once with all its fields and its IOPS log written;
 * idle_before_s null on a device's first phase only. */
static void test_steps_in_plan_order(struct checks *checks)
{
	static const char *const want[][2] = {
		{ "one", "a" }, { "one", "b" }, { "two", "a" }, { "two", "b" }
	};
	char dir[64];
	if (!CHECK(check_temp_dir(dir, sizeof(dir), "run-exec")))
		return;
	struct run_state *st = start_run(two_devices, dir);
	if (!CHECK(st != NULL))
		return;
	CHECK_EQ_U64(st->plan.count, ARRAY_SIZE(want));
	CHECK_EQ_U64(run_exec_steps(st, &no_report, NULL), 0);
	json_t *results = saved_results(dir);
	json_t *phases = json_object_get(results, "phases");
	CHECK_EQ_U64(json_array_size(phases), ARRAY_SIZE(want));
	int64_t last_end = 0;
	for (size_t i = 0; i < json_array_size(phases) && i < ARRAY_SIZE(want); i++) {
		json_t *p = json_array_get(phases, i);
		CHECK_EQ_U64(json_integer_value(json_object_get(p, "step")), i);
		const char *phase = json_string_value(json_object_get(p, "phase"));
		const char *device = json_string_value(json_object_get(p, "device"));
		if (!CHECK(phase && device && !strcmp(phase, want[i][0]) &&
			   !strcmp(device, want[i][1])))
			fprintf(stderr, "  phase %zu is %s on %s, want %s on %s\n", i,
				phase ? phase : "?", device ? device : "?", want[i][0], want[i][1]);
		check_fields(checks, p);
		CHECK(json_integer_value(json_object_get(p, "started_ms")) >= last_end);
		last_end = json_integer_value(json_object_get(p, "ended_ms"));
		CHECK(json_is_null(json_object_get(p, "idle_before_s")) == (i < 2));
		char log[512];
		snprintf(log, sizeof(log), "%s/%s_%s_iops.1.log", dir, want[i][1], want[i][0]);
		CHECK(!strcmp(json_string_value(json_object_get(p, "iops_log")),
			      log + strlen(dir) + 1));
		CHECK(access(log, F_OK) == 0);
	}
	json_t *env = json_object_get(results, "environment");
	CHECK(json_is_false(json_object_get(env, "stopped_early")));
	CHECK(json_is_string(json_object_get(env, "finished")));
	json_decref(results);
	end_run(st);
	check_remove_tree(dir);
}

/* A short step, then two 5-second ones, stopped 1 s in: the loop ends in
 * the second, which is still recorded, the third never runs, and the run
 * says it stopped early.  The margins are wide (the first step ends ~0.95 s
 * before the stop) so a loaded machine cannot move the stop into another
 * step. */
static void test_stop_ends_the_loop(struct checks *checks)
{
	static const char doc[] =
		"{\"devices\": [{\"path\": \"/dev/ebsbench-none-a\", \"label\": \"a\"}],"
		" \"ioengine\": \"null\", \"test_size\": \"64M\","
		" \"phases\": [{\"phase\": \"one\", \"rw\": \"read\", \"runtime\": 0.05},"
		"            {\"phase\": \"two\", \"rw\": \"read\", \"runtime\": 5},"
		"            {\"phase\": \"three\", \"rw\": \"read\", \"runtime\": 5}]}";
	char dir[64];
	if (!CHECK(check_temp_dir(dir, sizeof(dir), "run-stop")))
		return;
	struct run_state *st = start_run(doc, dir);
	if (!CHECK(st != NULL))
		return;
	struct sigaction sa = { .sa_handler = on_alarm }, old;
	struct itimerval in_1s = { .it_value = { .tv_sec = 1 } }, off = { 0 };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, &old);
	stop_flag = 0;
	setitimer(ITIMER_REAL, &in_1s, NULL);
	uint64_t start = clock_now_ns();
	/* A stop is no failure, but the run is not whole: EXIT_STOPPED. */
	CHECK_EQ_U64(run_exec_steps(st, &no_report, &stop_flag), EXIT_STOPPED);
	uint64_t took = clock_now_ns() - start;
	setitimer(ITIMER_REAL, &off, NULL);
	sigaction(SIGALRM, &old, NULL);
	CHECK(stop_flag);
	CHECK(took < 4000000000ull); /* not the 10 s planned */
	json_t *results = saved_results(dir);
	json_t *phases = json_object_get(results, "phases");
	CHECK_EQ_U64(json_array_size(phases), 2);
	CHECK(!strcmp(json_string_value(json_object_get(json_array_get(phases, 1), "phase")),
		      "two"));
	/* Cut mid-way: a resume drops the record and runs it again. */
	CHECK(json_is_true(json_object_get(json_array_get(phases, 1), "cut")));
	CHECK(!json_object_get(json_array_get(phases, 0), "cut"));
	CHECK(!json_object_get(results, "running"));
	json_t *env = json_object_get(results, "environment");
	CHECK(json_is_true(json_object_get(env, "stopped_early")));
	json_decref(results);
	end_run(st);
	check_remove_tree(dir);
}

/* A loadcurve step at 110 % of a bursting volume's 1,000 IOPS, 20 ms
 * after the device's last phase ended: its lead-in spends what the gap
 * refilled at the 100 IOPS surplus, 10 x the gap, and results.json's
 * "load" says how long it was. */
static void test_loadcurve_ramp_applies(struct checks *checks)
{
	static const char doc[] =
		"{\"devices\": [{\"path\": \"/dev/ebsbench-none-a\", \"label\": \"a\","
		"               \"iops\": 1000}],"
		" \"ioengine\": \"null\", \"test_size\": \"64M\","
		" \"phases\": [{\"phase\": \"loadcurve\", \"loads\": [110], \"runtime\": 0.05}]}";
	char dir[64];
	if (!CHECK(check_temp_dir(dir, sizeof(dir), "run-ramp")))
		return;
	struct run_state *st = start_run(doc, dir);
	if (!CHECK(st != NULL))
		return;
	if (!CHECK_EQ_U64(st->plan.count, 1)) { /* no sustained rate: no steps */
		end_run(st);
		check_remove_tree(dir);
		return;
	}
	struct plan_step *s = &st->plan.steps[0];
	CHECK_EQ_U64(s->job.ramp_ns, 0); /* the plan leaves it to the run */
	s->load = (struct plan_load){ .percent = 110,
				      .offered_iops = 1100,
				      .sustained_iops = 1000,
				      .sustained_from = "the test's",
				      .above_sustained = true,
				      .bursting = true };
	st->last_end_ns[0] = clock_now_ns() - 20000000ull;
	CHECK_EQ_U64(run_exec_steps(st, &no_report, NULL), 0);
	CHECK(s->job.ramp_ns >= 200000000ull);
	json_t *results = saved_results(dir);
	json_t *phase = json_array_get(json_object_get(results, "phases"), 0);
	json_t *load = json_object_get(phase, "load");
	double ramp_s = json_real_value(json_object_get(load, "ramp_s"));
	double idle_s = json_real_value(json_object_get(phase, "idle_before_s"));
	CHECK(idle_s >= 0.02);
	CHECK(ramp_s >= 0.2); /* the gap and more: how much more is the machine's load */
	CHECK_NEAR(ramp_s, 10 * idle_s, 0.05);
	CHECK_NEAR(ramp_s, (double)s->job.ramp_ns / 1e9, 1e-6);
	json_decref(results);
	end_run(st);
	check_remove_tree(dir);
}

static const char three_steps[] =
	"{\"devices\": [{\"path\": \"/dev/ebsbench-none-a\", \"label\": \"a\"}],"
	" \"ioengine\": \"null\", \"test_size\": \"64M\","
	" \"phases\": [{\"phase\": \"one\", \"rw\": \"read\", \"runtime\": 0.02},"
	"            {\"phase\": \"two\", \"rw\": \"read\", \"runtime\": 0.02},"
	"            {\"phase\": \"three\", \"rw\": \"read\", \"runtime\": 0.02}]}";

/* A run of doc in dir, whole, its results.json then cut back to what a
 * SIGKILL in step `running` (0-based) leaves: the steps before it, and
 * "running" naming it, begun as the step before it ended.  NULL on
 * failure. */
static json_t *killed_run(const char *doc, const char *dir, size_t running)
{
	struct run_state *st = start_run(doc, dir);
	if (!st || run_exec_steps(st, &no_report, NULL)) {
		if (st)
			end_run(st);
		return NULL;
	}
	end_run(st);
	json_t *prev = saved_results(dir);
	json_t *phases = json_object_get(prev, "phases");
	while (json_array_size(phases) > running)
		json_array_remove(phases, running);
	json_t *before = json_array_get(phases, running - 1);
	json_object_set_new(prev, "running",
			    json_pack("{sisO}", "step", (int)running, "started_ms",
				      json_object_get(before, "ended_ms")));
	json_object_del(prev, "analysis");
	json_object_del(json_object_get(prev, "environment"), "finished");
	json_object_del(json_object_get(prev, "environment"), "stopped_early");
	return prev;
}

/* The resume's own steps of run_execute (its static resume()): read prev
 * against a fresh start of doc, merge, run what is left; line (NULL: not
 * kept) gets the line resume() prints.  Returns run_resume_read's result;
 * err says why. */
static int resume_run(const char *doc, const char *dir, const json_t *prev, char *line,
		      size_t linelen, char *err, size_t errlen)
{
	struct run_state *st = start_run(doc, dir);
	if (!st)
		return error_set(err, errlen, "the config");
	int rc = run_resume_read(prev, st->results, &st->plan, dir, run_record_wall_ms(),
				 &st->resume, err, errlen);
	if (rc == 0) {
		if (line)
			run_resume_describe(&st->resume, &st->plan, st->results, line, linelen);
		run_resume_merge(st->results, prev, &st->resume, &st->plan);
		rc = run_exec_steps(st, &no_report, NULL) ? error_set(err, errlen, "the steps") : 0;
	}
	end_run(st);
	return rc;
}

/* Killed in the second of three steps, resumed a second later: every step once,
 * in plan order, the first one's record kept as it was, the gap in
 * "resumes" with the cut step, the device's idle time before the step run
 * again counting the gap, and no "running" left. */
static void test_resume_after_kill(struct checks *checks)
{
	char dir[64], err[512] = "";
	if (!CHECK(check_temp_dir(dir, sizeof(dir), "run-resume")))
		return;
	json_t *prev = killed_run(three_steps, dir, 1);
	sleep(1); /* the gap */
	if (!CHECK(prev != NULL))
		return;
	json_t *first = json_deep_copy(json_array_get(json_object_get(prev, "phases"), 0));
	if (!CHECK(resume_run(three_steps, dir, prev, NULL, 0, err, sizeof(err)) == 0))
		fprintf(stderr, "  %s\n", err);
	json_t *results = saved_results(dir);
	json_t *phases = json_object_get(results, "phases");
	CHECK_EQ_U64(json_array_size(phases), 3);
	for (size_t i = 0; i < json_array_size(phases); i++)
		CHECK_EQ_U64(json_integer_value(json_object_get(json_array_get(phases, i), "step")),
			     i);
	CHECK(json_equal(json_array_get(phases, 0), first));
	double idle =
		json_number_value(json_object_get(json_array_get(phases, 1), "idle_before_s"));
	CHECK(idle >= 0.95); /* the gap, over which the ledger refills */
	json_t *r = json_array_get(json_object_get(results, "resumes"), 0);
	CHECK_EQ_U64(json_array_size(json_object_get(results, "resumes")), 1);
	CHECK(json_number_value(json_object_get(r, "gap_s")) >= 0.95);
	CHECK_EQ_U64(json_integer_value(json_object_get(r, "steps_done")), 1);
	CHECK_EQ_U64(json_integer_value(json_object_get(r, "steps")), 3);
	CHECK(results_str_is(json_object_get(json_object_get(r, "cut"), "phase"), "two"));
	CHECK(!json_object_get(results, "running"));
	CHECK(json_is_false(RESULTS_GET(results, "environment", "stopped_early")));
	json_decref(results);
	json_decref(first);
	json_decref(prev);
	check_remove_tree(dir);
}

/* What a resume refuses, each with one line naming it: another plan,
 * another device, a phase of another step, a record without step numbers
 * (an older ebsbench's), a step twice, a finished run, a foreign file. */
static void test_resume_refusals(struct checks *checks)
{
	static const struct {
		const char *filter_what, *want;
	} cases[] = {
		{ "time_scale",
		  "the plan differs from the stopped run's: 'time_scale' was 2.0, now 1.0" },
		{ "size", "device 1 (a) differs from the stopped run's: 'size_bytes' was 1, now " },
		{ "step", "phase 1 of results.json names no plan step (written by an older "
			  "ebsbench): it cannot be resumed" },
		{ "other",
		  "phase 1 of results.json (one on a) is not step 2 of this plan (two on a)" },
		{ "twice", "results.json records step 1 twice" },
		{ "finished", "the run finished: nothing to resume" },
		{ "running", "results.json's running step is not one of this plan's" },
		{ "foreign", "not an ebsbench results file (no \"schema\" from 1 to 4)" },
	};
	char dir[64];
	if (!CHECK(check_temp_dir(dir, sizeof(dir), "run-refuse")))
		return;
	json_t *killed = killed_run(three_steps, dir, 1);
	if (!CHECK(killed != NULL))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *what = cases[i].filter_what;
		json_t *prev = json_deep_copy(killed);
		json_t *p0 = json_array_get(json_object_get(prev, "phases"), 0);
		if (!strcmp(what, "time_scale"))
			json_object_set_new(json_object_get(prev, "plan"), "time_scale",
					    json_real(2));
		else if (!strcmp(what, "size"))
			json_object_set_new(json_array_get(json_object_get(prev, "devices"), 0),
					    "size_bytes", json_integer(1));
		else if (!strcmp(what, "step"))
			json_object_del(p0, "step");
		else if (!strcmp(what, "other"))
			json_object_set_new(p0, "step", json_integer(1));
		else if (!strcmp(what, "twice"))
			json_array_append(json_object_get(prev, "phases"), p0);
		else if (!strcmp(what, "finished"))
			json_object_set_new(json_object_get(prev, "environment"), "finished",
					    json_string("2026-01-01T00:00:00Z"));
		else if (!strcmp(what, "running"))
			json_object_set_new(json_object_get(prev, "running"), "step",
					    json_integer(3));
		else if (!strcmp(what, "foreign"))
			json_object_del(prev, "schema");
		char err[512] = "";
		CHECK(resume_run(three_steps, dir, prev, NULL, 0, err, sizeof(err)) == -1);
		if (!CHECK(!strncmp(err, cases[i].want, strlen(cases[i].want))))
			fprintf(stderr, "  %s: %s\n  want %s\n", what, err, cases[i].want);
		json_decref(prev);
	}
	json_decref(killed);
	check_remove_tree(dir);
}

/* Stopped by a signal (SIGTERM) in its second step, whose record says it
 * was cut, then resumed: the cut record dropped, the step run again, every
 * step once. */
static void test_resume_after_stop(struct checks *checks)
{
	char dir[64], err[512] = "";
	if (!CHECK(check_temp_dir(dir, sizeof(dir), "run-resume-stop")))
		return;
	json_t *prev = killed_run(three_steps, dir, 2);
	if (!CHECK(prev != NULL))
		return;
	json_object_del(prev, "running");
	json_object_set_new(json_array_get(json_object_get(prev, "phases"), 1), "cut", json_true());
	json_object_set_new(json_object_get(prev, "environment"), "stopped_early", json_true());
	json_object_set_new(json_object_get(prev, "environment"), "finished",
			    json_string("2026-01-01T00:00:00Z"));
	CHECK(resume_run(three_steps, dir, prev, NULL, 0, err, sizeof(err)) == 0);
	json_t *results = saved_results(dir);
	json_t *phases = json_object_get(results, "phases");
	CHECK_EQ_U64(json_array_size(phases), 3);
	for (size_t i = 0; i < json_array_size(phases); i++) {
		json_t *p = json_array_get(phases, i);
		CHECK_EQ_U64(json_integer_value(json_object_get(p, "step")), i);
		CHECK(!json_object_get(p, "cut"));
	}
	json_t *r = json_array_get(json_object_get(results, "resumes"), 0);
	CHECK_EQ_U64(json_integer_value(json_object_get(json_object_get(r, "cut"), "step")), 1);
	json_decref(results);
	json_decref(prev);
	check_remove_tree(dir);
}

static const char together_group[] =
	"{\"devices\": [{\"path\": \"/dev/ebsbench-none-a\", \"label\": \"a\"},"
	"              {\"path\": \"/dev/ebsbench-none-b\", \"label\": \"b\"}],"
	" \"ioengine\": \"null\", \"test_size\": \"64M\","
	" \"phases\": [{\"phase\": \"one\", \"rw\": \"read\", \"runtime\": 0.02},"
	"            {\"phase\": \"together\", \"runtime\": 0.05}]}";

/* A together group stopped with one device's step finished and the
 * other's cut: the whole group runs again (its finished step too, whose
 * old record is dropped), both devices at once, and stderr's line names
 * the group.  The steps before it are kept. */
static void test_resume_together_whole(struct checks *checks)
{
	char dir[64], err[512] = "", line[400] = "";
	if (!CHECK(check_temp_dir(dir, sizeof(dir), "run-resume-tg")))
		return;
	struct run_state *st = start_run(together_group, dir);
	if (!CHECK(st != NULL))
		return;
	CHECK(run_exec_steps(st, &no_report, NULL) == 0);
	end_run(st);
	json_t *prev = saved_results(dir);
	json_t *phases = json_object_get(prev, "phases");
	if (!CHECK(json_array_size(phases) == 4))
		return;
	json_t *one_a = json_deep_copy(json_array_get(phases, 0));
	json_int_t tg_a_was =
		json_integer_value(json_object_get(json_array_get(phases, 2), "started_ms"));
	json_object_set_new(json_array_get(phases, 3), "cut", json_true());
	json_object_del(prev, "analysis");
	json_object_set_new(json_object_get(prev, "environment"), "stopped_early", json_true());
	sleep(1); /* a resume's steps start a second after the stopped run's */

	int rc = resume_run(together_group, dir, prev, line, sizeof(line), err, sizeof(err));
	if (!CHECK(rc == 0))
		fprintf(stderr, "  %s\n", err);
	if (!CHECK(strstr(line, "resuming: 2 of 4 steps done; steps 3-4 (together, 2 devices at "
				"once) were cut and run again whole")))
		fprintf(stderr, "  %s\n", line);
	json_t *results = saved_results(dir);
	phases = json_object_get(results, "phases");
	CHECK_EQ_U64(json_array_size(phases), 4);
	for (size_t i = 0; i < json_array_size(phases); i++) {
		json_t *p = json_array_get(phases, i);
		CHECK_EQ_U64(json_integer_value(json_object_get(p, "step")), i);
		CHECK(!json_object_get(p, "cut"));
	}
	CHECK(json_equal(json_array_get(phases, 0), one_a));
	json_int_t tg_a =
		json_integer_value(json_object_get(json_array_get(phases, 2), "started_ms"));
	json_int_t tg_b =
		json_integer_value(json_object_get(json_array_get(phases, 3), "started_ms"));
	CHECK(tg_a >= tg_a_was + 900);		       /* measured again, not kept */
	CHECK(tg_b - tg_a < 500 && tg_a - tg_b < 500); /* at once */
	json_t *r = json_array_get(json_object_get(results, "resumes"), 0);
	CHECK_EQ_U64(json_integer_value(json_object_get(r, "steps_done")), 2);
	CHECK_EQ_U64(json_integer_value(json_object_get(json_object_get(r, "cut"), "step")), 2);
	json_decref(results);
	json_decref(one_a);
	json_decref(prev);
	check_remove_tree(dir);
}

/* Killed inside a together group: every device of it was busy until the
 * kill (its log's last write), so each one's idle time before the group
 * runs again is counted from there, not from its phase before the group. */
static void test_resume_together_killed(struct checks *checks)
{
	char dir[64], err[512] = "", path[128];
	if (!CHECK(check_temp_dir(dir, sizeof(dir), "run-resume-tg-kill")))
		return;
	json_t *prev = killed_run(together_group, dir, 2);
	if (!CHECK(prev != NULL))
		return;
	sleep(1); /* the group ran a second past the one phase before it */
	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s_tg_iops.1.log", dir, i ? "b" : "a");
		CHECK(utimes(path, NULL) == 0);
	}
	sleep(1); /* the gap */
	if (!CHECK(resume_run(together_group, dir, prev, NULL, 0, err, sizeof(err)) == 0))
		fprintf(stderr, "  %s\n", err);
	json_t *results = saved_results(dir);
	json_t *phases = json_object_get(results, "phases");
	CHECK_EQ_U64(json_array_size(phases), 4);
	for (size_t i = 2; i < 4; i++) {
		double idle = json_number_value(
			json_object_get(json_array_get(phases, i), "idle_before_s"));
		if (!CHECK(idle >= 0.95 && idle < 1.6))
			fprintf(stderr, "  step %zu: idle_before_s %.3f, want the 1 s gap\n", i + 1,
				idle);
	}
	json_decref(results);
	json_decref(prev);
	check_remove_tree(dir);
}

/* --resume=auto before any GET: a results.json in the directory is the
 * one to continue; none and no resume_get starts afresh; a GET that fails
 * stops the run (a fresh one would overwrite S3's) without the URL. */
static void test_resume_fetch_local(struct checks *checks)
{
	char dir[64], line[256], err[512], path[128];
	struct upload_config u;
	memset(&u, 0, sizeof(u));
	if (!CHECK(check_temp_dir(dir, sizeof(dir), "run-fetch")))
		return;
	CHECK(run_resume_fetch(&u, dir, line, sizeof(line), err, sizeof(err)) == RUN_RESUME_NONE);
	CHECK(strstr(line, "nothing to resume, the run starts from its start") != NULL);
	u.resume_get = "https://127.0.0.1:1/b/p/results.json?X-Amz-Signature=5ec2e7";
	u.max_attempts = 1;
	u.timeout_s = 2;
	CHECK(run_resume_fetch(&u, dir, line, sizeof(line), err, sizeof(err)) == -1);
	CHECK(!strncmp(err, "the stopped run's results.json from S3: ", 40) &&
	      !strstr(err, "5ec2e7") && !strchr(err, '\n'));
	json_t *prev = json_pack("{s{sssb}}", "environment", "finished", "2026-09-02T00:00:00Z",
				 "stopped_early", 1);
	snprintf(path, sizeof(path), "%s/results.json", dir);
	CHECK(json_dump_file(prev, path, 0) == 0);
	CHECK(run_resume_fetch(&u, dir, line, sizeof(line), err, sizeof(err)) == RUN_RESUME_LOCAL);
	CHECK(line[0] == '\0');
	/* Stopped early by a signal: resumable; ended whole: nothing to do. */
	CHECK(!run_resume_finished(prev));
	json_object_set_new(json_object_get(prev, "environment"), "stopped_early", json_false());
	CHECK(run_resume_finished(prev));
	json_object_del(json_object_get(prev, "environment"), "finished");
	CHECK(!run_resume_finished(prev));
	json_decref(prev);
	unlink(path);
	rmdir(dir);
}

CHECK_MAIN(test_steps_in_plan_order, test_stop_ends_the_loop, test_loadcurve_ramp_applies,
	   test_resume_after_kill, test_resume_refusals, test_resume_after_stop,
	   test_resume_together_whole, test_resume_together_killed, test_resume_fetch_local)
