/* run_resume.c - a stopped run's results.json read back, checked to be
 * this run's, and merged into the run that continues it (run_resume.h). */
#include "run/run_resume.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/lib.h"
#include "results/results.h"

/* The device facts that must not change across a resume: the same
 * volume, not the same path (a new pod or boot may number it anew). */
static const char *const device_keys[] = { "label",  "kind",	   "volume_id",
					   "serial", "size_bytes", "model" };

/* v as compact JSON, for a line naming what differs. */
static void shown(const json_t *v, char *buf, size_t len)
{
	char *s = v ? json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
	snprintf(buf, len, "%s", s ? s : "absent");
	free(s);
}

static int differs(const char *what, const char *key, const json_t *was, const json_t *now,
		   char *err, size_t errlen)
{
	char a[96], b[96];
	shown(was, a, sizeof(a));
	shown(now, b, sizeof(b));
	return error_set(err, errlen, "%s differs from the stopped run's: '%s' was %s, now %s",
			 what, key, a, b);
}

/* The same plan and the same devices, or -1 naming the first difference. */
static int same_run(const json_t *prev, const json_t *fresh, char *err, size_t errlen)
{
	const json_t *pp = json_object_get(prev, "plan"), *fp = json_object_get(fresh, "plan");
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)fp, key, v)
	{
		if (!json_equal(json_object_get(pp, key), v))
			return differs("the plan", key, json_object_get(pp, key), v, err, errlen);
	}
	const json_t *pd = json_object_get(prev, "devices"),
		     *fd = json_object_get(fresh, "devices");
	if (json_array_size(pd) != json_array_size(fd))
		return error_set(err, errlen,
				 "the stopped run measured %zu devices, this one has %zu",
				 json_array_size(pd), json_array_size(fd));
	for (size_t i = 0; i < json_array_size(fd); i++) {
		const json_t *was = json_array_get(pd, i), *now = json_array_get(fd, i);
		for (size_t k = 0; k < ARRAY_SIZE(device_keys); k++) {
			const json_t *a = json_object_get(was, device_keys[k]);
			const json_t *b = json_object_get(now, device_keys[k]);
			if (!json_equal(a ? a : json_null(), b ? b : json_null())) {
				char what[64];
				snprintf(what, sizeof(what), "device %zu (%s)", i + 1,
					 json_string_value(json_object_get(now, "label")));
				return differs(what, device_keys[k], a, b, err, errlen);
			}
		}
	}
	return 0;
}

static const char *label_of(const json_t *fresh, size_t device)
{
	const char *l = json_string_value(json_object_get(
		json_array_get(json_object_get(fresh, "devices"), device), "label"));
	return l ? l : "?";
}

/* Phase record i (0-based) as step k of this plan: -1 naming why not. */
static int phase_step(const json_t *p, size_t i, const json_t *fresh, const struct plan *plan,
		      size_t *k, char *err, size_t errlen)
{
	const json_t *step = json_object_get(p, "step");
	const char *phase = json_string_value(json_object_get(p, "phase"));
	const char *device = json_string_value(json_object_get(p, "device"));
	if (!json_is_integer(step))
		return error_set(err, errlen,
				 "phase %zu of results.json names no plan step (written by an "
				 "older ebsbench): it cannot be resumed",
				 i + 1);
	json_int_t n = json_integer_value(step);
	if (n < 0 || (size_t)n >= plan->count)
		return error_set(err, errlen,
				 "phase %zu of results.json is step %lld, this plan has %zu", i + 1,
				 (long long)n + 1, plan->count);
	const struct plan_step *s = &plan->steps[n];
	if (!results_str_is(json_object_get(p, "phase"), s->phase) ||
	    !results_str_is(json_object_get(p, "device"), label_of(fresh, s->device)) ||
	    !results_str_is(json_object_get(p, "iops_log"), s->iops_log))
		return error_set(err, errlen,
				 "phase %zu of results.json (%s on %s) is not step %lld of this "
				 "plan (%s on %s)",
				 i + 1, phase ? phase : "?", device ? device : "?",
				 (long long)n + 1, s->phase, label_of(fresh, s->device));
	*k = (size_t)n;
	return 0;
}

static void later(int64_t *at, int64_t ms)
{
	if (ms > *at)
		*at = ms;
}

/* When the cut step's IOPS log was last written, in unix ms; 0: unknown. */
static int64_t log_mtime_ms(const char *out_dir, const char *log)
{
	char path[4200];
	struct stat sb;
	if (!out_dir || snprintf(path, sizeof(path), "%s/%s", out_dir, log) >= (int)sizeof(path) ||
	    stat(path, &sb))
		return 0;
	return (int64_t)sb.st_mtim.tv_sec * 1000 + sb.st_mtim.tv_nsec / 1000000;
}

/* The "running" entry: the step a SIGKILL (or a lost node) cut. */
static int read_running(const json_t *prev, const struct plan *plan, const char *out_dir,
			struct run_resume *r, char *err, size_t errlen)
{
	const json_t *run = json_object_get(prev, "running");
	if (!run)
		return 0;
	const json_t *step = json_object_get(run, "step");
	json_int_t n = json_integer_value(step);
	if (!json_is_integer(step) || n < 0 || (size_t)n >= plan->count)
		return error_set(err, errlen,
				 "results.json's running step is not one of this plan's");
	r->cut = (long)n;
	r->cut_started_ms = (int64_t)json_integer_value(json_object_get(run, "started_ms"));
	/* A together group ran every device of it until the kill. */
	size_t members = plan->steps[n].together ? plan->steps[n].together : 1;
	for (size_t i = 0; i < members && (size_t)n + i < plan->count; i++) {
		const struct plan_step *s = &plan->steps[(size_t)n + i];
		int64_t end = r->cut_started_ms;
		later(&end, log_mtime_ms(out_dir, s->iops_log));
		later(&r->device_end_ms[s->device], end);
		later(&r->stopped_ms, end);
	}
	return 0;
}

/* A together group not finished whole runs again whole: its steps that
 * ended are dropped too, and a cut member names the group's first step. */
static void groups_whole(const struct plan *plan, struct run_resume *r)
{
	for (size_t k = 0; k < plan->count; k++) {
		const struct plan_step *s = &plan->steps[k];
		if (!s->together || s->group_first != k || k + s->together > plan->count)
			continue;
		bool whole = true;
		for (size_t i = 0; i < s->together; i++)
			whole = whole && r->done[k + i];
		for (size_t i = 0; !whole && i < s->together; i++) {
			r->done_count -= r->done[k + i];
			r->done[k + i] = false;
		}
	}
	if (r->cut >= 0 && plan->steps[r->cut].together)
		r->cut = (long)plan->steps[r->cut].group_first;
}

int run_resume_read(const json_t *prev, const json_t *fresh, const struct plan *plan,
		    const char *out_dir, int64_t now_ms, struct run_resume *r, char *err,
		    size_t errlen)
{
	memset(r, 0, sizeof(*r));
	r->cut = -1;
	r->resumed_ms = now_ms;
	if (results_schema_check(prev, err, errlen) || same_run(prev, fresh, err, errlen))
		return -1;
	if (run_resume_finished(prev))
		return error_set(err, errlen, "the run finished: nothing to resume");
	r->steps = plan->count;
	r->done = calloc(plan->count ? plan->count : 1, sizeof(*r->done));
	if (!r->done)
		return error_set(err, errlen, "out of memory");
	const json_t *p;
	size_t i, k = 0;
	json_array_foreach(json_object_get(prev, "phases"), i, p)
	{
		if (phase_step(p, i, fresh, plan, &k, err, errlen))
			goto fail;
		size_t dev = plan->steps[k].device;
		later(&r->device_end_ms[dev],
		      (int64_t)json_integer_value(json_object_get(p, "ended_ms")));
		later(&r->stopped_ms, r->device_end_ms[dev]);
		if (json_is_true(json_object_get(p, "cut"))) {
			r->cut = (long)k; /* a SIGTERM's: its record is dropped */
			r->cut_started_ms =
				(int64_t)json_integer_value(json_object_get(p, "started_ms"));
		} else if (r->done[k]) {
			error_set(err, errlen, "results.json records step %zu twice", k + 1);
			goto fail;
		} else {
			r->done[k] = true;
			r->done_count++;
		}
	}
	if (read_running(prev, plan, out_dir, r, err, errlen))
		goto fail;
	if (r->cut >= 0 && r->done[r->cut]) {
		error_set(err, errlen, "results.json records step %ld both whole and cut",
			  r->cut + 1);
		goto fail;
	}
	groups_whole(plan, r);
	return 0;
fail:
	run_resume_free(r);
	return -1;
}

/* The step's record in "resumes": which, what and on which device. */
static json_t *cut_json(const struct run_resume *r, const struct plan *plan, const json_t *fresh)
{
	if (r->cut < 0)
		return json_null();
	const struct plan_step *s = &plan->steps[r->cut];
	return json_pack("{sIsssssI}", "step", (json_int_t)r->cut, "phase", s->phase, "device",
			 label_of(fresh, s->device), "started_ms", (json_int_t)r->cut_started_ms);
}

void run_resume_merge(json_t *fresh, const json_t *prev, const struct run_resume *r,
		      const struct plan *plan)
{
	json_t *phases = json_object_get(fresh, "phases"), *p;
	size_t i;
	json_array_foreach(json_object_get(prev, "phases"), i, p)
	{
		json_int_t k = json_integer_value(json_object_get(p, "step"));
		if (!json_is_true(json_object_get(p, "cut")) && k >= 0 && (size_t)k < r->steps &&
		    r->done[k])
			json_array_append_new(phases, json_deep_copy(p));
	}
	/* The stopped run's probe, taken before anything it read loaded the
	 * blocks: a second would find them loaded (same devices, same order). */
	const json_t *d;
	json_array_foreach(json_object_get(prev, "devices"), i, d)
	{
		const json_t *probe = json_object_get(d, "initialization");
		json_t *to = json_array_get(json_object_get(fresh, "devices"), i);
		if (probe && to)
			json_object_set_new(to, "initialization", json_deep_copy(probe));
	}
	json_t *env = json_object_get(fresh, "environment");
	const json_t *started = RESULTS_GET(prev, "environment", "started");
	if (started)
		json_object_set_new(env, "started", json_deep_copy(started));
	const json_t *uploads = json_object_get(prev, "uploads");
	if (json_is_array(uploads) && !json_array_size(json_object_get(fresh, "uploads")))
		json_object_set_new(fresh, "uploads", json_deep_copy(uploads));
	json_t *resumes = json_deep_copy(json_object_get(prev, "resumes"));
	if (!json_is_array(resumes)) {
		json_decref(resumes);
		resumes = json_array();
	}
	int64_t stopped = r->stopped_ms ? r->stopped_ms : r->resumed_ms;
	json_array_append_new(resumes,
			      json_pack("{sIsIsfsIsIso}", "stopped_ms", (json_int_t)stopped,
					"resumed_ms", (json_int_t)r->resumed_ms, "gap_s",
					(double)(r->resumed_ms - stopped) / 1000.0, "steps_done",
					(json_int_t)r->done_count, "steps", (json_int_t)plan->count,
					"cut", cut_json(r, plan, fresh)));
	json_object_set_new(fresh, "resumes", resumes);
}

void run_resume_describe(const struct run_resume *r, const struct plan *plan, const json_t *fresh,
			 char *buf, size_t len)
{
	char cut[160] = "";
	const struct plan_step *s = r->cut >= 0 ? &plan->steps[r->cut] : NULL;
	if (s && s->together)
		snprintf(cut, sizeof(cut),
			 "; steps %ld-%zu (%s, %zu devices at once) were cut and run again whole",
			 r->cut + 1, (size_t)r->cut + s->together, s->phase, s->together);
	else if (s)
		snprintf(cut, sizeof(cut), "; step %ld (%s on %s) was cut and runs again whole",
			 r->cut + 1, s->phase, label_of(fresh, s->device));
	int64_t stopped = r->stopped_ms ? r->stopped_ms : r->resumed_ms;
	snprintf(buf, len, "resuming: %zu of %zu steps done%s; a gap of %.1f s since the stop",
		 r->done_count, plan->count, cut, (double)(r->resumed_ms - stopped) / 1000.0);
}

bool run_resume_finished(const json_t *prev)
{
	const json_t *env = json_object_get(prev, "environment");
	return json_object_get(env, "finished") &&
	       !json_is_true(json_object_get(env, "stopped_early"));
}

void run_resume_free(struct run_resume *r)
{
	free(r->done);
	r->done = NULL;
}
