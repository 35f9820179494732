/* compare_warn.c - where two runs are not comparable, one sentence each,
 * naming both values: the instance, engine, ebsbench version, time scale
 * and plan of the runs, each matched volume's facts and its credit state
 * at the start. */
#include "decide/compare.h"
#include "decide/internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/results.h"

#define UNKNOWN "unknown"

static void say(json_t *list, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Appends one formatted sentence to list. */
static void say(json_t *list, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	json_array_append_new(list, json_string(line));
}

/* A string value, or fallback when v is not one. */
static const char *str_or(const json_t *v, const char *fallback)
{
	const char *s = json_string_value(v);
	return s ? s : fallback;
}

/* The volume type a results.json device names, or NULL. */
static const char *type_of(const json_t *device)
{
	return json_string_value(RESULTS_GET(device, "volume", "type"));
}

/* Whether exactly one unmatched device of b has the type; *at is its index. */
static bool only_of_type(const json_t *devs_b, const bool *taken, size_t nb, const char *type,
			 size_t *at)
{
	size_t found = 0;

	for (size_t j = 0; j < nb; j++) {
		const char *t = type_of(json_array_get(devs_b, j));
		if (!taken[j] && t && !strcmp(t, type)) {
			*at = j;
			found++;
		}
	}
	return found == 1;
}

void compare_match_devices(const json_t *devs_a, const json_t *devs_b, size_t *match)
{
	size_t na = json_array_size(devs_a), nb = json_array_size(devs_b);
	bool *taken = calloc(nb ? nb : 1, sizeof(*taken));

	for (size_t i = 0; i < na; i++)
		match[i] = SIZE_MAX;
	if (!taken)
		return;
	for (size_t i = 0; i < na; i++) {
		for (size_t j = 0; j < nb; j++) {
			if (!taken[j] && !strcmp(results_label(json_array_get(devs_a, i)),
						 results_label(json_array_get(devs_b, j)))) {
				match[i] = j;
				taken[j] = true;
				break;
			}
		}
	}
	for (size_t i = 0; i < na; i++) {
		const char *type = type_of(json_array_get(devs_a, i));
		size_t at;
		if (match[i] == SIZE_MAX && type && only_of_type(devs_b, taken, nb, type, &at)) {
			match[i] = at;
			taken[at] = true;
		}
	}
	free(taken);
}

/* The engine that ran the run's first job (job.ebsbench.ioengine). */
static const char *engine_of(const json_t *run)
{
	const json_t *p;
	size_t i;

	json_array_foreach(json_object_get(run, RESULTS_KEY_PHASES), i, p)
	{
		const char *e = json_string_value(RESULTS_GET(p, "job", "ebsbench", "ioengine"));
		if (e)
			return e;
	}
	return NULL;
}

/* The plan's phases as "layout, randread, ..." into buf. */
static const char *phases_text(const json_t *run, char *buf, size_t len)
{
	const json_t *p;
	size_t i, o = 0;

	buf[0] = '\0';
	json_array_foreach(RESULTS_GET(run, RESULTS_KEY_PLAN, "phases"), i, p)
	{
		int n = snprintf(buf + o, len - o, "%s%s", i ? ", " : "", str_or(p, "?"));
		if (n < 0 || (size_t)n >= len - o)
			break;
		o += (size_t)n;
	}
	return o ? buf : "none recorded";
}

/* Two strings that differ (NULL for unknown); both unknown is no difference. */
static bool differ(const char *a, const char *b)
{
	return (a || b) && (!a || !b || strcmp(a, b));
}

void compare_run_warnings(const json_t *a, const json_t *b, json_t *list)
{
	const char *ia =
		json_string_value(RESULTS_GET(a, RESULTS_KEY_ENVIRONMENT, "instance_type"));
	const char *ib =
		json_string_value(RESULTS_GET(b, RESULTS_KEY_ENVIRONMENT, "instance_type"));
	const char *ea = engine_of(a), *eb = engine_of(b);
	const char *va = json_string_value(RESULTS_GET(a, RESULTS_KEY_EBSBENCH, "version"));
	const char *vb = json_string_value(RESULTS_GET(b, RESULTS_KEY_EBSBENCH, "version"));
	double sa = results_num_or(json_object_get(a, RESULTS_KEY_PLAN), "time_scale", 1);
	double sb = results_num_or(json_object_get(b, RESULTS_KEY_PLAN), "time_scale", 1);
	char pa[512], pb[512];

	if (differ(ia, ib))
		say(list, "A ran on instance type %s, B on %s: the instance's EBS limits differ.",
		    ia ? ia : UNKNOWN, ib ? ib : UNKNOWN);
	if (differ(ea, eb))
		say(list, "A ran the %s engine, B the %s engine.", ea ? ea : UNKNOWN,
		    eb ? eb : UNKNOWN);
	if (differ(va, vb))
		say(list, "A was written by ebsbench %s, B by ebsbench %s.", va ? va : UNKNOWN,
		    vb ? vb : UNKNOWN);
	if (sa != sb)
		say(list, "A ran at time scale %g, B at %g: every duration and window differs.", sa,
		    sb);
	phases_text(a, pa, sizeof(pa));
	phases_text(b, pb, sizeof(pb));
	if (strcmp(pa, pb))
		say(list, "A's plan ran %s; B's ran %s.", pa, pb);
	double ta = results_num(RESULTS_GET(a, RESULTS_KEY_PLAN, "test_size"));
	double tb = results_num(RESULTS_GET(b, RESULTS_KEY_PLAN, "test_size"));
	if (isfinite(ta) && isfinite(tb) && ta != tb)
		say(list, "A's plan tested %.0f MiB of each device, B's %.0f MiB.", ta / 1048576,
		    tb / 1048576);
}

/* "gp2, 100 GiB, 300 IOPS, 128 MiB/s" into buf. */
static const char *volume_text(const json_t *device, char *buf, size_t len)
{
	const json_t *v = json_object_get(device, "volume");

	snprintf(buf, len, "%s, %g GiB, %g IOPS, %g MiB/s", str_or(json_object_get(v, "type"), "?"),
		 results_num_or(v, "size_gib", NAN), results_num_or(v, "iops", NAN),
		 results_num_or(v, "throughput_mibs", NAN));
	return buf;
}

/* The gap before the device's randread, in seconds; NaN if none. */
static double idle_of(const json_t *run, const char *label)
{
	return results_num(json_object_get(results_phase(run, "randread", label), "idle_before_s"));
}

/* What one real second idle refills, as a share of the run's (time-scaled)
 * bucket; NaN for a volume without one. */
static double refill_share(const json_t *run, const char *label)
{
	const json_t *pred = RESULTS_GET(results_analysis_device(run, label), "prediction");
	double base = results_num(json_object_get(pred, "baseline_iops"));
	double burst = results_num(json_object_get(pred, "burst_iops"));
	double secs = results_num(json_object_get(pred, "burst_seconds"));
	double scale = results_num_or(json_object_get(run, RESULTS_KEY_PLAN), "time_scale", 1);
	double bucket = secs * (burst - base) * scale;

	return bucket > 0 ? base / bucket : NAN;
}

/* What a start balance rests on: its cliff's second, or a randread that
 * held its baseline from the first second. */
static void balance_evidence(const json_t *state, char *buf, size_t len)
{
	double at = results_num_or(state, "cliff_s", NAN);
	if (isfinite(at))
		snprintf(buf, len, "by its cliff at %.2f s", at);
	else
		snprintf(buf, len, "it never burst");
}

/* The start balance the cliff implies: the idle gap, then the percent. */
static void credit_warnings(const json_t *a, const json_t *b, const char *la, const char *lb,
			    json_t *list)
{
	double share = fmax(refill_share(a, la), refill_share(b, lb));
	double ia = idle_of(a, la), ib = idle_of(b, lb);
	const json_t *ca = RESULTS_GET(results_analysis_device(a, la), "credits_at_start");
	const json_t *cb = RESULTS_GET(results_analysis_device(b, lb), "credits_at_start");
	double pa = results_num_or(ca, "percent", NAN), pb = results_num_or(cb, "percent", NAN);

	if (!isfinite(share))
		return; /* no bucket: the credit state cannot differ */
	if (isfinite(ia) && isfinite(ib) && fabs(ia - ib) * share > COMPARE_REFILL_SHARE)
		say(list,
		    "%s: A's randread began after %.1f s idle, B's after %.1f s: the bucket "
		    "refilled for %.0f %% of itself more in %s.",
		    la, ia, ib, 100 * fmin(1, fabs(ia - ib) * share), ia > ib ? "A" : "B");
	char by_a[64], by_b[64];
	balance_evidence(ca, by_a, sizeof(by_a));
	balance_evidence(cb, by_b, sizeof(by_b));
	if (isfinite(pa) && isfinite(pb) && fabs(pa - pb) > COMPARE_CREDIT_POINTS)
		say(list,
		    "%s: A's randread began with about %.0f %% of the bucket (%s), B's with about "
		    "%.0f %% (%s).",
		    la, pa, by_a, pb, by_b);
	else if (isfinite(pa) != isfinite(pb))
		say(list,
		    "%s: %s's start balance was about %.0f %% of the bucket (%s); %s had no cliff "
		    "to tell its balance by.",
		    la, isfinite(pa) ? "A" : "B", isfinite(pa) ? pa : pb,
		    isfinite(pa) ? by_a : by_b, isfinite(pa) ? "B" : "A");
}

/* How the analysis read a loadcurve step above the sustained rate: "on
 * burst" (a volume with a bucket), "above its limit" (one without), or
 * NULL for a step on the sustained curve. */
static const char *served_above(const json_t *step)
{
	if (json_is_true(json_object_get(step, "on_burst")))
		return "on burst";
	return json_is_true(json_object_get(step, "above_limit")) ? "above its limit" : NULL;
}

/* Loadcurve steps of the same load, one served above the sustained rate
 * and one not (the analysis's steps: whether a volume has a bucket to
 * burst on is the model's, not the run's, to say). */
static void burst_step_warnings(const json_t *a, const json_t *b, const char *la, const char *lb,
				json_t *list)
{
	const json_t *p, *q;
	size_t i, j;

	json_array_foreach(RESULTS_GET(results_analysis_device(a, la), "loadcurve", "steps"), i, p)
	{
		double pct = results_num(json_object_get(p, "percent"));
		json_array_foreach(
			RESULTS_GET(results_analysis_device(b, lb), "loadcurve", "steps"), j, q)
		{
			const char *sa = served_above(p), *sb = served_above(q);
			if (results_num(json_object_get(q, "percent")) != pct || !sa == !sb)
				continue;
			say(list, "%s loadcurve %g %%: served %s in %s, not in %s.", la, pct,
			    sa ? sa : sb, sa ? "A" : "B", sa ? "B" : "A");
		}
	}
}

void compare_device_warnings(const json_t *a, const json_t *b, const json_t *dev_a,
			     const json_t *dev_b, json_t *list)
{
	const char *la = results_label(dev_a), *lb = results_label(dev_b);
	char va[160], vb[160];

	if (strcmp(la, lb))
		say(list, "A's device %s is compared with B's %s: the same volume type, %s.", la,
		    lb, str_or(RESULTS_GET(dev_a, "volume", "type"), "?"));
	volume_text(dev_a, va, sizeof(va));
	volume_text(dev_b, vb, sizeof(vb));
	if (strcmp(va, vb))
		say(list, "%s: the volumes differ: A's is %s; B's is %s.", la, va, vb);
	credit_warnings(a, b, la, lb, list);
	burst_step_warnings(a, b, la, lb, list);
}
