/* compare.c - `ebsbench compare`'s document: devices and phases of two
 * runs matched, each phase cut into its levels (compare.h), each level's
 * figures with their intervals, and the cliff times. */
#include "decide/compare.h"
#include "decide/internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/results.h"

#define PCT_MEDIAN "50.000000"
#define PCT_TAIL "99.000000"

/* Windows [from, to) of a phase's iops_series that make one level. */
struct level {
	const char *name;
	size_t from, to;
};

/* One phase of one run, with what the levels need. */
struct side {
	const json_t *phase;
	const char *label;
	double window_s;
	size_t n;	     /* iops_series windows */
	const json_t *cliff; /* the analysis' cliff when it is this phase's */
};

/* The phase's name, "?" when it has none. */
static const char *phase_name(const json_t *phase)
{
	const char *name = json_string_value(json_object_get(phase, "phase"));
	return name ? name : "?";
}

/* One run's phase on label, with its cliff when the analysis found one in it. */
static struct side side_of(const json_t *run, const json_t *phase, const char *label)
{
	struct side s = { .phase = phase,
			  .label = label,
			  .window_s = results_window_s(phase),
			  .n = json_array_size(json_object_get(phase, "iops_series")) };
	const json_t *cliff = results_cliff_found(run, label);

	if (cliff && results_phase(run, "randread", label) == phase)
		s.cliff = cliff;
	return s;
}

/* The start-up windows a level leaves out: a real second, at most n/5. */
static size_t skip_of(const struct side *s)
{
	size_t skip = (size_t)fmax(1, round(COMPARE_SKIP_S / s->window_s));
	return skip < s->n / 5 ? skip : s->n / 5;
}

/* A plateau's seconds as windows, clamped to the series. */
static size_t at_window(const struct side *s, const json_t *plateau, const char *key)
{
	double w = round(results_num(json_object_get(plateau, key)) / s->window_s);
	return !(w > 0) ? 0 : w >= (double)s->n ? s->n : (size_t)w;
}

/* The side's levels: the whole phase, or with split (both runs had the
 * cliff) the burst and the level after the cliff.  Returns how many. */
static size_t levels_of(const struct side *s, bool split, struct level *out)
{
	size_t skip = skip_of(s);

	if (!split) {
		out[0] = (struct level){ "whole", skip, s->n };
		return 1;
	}
	const json_t *before = json_object_get(s->cliff, "before");
	const json_t *after = json_object_get(s->cliff, "after");
	size_t b_from = at_window(s, before, "from_s");
	out[0] = (struct level){ "burst", b_from > skip ? b_from : skip,
				 at_window(s, before, "to_s") };
	out[1] = (struct level){ "after the cliff", at_window(s, after, "from_s"),
				 at_window(s, after, "to_s") };
	return 2;
}

/* Batch means of the level's IOPS windows (a missing sample counts 0). */
static struct compare_interval iops_interval(const struct side *s, const struct level *l)
{
	const json_t *series = json_object_get(s->phase, "iops_series");
	size_t n = l->to > l->from ? l->to - l->from : 0;
	double *x = calloc(n ? n : 1, sizeof(*x));
	struct compare_interval iv = { NAN, NAN, NAN, 0, 0 };

	if (!x)
		return iv;
	for (size_t i = 0; i < n; i++) {
		double v = results_num(json_array_get(series, l->from + i));
		x[i] = isfinite(v) ? v : 0;
	}
	iv = compare_batch_means(x, n);
	free(x);
	return iv;
}

/* A rated step (a load-curve step) is quoted by its latency from each
 * I/O's scheduled issue time, as the load curve and recommend quote it. */
static bool rated(const json_t *phase)
{
	return json_is_object(RESULTS_GET(phase, "job", "ebsbench", "rate"));
}

/* A percentile over the level: from the per-window histograms, or for a
 * whole phase without them the job's own figure, with no interval.  A
 * rated step's is the job's latency from the scheduled issue time (the
 * histograms hold completion latency): the one figure a load is quoted
 * by, with no interval. */
static struct compare_interval latency_interval(const struct side *s, const struct level *l,
						double pct, const char *key)
{
	const json_t *hist = json_object_get(s->phase, "clat_hist");
	struct compare_interval iv = { NAN, NAN, NAN, 0, 0 };

	if (rated(s->phase)) {
		if (!strcmp(l->name, "whole"))
			iv.estimate = results_lat_pct_ns(results_direction(s->phase), key);
		return iv;
	}
	if (json_is_object(hist)) {
		double hw = results_num_or(hist, "window_ms", 1000) / 1000;
		double from = ceil((double)l->from * s->window_s / hw - 1e-6);
		double to = floor((double)l->to * s->window_s / hw + 1e-6);
		return compare_hist_interval(hist, (size_t)fmax(0, from), (size_t)fmax(0, to), pct);
	}
	if (!strcmp(l->name, "whole"))
		iv.estimate = results_clat_pct_ns(results_direction(s->phase), key);
	return iv;
}

/* B against A: "not significant" where the intervals overlap. */
static const char *verdict_of(const struct compare_interval *a, const struct compare_interval *b)
{
	if (!isfinite(a->low) || !isfinite(b->low))
		return "no interval";
	if (compare_overlap(a, b))
		return "not significant";
	return b->estimate > a->estimate ? "higher" : "lower";
}

/* An interval times a constant (IOPS x bs: throughput). */
static struct compare_interval scaled(struct compare_interval iv, double by)
{
	iv.estimate *= by;
	iv.low *= by;
	iv.high *= by;
	return iv;
}

/* One metric's row: both figures, B - A, its share of A, the verdict. */
static json_t *metric_json(const char *metric, const char *unit, const struct compare_interval *a,
			   const struct compare_interval *b)
{
	double change = b->estimate - a->estimate;
	double pct = a->estimate != 0 ? 100 * change / a->estimate : NAN;

	return json_pack("{s:s,s:s,s:o,s:o,s:o,s:o,s:s}", "metric", metric, "unit", unit, "a",
			 compare_interval_json(a), "b", compare_interval_json(b), "change",
			 isfinite(change) ? json_real(change) : json_null(), "change_percent",
			 isfinite(pct) ? json_real(pct) : json_null(), "verdict", verdict_of(a, b));
}

/* IOPS, throughput (IOPS x bs), p50 and p99 of one level of each side. */
static json_t *level_metrics(const struct side *a, const struct level *la, const struct side *b,
			     const struct level *lb)
{
	json_t *list = json_array();
	struct compare_interval ia = iops_interval(a, la), ib = iops_interval(b, lb);
	double bs_a = results_num_or(a->phase, "bs", NAN),
	       bs_b = results_num_or(b->phase, "bs", NAN);
	struct compare_interval ta = scaled(ia, bs_a), tb = scaled(ib, bs_b);
	struct compare_interval pa = latency_interval(a, la, 50, PCT_MEDIAN);
	struct compare_interval pb = latency_interval(b, lb, 50, PCT_MEDIAN);
	struct compare_interval qa = latency_interval(a, la, 99, PCT_TAIL);
	struct compare_interval qb = latency_interval(b, lb, 99, PCT_TAIL);

	json_array_append_new(list, metric_json("iops", "IOPS", &ia, &ib));
	json_array_append_new(list, metric_json("throughput", "bytes/s", &ta, &tb));
	json_array_append_new(list, metric_json("p50", "ns", &pa, &pb));
	json_array_append_new(list, metric_json("p99", "ns", &qa, &qb));
	/* Which latency the percentiles are (compare.h). */
	const char *latency = rated(a->phase) || rated(b->phase) ? "scheduled" : "completion";
	for (size_t i = 2; i < json_array_size(list); i++)
		json_object_set_new(json_array_get(list, i), "latency", json_string(latency));
	return list;
}

/* A loadcurve step's load ("110 %"), a sweep step's pattern ("write
 * 16384"), or NULL: with the phase's name, what tells a step apart. */
static const char *step_of(const json_t *phase, char *buf, size_t len)
{
	double percent = results_num(RESULTS_GET(phase, "load", "percent"));
	const char *rw = json_string_value(json_object_get(phase, "rw"));

	if (isfinite(percent))
		snprintf(buf, len, "%g %%", percent);
	else if (results_str_is(json_object_get(phase, "phase"), RESULTS_PHASE_SWEEP))
		snprintf(buf, len, "%s %.0f", rw ? rw : "?", results_num_or(phase, "bs", 0));
	else
		return NULL;
	return buf;
}

/* Whether two phases are the same phase and step. */
static bool same_step(const json_t *p, const json_t *q)
{
	char sp[64], sq[64];
	const char *a = step_of(p, sp, sizeof(sp)), *b = step_of(q, sq, sizeof(sq));

	if (!json_equal(json_object_get(p, "phase"), json_object_get(q, "phase")))
		return false;
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* How many phases of device like p ran before p: a plan may repeat one. */
static size_t occurrence(const json_t *run, const char *label, const json_t *p)
{
	const json_t *q;
	size_t i, k = 0;

	json_array_foreach(json_object_get(run, RESULTS_KEY_PHASES), i, q)
	{
		if (q == p)
			break;
		k += results_str_is(json_object_get(q, "device"), label) && same_step(p, q);
	}
	return k;
}

/* run's phase on label matching other's phase p (of other_label); NULL if none. */
static const json_t *counterpart(const json_t *run, const char *label, const json_t *other,
				 const char *other_label, const json_t *p)
{
	size_t want = occurrence(other, other_label, p), k = 0, i;
	const json_t *q;

	json_array_foreach(json_object_get(run, RESULTS_KEY_PHASES), i, q)
	{
		if (!results_str_is(json_object_get(q, "device"), label) || !same_step(p, q))
			continue;
		if (k++ == want)
			return q;
	}
	return NULL;
}

/* One level of a matched phase: where it lies in each run, its metrics. */
static json_t *level_json(const struct side *a, const struct level *la, const struct side *b,
			  const struct level *lb)
{
	char buf[64];
	const char *step = step_of(a->phase, buf, sizeof(buf));

	return json_pack("{s:s,s:s,s:s,s:o,s:s,s:[ff],s:[ff],s:o}", "device", a->label, "device_b",
			 b->label, "phase", phase_name(a->phase), "step",
			 step ? json_string(step) : json_null(), "level", la->name, "from_s",
			 (double)la->from * a->window_s, (double)lb->from * b->window_s, "to_s",
			 (double)la->to * a->window_s, (double)lb->to * b->window_s, "metrics",
			 level_metrics(a, la, b, lb));
}

/* The rows of one matched phase; a cliff in only one run is said once. */
static void phase_rows(const struct side *a, const struct side *b, json_t *rows, json_t *warnings)
{
	struct level la[2], lb[2];
	bool split = a->cliff && b->cliff;
	size_t n = levels_of(a, split, la);

	levels_of(b, split, lb);
	if (!split && (a->cliff || b->cliff)) {
		char line[320];
		snprintf(line, sizeof(line),
			 "%s %s: a cliff in %s (at %.2f s) and none in %s: its levels are two "
			 "states in one run and one in the other, compared here as whole phases.",
			 a->label, phase_name(a->phase), a->cliff ? "A" : "B",
			 results_num(json_object_get(a->cliff ? a->cliff : b->cliff, "second")),
			 a->cliff ? "B" : "A");
		json_array_append_new(warnings, json_string(line));
	}
	for (size_t i = 0; i < n; i++)
		json_array_append_new(rows, level_json(a, &la[i], b, &lb[i]));
}

/* "gp2 seqwrite (110 %) ran only in A." for each of run's phases on
 * label that other (on other_label) lacks. */
static void only_in(const json_t *run, const char *label, const json_t *other,
		    const char *other_label, const char *which, json_t *warnings)
{
	const json_t *p;
	size_t i;

	json_array_foreach(json_object_get(run, RESULTS_KEY_PHASES), i, p)
	{
		char line[256], buf[64];
		const char *step = step_of(p, buf, sizeof(buf));
		if (!results_str_is(json_object_get(p, "device"), label) ||
		    counterpart(other, other_label, run, label, p))
			continue;
		snprintf(line, sizeof(line), "%s %s%s%s%s ran only in %s.", label, phase_name(p),
			 step ? " (" : "", step ? step : "", step ? ")" : "", which);
		json_array_append_new(warnings, json_string(line));
	}
}

/* One sentence for a device the other run has no counterpart of. */
static void unmatched(const json_t *run, const json_t *device, const char *which, const char *other,
		      json_t *warnings)
{
	const char *label = results_label(device);
	const char *type = json_string_value(RESULTS_GET(device, "volume", "type"));
	const json_t *p;
	size_t i, phases = 0;
	char line[320];

	json_array_foreach(json_object_get(run, RESULTS_KEY_PHASES), i, p) phases +=
		results_str_is(json_object_get(p, "device"), label);
	snprintf(
		line, sizeof(line),
		"%s's device %s (%s) has no counterpart in %s (no label or volume type to match it "
		"by): its %zu phases ran only in %s.",
		which, label, type ? type : "no volume type", other, phases, which);
	json_array_append_new(warnings, json_string(line));
}

/* The cliff row of a matched device, or NULL when neither run had one. */
static json_t *cliff_json(const json_t *a, const char *la, const json_t *b, const char *lb)
{
	const json_t *ca = results_cliff_found(a, la), *cb = results_cliff_found(b, lb);
	double sa = results_num(json_object_get(ca, "second"));
	double sb = results_num(json_object_get(cb, "second"));
	double wa = results_window_s(results_phase(a, "randread", la));
	double wb = results_window_s(results_phase(b, "randread", lb));
	double res = fmax(wa, wb), change = sb - sa;
	const char *verdict = !ca			   ? "only in B"
			      : !cb			   ? "only in A"
			      : fabs(change) <= res + 1e-9 ? "not significant"
			      : change > 0		   ? "later"
							   : "earlier";

	if (!ca && !cb)
		return NULL;
	return json_pack("{s:s,s:s,s:s,s:o,s:o,s:o,s:f,s:f,s:s}", "device", la, "device_b", lb,
			 "phase", "randread", "a_s", ca ? json_real(sa) : json_null(), "b_s",
			 cb ? json_real(sb) : json_null(), "change_s",
			 ca && cb ? json_real(change) : json_null(), "resolution_s", res,
			 "time_scale",
			 results_num_or(json_object_get(a, RESULTS_KEY_PLAN), "time_scale", 1),
			 "verdict", verdict);
}

/* Every matched device's phases, levels and cliff, and what is unmatched. */
static void compare_devices(const json_t *a, const json_t *b, const json_t *da, const json_t *db,
			    json_t *doc)
{
	json_t *rows = json_object_get(doc, "phases"), *cliffs = json_object_get(doc, "cliffs");
	json_t *warnings = json_object_get(doc, "warnings");
	size_t na = json_array_size(da), nb = json_array_size(db);
	size_t *match = calloc(na ? na : 1, sizeof(*match));
	bool *taken = calloc(nb ? nb : 1, sizeof(*taken));

	if (!match || !taken)
		goto out;
	compare_match_devices(da, db, match);
	for (size_t i = 0; i < na; i++) {
		const char *la = results_label(json_array_get(da, i));
		const json_t *p;
		size_t k;
		if (match[i] == SIZE_MAX) {
			unmatched(a, json_array_get(da, i), "A", "B", warnings);
			continue;
		}
		taken[match[i]] = true;
		const json_t *dev_b = json_array_get(db, match[i]);
		const char *lb = results_label(dev_b);
		compare_device_warnings(a, b, json_array_get(da, i), dev_b, warnings);
		json_array_foreach(json_object_get(a, RESULTS_KEY_PHASES), k, p)
		{
			const json_t *q = results_str_is(json_object_get(p, "device"), la)
						  ? counterpart(b, lb, a, la, p)
						  : NULL;
			struct side sa = side_of(a, p, la), sb = side_of(b, q, lb);
			if (q)
				phase_rows(&sa, &sb, rows, warnings);
		}
		only_in(a, la, b, lb, "A", warnings);
		only_in(b, lb, a, la, "B", warnings);
		json_t *cliff = cliff_json(a, la, b, lb);
		if (cliff)
			json_array_append_new(cliffs, cliff);
	}
	for (size_t j = 0; j < nb; j++) {
		if (!taken[j])
			unmatched(b, json_array_get(db, j), "B", "A", warnings);
	}
out:
	free(match);
	free(taken);
}

/* What the runs table says of one run. */
static json_t *run_json(const json_t *run, const char *name)
{
	return json_pack("{s:s,s:O?,s:O?,s:O?}", "name", name, "started",
			 RESULTS_GET(run, RESULTS_KEY_ENVIRONMENT, "started"), "instance_type",
			 RESULTS_GET(run, RESULTS_KEY_ENVIRONMENT, "instance_type"), "version",
			 RESULTS_GET(run, RESULTS_KEY_EBSBENCH, "version"));
}

static const char method[] =
	"95 % intervals by batch means: a level's windows in up to 10 batches of consecutive "
	"windows, Student's t over the batch figures (a percentile's: the percentile of each "
	"batch's merged histogram); \"not significant\" where the two runs' intervals overlap. "
	"A phase with a cliff in both runs is compared level by level (burst, after the cliff), "
	"its transition left out; every level leaves out its first second (at most a fifth of its "
	"windows). A cliff time is "
	"known to one window: a change within that resolution is not significant.";

json_t *compare_build(const json_t *a, const json_t *b, const char *name_a, const char *name_b)
{
	json_t *da = results_devices(a), *db = results_devices(b);
	json_t *doc =
		json_pack("{s:o,s:o,s:s,s:[],s:[],s:[]}", "a", run_json(a, name_a), "b",
			  run_json(b, name_b), "method", method, "warnings", "phases", "cliffs");

	if (doc && da && db) {
		compare_run_warnings(a, b, json_object_get(doc, "warnings"));
		compare_devices(a, b, da, db, doc);
	}
	json_decref(da);
	json_decref(db);
	return doc;
}
