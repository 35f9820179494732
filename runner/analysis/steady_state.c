/* steady_state.c - each phase's steady state, its metric cut into rounds,
 * and the burst rule: a window flat on borrowed credit does not count
 * (steady_state.h says how). */
#include "analysis/steady_state.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lib.h"
#include "results/results.h"
#include "stats/stats.h"

enum metric { METRIC_IOPS, METRIC_MIBS, METRIC_P99 };
static const char *const metric_key[] = { "IOPS", "MiB/s", "p99_ms" };
static const char *const metric_word[] = { "rate", "throughput", "p99 latency" };

/* What a window that looked steady drew on. */
enum credit { CREDIT_NONE, CREDIT_VOLUME, CREDIT_INSTANCE };

/* One phase being judged. */
struct phase_ctx {
	const struct verdict_device *d;
	const char *name;
	double load_pct;	    /* a load-curve step's percent; NaN otherwise */
	const json_t *series;	    /* iops_series */
	double window_s;	    /* one iops_series sample */
	double length_s;	    /* the series' span */
	double start_s;		    /* model seconds since the run's first phase began */
	double bs;		    /* NaN: not recorded */
	struct ebs_prediction pred; /* the volume at the phase's I/O and start balance */
	double instance_base;	    /* the instance's EBS baseline, I/O per second; NaN */
	bool instance_burst;	    /* inside the instance's daily burst */
	bool cliff_here;	    /* the device's randread cliff fell in this phase */
	bool at_least;		    /* the ledger's balances are lower bounds (cliff_predicted.h) */
	double cliff_end_s;	    /* when, its drop over; NaN: none in this phase */
};

/* The rounds of a phase and what the window test made of them. */
struct judged {
	enum metric metric;
	double round_s;
	size_t rounds;
	const char *not_judged; /* why the phase was not judged; NULL when it was */
	struct steady_result r; /* the steady window, or the one the words are about */
	bool reached;
	enum credit credit; /* not reached: the steady-looking window drew on this */
	double credit_rate; /* that window's highest round, I/O per second */
};

static json_t *num_or_null(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

/* "42 s", "4.2 s", "0.16 s": whole seconds once they are many. */
static const char *secs(char *buf, size_t len, double s)
{
	snprintf(buf, len, s >= 10 ? "%.0f s" : s >= 1 ? "%.1f s" : "%.2f s", s);
	return buf;
}

/* "34 %", "1.2 %". */
static const char *pct(char *buf, size_t len, double p)
{
	snprintf(buf, len, p >= 10 ? "%.0f %%" : "%.1f %%", p);
	return buf;
}

/* The mean IOPS of the series' windows over [t0, t1) seconds of the phase. */
static double iops_over(const struct phase_ctx *c, double t0, double t1)
{
	size_t n = json_array_size(c->series), i0, i1, i;
	double sum = 0;

	if (!n || !(c->window_s > 0))
		return NAN;
	i0 = (size_t)fmax(0, floor(t0 / c->window_s + 1e-9));
	i1 = (size_t)fmax(0, ceil(t1 / c->window_s - 1e-9));
	i1 = i1 < n ? i1 : n;
	if (i0 >= i1)
		return NAN;
	for (i = i0; i < i1; i++)
		sum += results_num(json_array_get(c->series, i));
	return sum / (double)(i1 - i0);
}

/* Whether rate (I/O per second) drew on credit, and whose. */
static enum credit credit_at(const struct phase_ctx *c, double rate)
{
	if (!isfinite(rate))
		return CREDIT_NONE;
	if (c->pred.bursts &&
	    rate * c->pred.io_units > c->pred.baseline_iops * (1 + STEADY_STATE_CREDIT_MARGIN))
		return CREDIT_VOLUME;
	if (c->instance_burst && rate > c->instance_base * (1 + STEADY_STATE_CREDIT_MARGIN))
		return CREDIT_INSTANCE;
	return CREDIT_NONE;
}

/* Whether window r of the rounds ran on credit, and whose: any round of it
 * above a baseline (a window's mean would hide a burst ending in its first
 * round), or any of it before the cliff that fell in this phase ended.
 * *rate: its highest round's IOPS. */
static enum credit credit_of(const struct phase_ctx *c, const struct steady_result *r,
			     double round_s, double *rate)
{
	enum credit k = CREDIT_NONE;

	*rate = NAN;
	for (size_t i = r->first; i < r->first + r->rounds; i++) {
		double x = iops_over(c, (double)i * round_s, (double)(i + 1) * round_s);
		enum credit ki = credit_at(c, x);
		k = k ? k : ki;
		*rate = isfinite(*rate) ? fmax(*rate, x) : x;
	}
	if (!k && (double)r->first * round_s < c->cliff_end_s)
		k = c->pred.bursts ? CREDIT_VOLUME : CREDIT_INSTANCE;
	return k;
}

/* Windows per round: a STEADY_STATE_ROUNDS-th of n, at least one, and
 * enough for STEADY_STATE_ROUND_IOS I/Os at the phase's mean rate. */
static size_t per_round(size_t n, double ios_per_window)
{
	size_t w = n / STEADY_STATE_ROUNDS;
	double need = ios_per_window > 0 ? ceil(STEADY_STATE_ROUND_IOS / ios_per_window) : 1;

	w = w ? w : 1;
	return need > (double)w ? (need < (double)n ? (size_t)need : n) : w;
}

/* The rounds' IOPS (MiB/s with mibs) from iops_series; NULL when empty. */
static double *rate_rounds(const struct phase_ctx *c, bool mibs, struct judged *j)
{
	size_t n = json_array_size(c->series), r, i;
	size_t w = per_round(n, iops_over(c, 0, (double)n * c->window_s) * c->window_s);
	double *y = (n / w) ? calloc(n / w, sizeof(*y)) : NULL;

	if (!y)
		return NULL;
	j->rounds = n / w;
	j->round_s = (double)w * c->window_s;
	for (r = 0; r < j->rounds; r++) {
		for (i = 0; i < w; i++)
			y[r] += results_num(json_array_get(c->series, r * w + i));
		y[r] /= (double)w;
		if (mibs)
			y[r] *= c->bs / MIB;
	}
	return y;
}

/* The rounds' p99 in ms from the phase's clat_hist windows; NULL when it
 * kept none (or they do not read). */
static double *p99_rounds(const json_t *phase, struct judged *j)
{
	const json_t *hist = json_object_get(phase, "clat_hist");
	const json_t *windows = json_object_get(hist, "windows");
	double bins = results_num(json_object_get(hist, "bins"));
	double coarse = results_num(json_object_get(hist, "coarseness"));
	double window_ms = results_num(json_object_get(hist, "window_ms"));
	size_t n = json_array_size(windows), w = 1, r, i;
	/* Whole bins of the histogram's own buckets, as a histogram log's
	 * coarseness (0..6) merges them: nothing past its last bucket. */
	bool ok = n && coarse >= 0 && coarse <= 6 && coarse == floor(coarse) && bins >= 1 &&
		  bins == floor(bins) && bins * ldexp(1, (int)coarse) <= HISTOGRAM_BUCKETS &&
		  window_ms > 0;
	uint64_t *counts = ok ? calloc((size_t)bins, sizeof(*counts)) : NULL;
	double *y = NULL, total = 0;

	for (i = 0; counts && i < n; i++) {
		int64_t ios =
			results_hist_window(json_array_get(windows, i), counts, (unsigned)bins);
		ok = ok && ios >= 0;
		total += (double)ios;
	}
	if (ok && counts) {
		w = per_round(n, total / (double)n);
		y = (n / w) ? calloc(n / w, sizeof(*y)) : NULL;
	}

	for (r = 0; y && r < n / w; r++) {
		struct histogram_coarse_pct p99;
		memset(counts, 0, (size_t)bins * sizeof(*counts));
		for (i = 0; i < w; i++)
			ok = ok && results_hist_window(json_array_get(windows, r * w + i), counts,
						       (unsigned)bins) >= 0;
		/* A round with no completion has no p99: 0 fails the window it is in. */
		y[r] = histogram_coarse_percentile(counts, (unsigned)bins, (unsigned)coarse, 99.0,
						   &p99)
			       ? p99.ns / 1e6
			       : 0;
	}
	free(counts);
	if (!ok) {
		free(y);
		return NULL;
	}
	j->rounds = n / w;
	j->round_s = (double)w * window_ms / 1000;
	return y;
}

/* The first window that is steady and not on credit; else the last that
 * looked steady on credit, or the last window with what failed there. */
static void judge_rounds(const struct phase_ctx *c, const double *y, struct judged *j)
{
	size_t start = 0;

	steady_window(y, j->rounds, STEADY_ROUNDS, &j->r);
	while (start < j->rounds) {
		struct steady_result r;
		double rate;
		steady_window(y + start, j->rounds - start, STEADY_ROUNDS, &r);
		if (!r.steady)
			return;
		r.first += start;
		enum credit k = credit_of(c, &r, j->round_s, &rate);
		if (k == CREDIT_NONE) {
			j->r = r;
			j->reached = true;
			return;
		}
		j->r = r;
		j->credit = k;
		j->credit_rate = rate;
		start = r.first + 1;
	}
}

/* "the bucket ran dry at 19.9 s", "would run dry at 13 s", or "" when the
 * ledger's balance cannot say (it would have run dry before the window).
 * A ledger started from a lower bound (a randread on burst to its end, as
 * the quick plan's) gives the earliest it would. */
static void dry_text(char *buf, size_t len, const struct phase_ctx *c, const struct judged *j,
		     double *dry_s, bool *measured)
{
	double end = (double)(j->r.first + j->r.rounds) * j->round_s, s = NAN;

	*measured = c->cliff_here;
	if (c->cliff_here) {
		s = c->d->cliff_s;
	} else if (j->credit == CREDIT_VOLUME) {
		double drain =
			iops_over(c, (double)j->r.first * j->round_s, end) * c->pred.io_units -
			c->pred.baseline_iops;
		s = drain > 0 && isfinite(c->pred.credits)
			    ? c->pred.credits / drain * c->d->time_scale
			    : NAN;
	} else {
		s = c->instance_base > 0 ? (c->d->instance->burst_seconds_per_day - c->start_s) *
						   c->d->time_scale
					 : NAN;
	}
	*dry_s = *measured || s > end ? s : NAN;
	buf[0] = '\0';
	if (isfinite(*dry_s)) {
		char t[32];
		bool earliest = !*measured && j->credit == CREDIT_VOLUME && c->at_least;
		snprintf(buf, len, " (%s %s dry at %s%s)",
			 j->credit == CREDIT_VOLUME ? "the bucket" : "it",
			 *measured ? "ran" : "would run", secs(t, sizeof(t), *dry_s),
			 earliest ? " at the earliest" : "");
	}
}

/* "3,012 IOPS", "145 MiB/s", "1.23 ms". */
static const char *level(char *buf, size_t len, enum metric m, double v)
{
	snprintf(buf, len, m == METRIC_P99 ? "%.3g ms" : "%.0f %s", v, metric_key[m]);
	return buf;
}

/* "range 34 %", "slope 12 %" or both: the criteria the window failed. */
static void failed_text(char *buf, size_t len, const struct steady_result *r)
{
	bool range = r->failed == STEADY_FAIL_RANGE || r->failed == STEADY_FAIL_BOTH;
	bool slope = r->failed == STEADY_FAIL_SLOPE || r->failed == STEADY_FAIL_BOTH;
	char a[32];

	if (range && slope) {
		char b[32];
		snprintf(buf, len, "range %s, slope %s", pct(a, sizeof(a), r->range_pct),
			 pct(b, sizeof(b), r->slope_pct));
	} else {
		snprintf(buf, len, "%s %s", range ? "range" : "slope",
			 pct(a, sizeof(a), range ? r->range_pct : r->slope_pct));
	}
}

/* The word and the sentence of a judged phase, and its object. */
static json_t *steady_json(const struct phase_ctx *c, const struct judged *j)
{
	char word[160], line[640], who[96], a[32], b[32], d[32], e[32], at[48], dry[96] = "";
	double dry_s = NAN;
	bool measured = false;
	json_t *burst = json_null();

	if (isfinite(c->load_pct))
		snprintf(who, sizeof(who), "%s %s at %.0f %%", c->d->label, c->name, c->load_pct);
	else
		snprintf(who, sizeof(who), "%s %s", c->d->label, c->name);
	secs(b, sizeof(b), j->round_s);
	pct(d, sizeof(d), j->r.range_pct);
	pct(e, sizeof(e), j->r.slope_pct);
	if (j->not_judged) {
		snprintf(word, sizeof(word), "not judged: %s", j->not_judged);
		snprintf(line, sizeof(line), "%s: steady state not judged: %s.", who,
			 j->not_judged);
	} else if (j->reached) {
		secs(a, sizeof(a), (double)(j->r.first + j->r.rounds) * j->round_s);
		snprintf(word, sizeof(word), "steady after %s", a);
		snprintf(line, sizeof(line),
			 "%s: steady after %s: %zu rounds of %s in a row held its %s at %s, within "
			 "a range of %s and a slope of %s of that mean.",
			 who, a, j->r.rounds, b, metric_word[j->metric],
			 level(at, sizeof(at), j->metric, j->r.mean), d, e);
	} else if (j->credit) {
		bool volume = j->credit == CREDIT_VOLUME;
		const char *on = volume ? "burst credit" : "the instance's EBS burst";
		dry_text(dry, sizeof(dry), c, j, &dry_s, &measured);
		double baseline =
			volume ? c->pred.baseline_iops / c->pred.io_units : c->instance_base;
		snprintf(word, sizeof(word), "not steady: on %s%s", on, dry);
		snprintf(line, sizeof(line),
			 "%s: not steady: on %s%s: its %s looked steady (range %s, slope %s) only "
			 "while %s served up to %.0f IOPS, above %s baseline of %.0f.",
			 who, on, dry, metric_word[j->metric], d, e,
			 volume ? "the volume" : "the instance", j->credit_rate,
			 volume ? "its" : "its EBS", baseline);
		burst = json_pack("{s:s,s:o,s:b,s:f}", "credit", volume ? "volume" : "instance",
				  "dry_s", num_or_null(dry_s), "measured", measured,
				  "baseline_iops", baseline);
	} else {
		char what[96];
		failed_text(what, sizeof(what), &j->r);
		secs(a, sizeof(a), c->length_s);
		snprintf(word, sizeof(word), "not steady in %s: %s", a, what);
		snprintf(line, sizeof(line),
			 "%s: not steady in %s: its last %zu rounds of %s had a %s %s of their "
			 "mean (steady: range within %.0f %%, slope within %.0f %%).",
			 who, a, j->r.rounds, b, metric_word[j->metric], what, STEADY_RANGE_PCT,
			 STEADY_SLOPE_PCT);
	}
	bool judged = !j->not_judged;
	double from = (double)j->r.first * j->round_s;
	return json_pack("{s:s,s:o,s:I,s:I,s:b,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:s,s:s}", "metric",
			 metric_key[j->metric], "round_s", num_or_null(j->round_s), "rounds",
			 (json_int_t)j->rounds, "window_rounds", (json_int_t)STEADY_ROUNDS,
			 "reached", j->reached, "after_s",
			 j->reached ? json_real(from + (double)j->r.rounds * j->round_s)
				    : json_null(),
			 "from_s", judged ? json_real(from) : json_null(), "mean",
			 judged ? num_or_null(j->r.mean) : json_null(), "range_pct",
			 judged ? num_or_null(j->r.range_pct) : json_null(), "slope_pct",
			 judged ? num_or_null(j->r.slope_pct) : json_null(), "failed",
			 j->reached	 ? json_null()
			 : j->not_judged ? json_string(j->not_judged)
			 : j->credit	 ? json_string("on burst credit")
					 : json_string(steady_fail_name(j->r.failed)),
			 "burst", burst, "word", word, "sentence", line);
}

/* The metric that fits the phase. */
static enum metric metric_of(const json_t *phase, const json_t *verdict)
{
	if (results_str_is(json_object_get(phase, "phase"), RESULTS_PHASE_LOADCURVE) ||
	    json_object_get(phase, "load"))
		return METRIC_P99;
	if (results_str_is(json_object_get(verdict, "unit"), "MiB/s"))
		return METRIC_MIBS;
	return results_num_or(phase, "iodepth", 1) <= 1 ? METRIC_P99 : METRIC_IOPS;
}

static json_t *phase_steady(const struct phase_ctx *c, const json_t *phase, const json_t *verdict)
{
	struct judged j = { .metric = metric_of(phase, verdict) };
	double *y = NULL;

	if (j.metric == METRIC_P99) {
		y = p99_rounds(phase, &j);
		if (!y)
			j.not_judged = "no latency windows recorded";
	} else if (j.metric == METRIC_MIBS && !(c->bs > 0)) {
		j.not_judged = "no block size recorded";
	} else {
		y = rate_rounds(c, j.metric == METRIC_MIBS, &j);
		if (!y)
			j.not_judged = "no per-window series recorded";
	}
	if (y) {
		judge_rounds(c, y, &j);
		if (!j.reached && !j.credit && j.r.failed == STEADY_FAIL_SHORT)
			j.not_judged = "too short for 5 rounds of 500 I/Os";
		else if (!j.reached && !j.credit && j.r.failed == STEADY_FAIL_EMPTY)
			j.not_judged = "no I/O";
	}
	free(y);
	return steady_json(c, &j);
}

void steady_state_add(const json_t *results, const struct verdict_device *d, const json_t *cliff,
		      json_t *phases)
{
	const json_t *all = json_object_get(results, RESULTS_KEY_PHASES), *phase;
	double run_ms = results_num(json_object_get(json_array_get(all, 0), "started_ms"));
	bool randread_seen = false;
	size_t i, k = 0;

	json_array_foreach(all, i, phase)
	{
		json_t *verdict;
		const char *name = json_string_value(json_object_get(phase, "phase"));
		if (!results_str_is(json_object_get(phase, "device"), d->label) || !name)
			continue;
		if (!(verdict = json_array_get(phases, k++)))
			return;
		bool first_randread =
			!randread_seen && !strcmp(name, ebs_cliff_phase(d->volume.type));
		randread_seen = randread_seen || first_randread;
		double credits = results_num(json_object_get(verdict, "credits_at_start"));
		struct phase_ctx c = {
			.d = d,
			.name = name,
			.load_pct = results_num(RESULTS_GET(phase, "load", "percent")),
			.series = json_object_get(phase, "iops_series"),
			.window_s = results_window_s(phase),
			.start_s = (results_num(json_object_get(phase, "started_ms")) - run_ms) /
				   1000 / d->time_scale,
			.bs = results_num(json_object_get(phase, "bs")),
			.cliff_here = first_randread && isfinite(d->cliff_s),
			/* A cliff predicted from a full start: the run showed only
			 * a lower bound of the balance the ledger starts from. */
			.at_least = json_is_true(RESULTS_GET(cliff, "predicted", "full_start")),
			.cliff_end_s = NAN,
		};
		if (c.cliff_here)
			c.cliff_end_s = d->cliff_s + results_num_or(cliff, "transition_s", 0);
		c.length_s = (double)json_array_size(c.series) * c.window_s;
		struct ebs_workload w = {
			.io_size_bytes = c.bs > 0 ? c.bs : 4096,
			.sequential = results_str_is(json_object_get(verdict, "unit"), "MiB/s"),
			.credits_at_start = isfinite(credits) ? credits : EBS_CREDITS_FULL,
		};
		c.pred = ebs_predict(&d->volume, &w);
		c.pred.bursts = c.pred.bursts && d->is_ebs;
		c.instance_burst = d->is_ebs && !d->instance_spent &&
				   ebs_instance_has_burst(d->instance) &&
				   c.start_s < d->instance->burst_seconds_per_day;
		c.instance_base = d->instance
					  ? ebs_rate_with_instance(
						    (struct ebs_rate){ HUGE_VAL, EBS_BOUND_NONE },
						    w.io_size_bytes, d->instance, false)
						    .ops
					  : NAN;
		json_object_set_new(verdict, "steady", phase_steady(&c, phase, verdict));
	}
}
