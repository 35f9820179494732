/* verdict.c - every phase of a device against the EBS model: what should
 * have bound it, what it measured, and whether the two agree. */
#include "analysis/verdict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/finding.h"
#include "analysis/internal.h"
#include "analysis/off_model.h"
#include "lib/lib.h"
#include "results/results.h"
#include "stats/stats.h"

/* One phase as the model needs it; times are model seconds (run seconds
 * divided by the time scale), rates are what was measured. */
struct phase_facts {
	const char *name;
	double bs, iodepth;
	double duration_s, idle_s; /* idle NaN: the device's first phase */
	double end_s;		   /* since the run's first phase began */
	double ops;		   /* both directions */
	struct little_latency lat; /* mean and p50, both directions */
	double offered;		   /* a rated phase's rate_iops, both directions; 0: none */
	double plateau;		   /* median of its real seconds (the first left out); NaN: none */
	bool sequential;
	bool unloaded; /* read blocks not yet loaded from a snapshot (initialization.h) */
	bool together; /* driven at once with the other devices (together.h) */
};

/* The gp2 bucket followed from phase to phase, in credits (units), and
 * what its balance rests on: the phases before (from a full bucket, as a
 * rested volume's), or the evidence of a randread that never burst. */
struct ledger {
	double bucket, balance;
	const char *origin;
	char said[80]; /* an origin naming the cliff phase ("by its seqread, ...") */
	bool at_least; /* the balance is a lower bound (a randread on burst to its end) */
};

/* The ledger's origin as "by its PHASE" and how: "which never burst". */
static void origin_set(struct ledger *l, const char *phase, const char *how)
{
	snprintf(l->said, sizeof(l->said), "by its %s%s", phase, how);
	l->origin = l->said;
}

/* A phase's three bounds and their lowest, in I/O per second. */
struct phase_bounds {
	struct ebs_prediction p;
	struct ebs_rate volume;	   /* provisioned, or the bucket over the phase */
	double instance, latency;  /* NaN: unknown or not applicable */
	double delivered;	   /* HUGE_VAL: delivered as the model allows */
	struct ebs_rate predicted; /* the lowest, and which one */
	bool instance_burst;
	double instance_burst_share; /* of a phase across the burst's end, else 0 */
};

/* fio's sequential patterns: EBS merges their I/O into 256 KiB units. */
static bool rw_is_sequential(const char *rw)
{
	return rw && (!strcmp(rw, "read") || !strcmp(rw, "write") || !strcmp(rw, "rw") ||
		      !strcmp(rw, "readwrite"));
}

/* The run's first phase start, so a phase knows how far into the
 * instance's 30-minute burst it ran. */
static double run_start_ms(const json_t *results)
{
	const json_t *p = json_array_get(json_object_get(results, RESULTS_KEY_PHASES), 0);
	return results_num(json_object_get(p, "started_ms"));
}

/* Whether an fio rw pattern reads (writes: want_write) at all. */
static bool rw_does(const char *rw, bool want_write)
{
	if (!rw)
		return false;
	bool mixed = !strcmp(rw, "rw") || !strcmp(rw, "randrw") || !strcmp(rw, "readwrite");
	return mixed || strstr(rw, want_write ? "write" : "read") != NULL;
}

/* The level a phase held: the median of its real seconds, robust to a
 * start-up burst and a stall alike.  NaN without a second to judge. */
static double plateau_of(const json_t *phase)
{
	size_t n = results_second_windows(phase, NULL, 0);
	double *w = n ? malloc(n * sizeof(*w)) : NULL, level = NAN;

	if (w) {
		results_second_windows(phase, w, n);
		level = stats_median(w, n);
	}
	free(w);
	return level;
}

/* Reads what the model needs from one phase record. */
static void phase_facts_read(const json_t *phase, double scale, double start_ms,
			     struct phase_facts *f)
{
	const json_t *job = json_object_get(phase, "job");

	f->name = json_string_value(json_object_get(phase, "phase"));
	f->bs = results_num_or(phase, "bs", NAN);
	f->iodepth = results_num_or(phase, "iodepth", 1);
	f->duration_s = results_num_or(job, "job_runtime", 0) / 1000.0 / scale;
	f->idle_s = results_num_or(phase, "idle_before_s", NAN) / scale;
	f->end_s = (results_num_or(phase, "ended_ms", NAN) - start_ms) / 1000.0 / scale;
	f->ops = results_num_or(json_object_get(job, "read"), "iops", 0) +
		 results_num_or(json_object_get(job, "write"), "iops", 0);
	f->plateau = plateau_of(phase);
	f->lat = little_latency_of(phase, VERDICT_TOLERANCE);
	const char *rw = json_string_value(json_object_get(phase, "rw"));
	f->sequential = rw_is_sequential(rw);
	f->together = json_object_get(phase, "together") != NULL;
	/* --rate_iops=R sets both directions' rates; only those the phase does
	 * are offered (a randread at 75 offers 75, not 150). */
	const json_t *rate = json_object_get(json_object_get(job, "ebsbench"), "rate");
	f->offered = (rw_does(rw, false) ? results_num_or(rate, "read_iops", 0) : 0) +
		     (rw_does(rw, true) ? results_num_or(rate, "write_iops", 0) : 0);
}

/* The instance's burst lasts 30 minutes a day: assume it was unused when
 * the run began, so a phase that ended within it had it. */
static bool instance_bursting(const struct instance_ebs_limits *inst, double end_s)
{
	if (!ebs_instance_has_burst(inst))
		return false;
	return !(end_s > inst->burst_seconds_per_day);
}

/* The share of the phase that ran inside the instance's burst, when the
 * phase spans its end (else 0): that share is predicted at the burst
 * figures, the rest at the baseline. */
static double instance_burst_share(const struct instance_ebs_limits *inst,
				   const struct phase_facts *f)
{
	double burst_s = inst ? inst->burst_seconds_per_day : 0;
	double start_s = f->end_s - f->duration_s;

	if (!ebs_instance_has_burst(inst) || !(f->end_s > burst_s) || !(start_s < burst_s))
		return 0;
	return (burst_s - start_s) / f->duration_s;
}

/* The instance's limit alone, in I/O per second of the phase's size. */
static double instance_alone(const struct verdict_device *d, const struct phase_facts *f,
			     bool burst)
{
	struct ebs_rate unlimited = { HUGE_VAL, EBS_BOUND_NONE };
	return ebs_rate_with_instance(unlimited, f->bs, d->instance, burst).ops;
}

/* What the volume was measured to deliver, in I/O per second of the
 * phase's size (HUGE_VAL: as the model allows): its IOPS level for random
 * I/O, its MiB/s level for any. */
static double delivered_ops(const struct verdict_device *d, const struct phase_facts *f)
{
	double ops = HUGE_VAL;

	if (d->delivered_iops > 0 && !f->sequential)
		ops = d->delivered_iops;
	if (d->delivered_mibs > 0 && f->bs > 0)
		ops = fmin(ops, d->delivered_mibs * MIB / f->bs);
	return ops;
}

/* The lowest of the volume at ph's demand (and latency), the instance
 * (burst for its share of the phase, then baseline) and the delivered level. */
static struct ebs_rate lowest_bound(const struct phase_bounds *b, struct ebs_phase ph)
{
	struct ebs_rate r = ebs_phase_expected_iops(&b->p, &ph);
	double share = b->instance_burst_share;
	ph.instance_burst = true; /* for the share of the phase inside the instance's burst */
	if (share > 0)
		r.ops = share * ebs_phase_expected_iops(&b->p, &ph).ops + (1 - share) * r.ops;
	return b->delivered < r.ops ? (struct ebs_rate){ b->delivered, EBS_BOUND_DELIVERED } : r;
}

/* Each bound of the phase, and the lowest of them all with its name: the
 * volume alone is what it allows at full demand.  At low depth iodepth /
 * mean latency is the phase's own rate (little.h); where its I/Os waited,
 * a limit within the tolerance above that rate made them wait and is named. */
static struct phase_bounds bounds_of(const struct verdict_device *d, const struct phase_facts *f,
				     double credits)
{
	struct ebs_workload w = { .io_size_bytes = f->bs,
				  .sequential = f->sequential,
				  .credits_at_start = credits };
	struct phase_bounds b = { .p = ebs_predict(&d->volume, &w) };
	bool low_depth = f->iodepth <= VERDICT_LOW_DEPTH && f->lat.mean_s > 0;
	struct ebs_phase ph = { .duration_s = f->duration_s,
				/* A rated phase asks for its rate, no more. */
				.demand_ops = f->offered > 0 ? f->offered : HUGE_VAL,
				.iodepth = f->iodepth };

	b.volume = ebs_phase_expected_iops(&b.p, &ph);
	b.latency = low_depth ? f->iodepth / f->lat.mean_s : NAN;
	/* An instance whose burst was spent before the run holds its baseline. */
	double share = d->instance_spent ? 0 : instance_burst_share(d->instance, f);
	b.instance_burst = !d->instance_spent && instance_bursting(d->instance, f->end_s);
	b.instance = d->instance ? instance_alone(d, f, b.instance_burst) : NAN;
	if (share > 0) /* across the burst's end: burst, then baseline */
		b.instance = share * instance_alone(d, f, true) + (1 - share) * b.instance;
	b.instance_burst_share = share;
	b.delivered = delivered_ops(d, f);
	ph.latency_s = low_depth ? f->lat.mean_s : 0;
	ph.instance = d->instance;
	ph.instance_burst = b.instance_burst;
	b.predicted = lowest_bound(&b, ph);
	ph.latency_s = 0; /* the limits alone */
	struct ebs_rate limit = lowest_bound(&b, ph);
	if (b.predicted.bound == EBS_BOUND_LATENCY && f->lat.waited &&
	    limit.ops <= b.latency * (1 + VERDICT_TOLERANCE))
		b.predicted = limit;
	return b;
}

/* A rate in the phase's unit: IOPS, or MiB/s for a sequential phase. */
static double in_unit(const struct phase_facts *f, double ops)
{
	return f->sequential ? ops * f->bs / MIB : ops;
}

static json_t *num_or_null(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

/* Which of the instance's figures held over the phase. */
static const char *instance_state(const struct phase_bounds *b)
{
	if (b->instance_burst)
		return " (burst)";
	return b->instance_burst_share > 0 ? " (burst, then baseline)" : "";
}

/* "the volume allows 3000, the instance 18750, qd1 / 0.500 ms (mean latency) 2000". */
static void bounds_text(char *buf, size_t len, const struct phase_facts *f,
			const struct phase_bounds *b, double credits_pct, const struct ledger *l)
{
	const char *unit = f->sequential ? "MiB/s" : "IOPS";
	int n = snprintf(buf, len, "the volume allows %.0f %s", in_unit(f, b->volume.ops), unit);

	if (n > 0 && (size_t)n < len && isfinite(credits_pct))
		n += snprintf(buf + n, len - (size_t)n,
			      " (its bucket %s%.0f %% full at the start, %s)",
			      l->at_least ? "at least " : "", credits_pct, l->origin);
	if (n > 0 && (size_t)n < len && isfinite(b->delivered))
		n += snprintf(buf + n, len - (size_t)n, ", it delivers %.0f",
			      in_unit(f, b->delivered));
	if (n > 0 && (size_t)n < len && isfinite(b->instance))
		n += snprintf(buf + n, len - (size_t)n, ", the instance %.0f%s",
			      in_unit(f, b->instance), instance_state(b));
	if (n > 0 && (size_t)n < len && isfinite(b->latency))
		n += snprintf(buf + n, len - (size_t)n, ", qd%.0f / %.3f ms (mean latency) %.0f",
			      f->iodepth, f->lat.mean_s * 1e3, in_unit(f, b->latency));
	if (n > 0 && (size_t)n < len && f->offered > 0)
		snprintf(buf + n, len - (size_t)n, ", the offered load (rate_iops) %.0f",
			 in_unit(f, f->offered));
}

/* "1,178 s" for long spans, "19.9 s" for short ones (a scaled run). */
static const char *seconds_text(char *buf, size_t len, double s)
{
	snprintf(buf, len, s >= 100 ? "%.0f s" : "%.1f s", s);
	return buf;
}

/* The phase's sentence: measured, predicted, bound, verdict, tolerance,
 * every bound's figure, and `note` (may be empty) last. */
static void phase_sentence(char *buf, size_t len, const struct verdict_device *d,
			   const struct phase_facts *f, const struct phase_bounds *b,
			   enum ebs_verdict v, double credits_pct, const struct ledger *l,
			   const char *note)
{
	char bounds[384], idle[64] = "", verdict[64];
	const char *unit = f->sequential ? "MiB/s" : "IOPS";

	bounds_text(bounds, sizeof(bounds), f, b, credits_pct, l);
	if (isfinite(f->idle_s) && b->p.bucket > 0) {
		char secs[32];
		snprintf(idle, sizeof(idle), " after %s idle",
			 seconds_text(secs, sizeof(secs), f->idle_s * d->time_scale));
	}
	if (v == EBS_LOADING)
		snprintf(verdict, sizeof(verdict), "below it: still loading from its snapshot");
	else if (v == EBS_AS_PREDICTED || v == EBS_AS_DELIVERED)
		snprintf(verdict, sizeof(verdict), "%s (within %.0f %%)", ebs_verdict_name(v),
			 VERDICT_TOLERANCE * 100);
	else
		snprintf(verdict, sizeof(verdict), "%s than predicted (by more than %.0f %%)",
			 ebs_verdict_name(v), VERDICT_TOLERANCE * 100);
	snprintf(buf, len, "%s %s: %.0f %s%s; predicted %.0f, bound by %s: %s. The bounds: %s.%s",
		 d->label, f->name, in_unit(f, f->ops), unit, idle, in_unit(f, b->predicted.ops),
		 ebs_bound_name(b->predicted.bound), verdict, bounds, note);
}

/* Why a phase gets no prediction, or NULL when it gets one. */
static const char *not_applicable(const struct verdict_device *d, const struct phase_facts *f)
{
	if (!d->is_ebs)
		return "not an EBS volume: the EBS model does not apply";
	if (f->together)
		return "driven at once with the other devices: their sum is judged against the "
		       "instance (analysis.together)";
	if (!(f->bs > 0) || !(f->duration_s > 0))
		return "no block size or duration recorded: nothing to predict from";
	if (!(f->ops > 0))
		return "no I/O completed: nothing to compare";
	return NULL;
}

static json_t *not_predicted_json(const struct verdict_device *d, const struct phase_facts *f,
				  const char *why, json_t *findings)
{
	char line[320];

	snprintf(line, sizeof(line), "%s %s: not predicted (%s).", d->label, f->name, why);
	finding_add(findings, FINDING_DETAIL, line);
	return json_pack("{s:s?,s:s,s:o,s:o,s:s,s:s}", "phase", f->name, "unit",
			 f->sequential ? "MiB/s" : "IOPS", "measured",
			 num_or_null(in_unit(f, f->ops)), "predicted", json_null(), "verdict",
			 ebs_verdict_name(EBS_NOT_PREDICTED), "explanation", line);
}

/* The phase's prediction object (analysis.devices[].phases[]). */
static json_t *phase_json(const struct verdict_device *d, const struct phase_facts *f,
			  const struct phase_bounds *b, const struct ledger *l, const char *note,
			  json_t *findings)
{
	double measured = in_unit(f, f->ops), predicted = in_unit(f, b->predicted.ops);
	double credits = l->balance, pct = b->p.bucket > 0 ? 100 * credits / b->p.bucket : NAN;
	enum ebs_verdict v = ebs_verdict_of(measured, predicted, VERDICT_TOLERANCE);
	char line[1024];

	if (v == EBS_AS_PREDICTED && b->predicted.bound == EBS_BOUND_DELIVERED)
		v = EBS_AS_DELIVERED;
	if (v == EBS_BELOW_PREDICTION && f->unloaded)
		v = EBS_LOADING; /* the snapshot's cause, not the volume's level */

	phase_sentence(line, sizeof(line), d, f, b, v, pct, l, note);
	finding_add(findings, FINDING_DETAIL, line);
	json_t *bounds =
		json_pack("{s:o,s:s,s:o,s:o}", "volume", num_or_null(in_unit(f, b->volume.ops)),
			  "volume_bound", ebs_bound_name(b->volume.bound), "instance",
			  num_or_null(in_unit(f, b->instance)), "latency",
			  num_or_null(in_unit(f, b->latency)));
	return json_pack(
		"{s:s?,s:s,s:f,s:f,s:o,s:f,s:f,s:o,s:o,s:s,s:o,s:o,s:o,s:o,s:s,s:f,s:s}", "phase",
		f->name, "unit", f->sequential ? "MiB/s" : "IOPS", "iodepth", f->iodepth, "bs",
		f->bs, "idle_before_s", num_or_null(f->idle_s * d->time_scale), "duration_s",
		f->duration_s * d->time_scale, "measured", measured, "plateau",
		num_or_null(in_unit(f, f->plateau)), "offered",
		f->offered > 0 ? json_real(in_unit(f, f->offered)) : json_null(), "bound",
		ebs_bound_name(b->predicted.bound), "predicted", num_or_null(predicted), "bounds",
		bounds, "service_time_ms", num_or_null(f->lat.mean_s * 1e3), "credits_at_start",
		b->p.bucket > 0 ? json_real(credits) : json_null(), "verdict", ebs_verdict_name(v),
		"tolerance", VERDICT_TOLERANCE, "explanation", line);
}

/* The balance the cliff phase began with, from when its cliff came, beside
 * what the ledger expected and the cliff a full bucket gives. */
static json_t *credit_state_json(const struct verdict_device *d, const struct phase_facts *f,
				 const struct phase_bounds *b, double expected)
{
	double demand = isfinite(b->latency) ? b->latency : HUGE_VAL;
	struct ebs_credit_state s =
		ebs_credits_from_cliff(&b->p, d->cliff_s / d->time_scale, demand);
	struct ebs_prediction full = b->p;
	char line[320], at[32], not_at[32];

	full.credits = full.bucket;
	double full_cliff_s = ebs_burst_seconds_at(&full, demand) * d->time_scale;
	bool low = s.percent < VERDICT_CREDITS_LOW_PERCENT;
	seconds_text(at, sizeof(at), d->cliff_s);
	seconds_text(not_at, sizeof(not_at), full_cliff_s);
	char held[64];
	finding_credits(held, sizeof(held), s.credits, b->p.bucket,
			ebs_type_throughput_bucket(d->volume.type));
	if (low)
		snprintf(line, sizeof(line),
			 "the cliff came at %s, not %s: the bucket held about %.0f %% (%s) at the "
			 "start of %s.",
			 at, not_at, s.percent, held, f->name);
	else
		snprintf(line, sizeof(line),
			 "the bucket held about %.0f %% (%s) at the start of %s, by its cliff at "
			 "%s.",
			 s.percent, held, f->name, at);
	return json_pack("{s:s?,s:f,s:f,s:f,s:f,s:f,s:f,s:o,s:b,s:b,s:s}", "phase", f->name,
			 "cliff_s", d->cliff_s, "credits", s.credits, "percent", s.percent,
			 "bucket", b->p.bucket, "expected_credits", expected, "full_bucket_cliff_s",
			 full_cliff_s, "idle_before_s", num_or_null(f->idle_s * d->time_scale),
			 "low", low, "lower_bound", false, "sentence", line);
}

/* The randread's start balance when it never burst: none, whatever the
 * phases before left (analysis.c said so in its finding). */
static json_t *empty_state_json(const struct phase_facts *f, const struct phase_bounds *b,
				double expected)
{
	char line[160];
	snprintf(line, sizeof(line),
		 "the bucket was empty at the start of %s: it held the baseline from its first "
		 "second.",
		 f->name);
	return json_pack("{s:s?,s:o,s:f,s:f,s:f,s:f,s:b,s:b,s:s}", "phase", f->name, "cliff_s",
			 json_null(), "credits", 0.0, "percent", 0.0, "bucket", b->p.bucket,
			 "expected_credits", expected, "low", true, "lower_bound", false,
			 "sentence", line);
}

/* The randread's start balance when it ran on burst to its end: at least
 * what it spent, the bucket's full size unknown beyond that. */
static json_t *lower_state_json(const struct verdict_device *d, const struct phase_facts *f,
				const struct phase_bounds *b, double expected)
{
	double spent = fmax(0, (f->ops * b->p.io_units - b->p.baseline_iops) * f->duration_s);
	double credits = fmin(spent, b->p.bucket), percent = 100 * credits / b->p.bucket;
	char line[320], ran[32];

	const char *unit = f->sequential ? "MiB/s" : "IOPS";
	char held[64];
	finding_credits(held, sizeof(held), credits, b->p.bucket,
			ebs_type_throughput_bucket(d->volume.type));
	snprintf(line, sizeof(line),
		 "%s ran on burst to its end (%.0f %s over %s, no cliff): the bucket held "
		 "at least %.0f %% (%s) when it began, and the run never reached the baseline "
		 "of %.0f %s.",
		 f->name, in_unit(f, f->ops), unit,
		 seconds_text(ran, sizeof(ran), f->duration_s * d->time_scale), percent, held,
		 in_unit(f, b->p.baseline.ops), unit);
	return json_pack("{s:s?,s:o,s:f,s:f,s:f,s:f,s:b,s:b,s:s}", "phase", f->name, "cliff_s",
			 json_null(), "credits", credits, "percent", percent, "bucket", b->p.bucket,
			 "expected_credits", expected, "low", false, "lower_bound", true,
			 "sentence", line);
}

/* Whether a phase with no cliff held the burst rate throughout, on what a
 * bucket of the model's size can hold (more, and the volume facts are
 * wrong: analysis.c's "cliff missing" says so). */
static bool on_burst_throughout(const struct phase_facts *f, const struct phase_bounds *b)
{
	double spent = (f->plateau * b->p.io_units - b->p.baseline_iops) * f->duration_s;

	return b->p.bursts && isfinite(f->plateau) &&
	       f->plateau >= b->p.burst.ops * (1 - VERDICT_TOLERANCE) &&
	       spent <= b->p.bucket * (1 + VERDICT_TOLERANCE);
}

/* The cliff phase's finding on its start balance, and for its own
 * sentence a note when that balance was low. */
static void credit_finding(const struct verdict_device *d, const json_t *state, char *note,
			   size_t len, json_t *findings)
{
	char line[400];

	snprintf(line, sizeof(line), "%s: %s", d->label,
		 json_string_value(json_object_get(state, "sentence")));
	/* A low balance is the start state's finding (it names the cliff), as
	 * is a lower bound (no cliff to name); a full one only confirms the
	 * cliff's own. */
	bool says = json_is_true(json_object_get(state, "low")) ||
		    json_is_true(json_object_get(state, "lower_bound"));
	finding_add(findings, says ? FINDING_START_STATE : FINDING_DETAIL, line);
	if (json_is_true(json_object_get(state, "low")))
		snprintf(note, len,
			 " It began with a bucket about %.0f %% full (from its cliff), not the "
			 "%.0f %% a bucket full before the run would have left.",
			 results_num(json_object_get(state, "percent")),
			 100 * results_num(json_object_get(state, "expected_credits")) /
				 results_num(json_object_get(state, "bucket")));
}

/* The first randread's start balance from its evidence: a cliff, no
 * burst at all, or a burst to its end (a lower bound); on the second pass
 * the state the first inferred (d->evidence), whose finding is said again.
 * The ledger takes the balance; returns the phase's bounds from it. */
static struct phase_bounds randread_start(const struct verdict_device *d,
					  const struct phase_facts *f, struct ledger *l, bool cliff,
					  json_t **state, char *note, size_t len, json_t *findings)
{
	if (d->evidence) {
		double credits = results_num(json_object_get(d->evidence, "credits"));
		bool lower = json_is_true(json_object_get(d->evidence, "lower_bound"));
		json_decref(*state);
		*state = json_deep_copy(d->evidence);
		l->balance = lower ? fmax(l->balance, credits) : credits;
		origin_set(l, cliff && !lower ? "cliff" : f->name,
			   lower   ? ", on burst to its end"
			   : cliff ? ""
				   : ", which never burst");
		if (!d->bucket_empty) /* analysis.c's cliff finding says that one */
			credit_finding(d, *state, note, len, findings);
		return bounds_of(d, f, l->balance);
	}
	if (d->bucket_empty) {
		struct phase_bounds before = bounds_of(d, f, l->balance);
		json_decref(*state);
		*state = empty_state_json(f, &before, l->balance);
		l->balance = 0; /* the evidence overrules the ledger */
		origin_set(l, f->name, ", which never burst");
		return bounds_of(d, f, 0);
	}
	struct phase_bounds b = bounds_of(d, f, l->balance);
	if (!cliff && on_burst_throughout(f, &b)) {
		json_decref(*state);
		*state = lower_state_json(d, f, &b, l->balance);
		credit_finding(d, *state, note, len, findings);
		if (l->balance < results_num(json_object_get(*state, "credits"))) {
			l->balance = results_num(json_object_get(*state, "credits"));
			origin_set(l, f->name, ", on burst to its end");
			l->at_least = true;
			b = bounds_of(d, f, l->balance);
		}
	}
	if (cliff) {
		json_decref(*state);
		*state = credit_state_json(d, f, &b, l->balance);
		credit_finding(d, *state, note, len, findings);
	}
	return b;
}

/* After a phase: the credits it spent net of refill, or none left after
 * a cliff. */
static void ledger_spend(struct ledger *l, const struct phase_facts *f,
			 const struct phase_bounds *b, bool cliff)
{
	double spent = (f->ops * b->p.io_units - b->p.baseline_iops) * f->duration_s;

	if (cliff || !isfinite(spent))
		l->balance = 0;
	else
		l->balance = fmin(fmax(l->balance - spent, 0), l->bucket);
}

json_t *verdict_phases(const json_t *results, const struct verdict_device *d, json_t *findings,
		       json_t **credit_state)
{
	struct ebs_workload w = { .io_size_bytes = 4096, .credits_at_start = EBS_CREDITS_FULL };
	struct ledger l = { .bucket = ebs_predict(&d->volume, &w).bucket };
	double start_ms = run_start_ms(results);
	/* The sweep's steps get one finding per device from sweep.c, on its own
	 * model: their per-step sentences here would be a second opinion. */
	json_t *list = json_array(), *phase, *unsaid = json_array();
	bool cliff_seen = false; /* the cliff is the first randread's (results_phase) */
	size_t i;

	/* A volume rested before the run is assumed full, until its randread's
	 * evidence says otherwise (analysis.c's second pass). */
	l.balance = d->evidence ? d->start_credits : l.bucket;
	l.at_least = d->evidence && json_is_true(json_object_get(d->evidence, "lower_bound"));
	snprintf(l.said, sizeof(l.said), "from the start its %s implies",
		 ebs_cliff_phase(d->volume.type));
	l.origin = d->evidence ? l.said : "by the phases before";
	*credit_state = json_null();
	json_array_foreach(json_object_get(results, RESULTS_KEY_PHASES), i, phase)
	{
		struct phase_facts f;
		if (!results_str_is(json_object_get(phase, "device"), d->label))
			continue;
		phase_facts_read(phase, d->time_scale, start_ms, &f);
		f.unloaded = json_is_true(json_array_get(d->unloaded, i));
		if (!f.name)
			continue;
		json_t *said = strcmp(f.name, RESULTS_PHASE_SWEEP) ? findings : unsaid;
		if (isfinite(f.idle_s) && f.idle_s > 0)
			l.balance =
				fmin(l.bucket, l.balance + f.idle_s * ebs_volume_iops(&d->volume));
		const char *why = not_applicable(d, &f);
		if (why) {
			json_array_append_new(list, not_predicted_json(d, &f, why, said));
			/* A together phase, not judged alone, still spent credits. */
			if (f.together && d->is_ebs && f.bs > 0 && f.duration_s > 0)
				ledger_spend(&l, &f,
					     (struct phase_bounds[]){ bounds_of(d, &f, l.balance) },
					     false);
			continue;
		}
		bool first_randread =
			!cliff_seen && !strcmp(f.name, ebs_cliff_phase(d->volume.type));
		bool cliff = first_randread && isfinite(d->cliff_s);
		cliff_seen = cliff_seen || first_randread;
		char note[160] = "";
		struct phase_bounds b = first_randread && l.bucket > 0
						? randread_start(d, &f, &l, cliff, credit_state,
								 note, sizeof(note), said)
						: bounds_of(d, &f, l.balance);
		json_array_append_new(list, phase_json(d, &f, &b, &l, note, said));
		ledger_spend(&l, &f, &b, cliff);
	}
	json_decref(unsaid);
	off_model_finding(d, list, findings);
	return list;
}
