/* analysis.c - results.json in, results["analysis"] out. */
#include "analysis/analysis.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cliff.h"
#include "analysis/cliff_predicted.h"
#include "analysis/delivered.h"
#include "analysis/design_target.h"
#include "analysis/finding.h"
#include "analysis/initialization.h"
#include "analysis/instance_cliff.h"
#include "analysis/internal.h"
#include "analysis/little.h"
#include "analysis/loadcurve.h"
#include "analysis/steady_state.h"
#include "analysis/together.h"
#include "analysis/sweep.h"
#include "analysis/verdict.h"
#include "lib/lib.h"
#include "results/results.h"

static json_t *plateau_json(const struct cliff_plateau *p, double window_s)
{
	return json_pack("{sfsfsfsfsfsf}", "from_s", (double)p->start * window_s, "to_s",
			 (double)p->end * window_s, "mean", p->mean, "median", p->median, "min",
			 p->min, "max", p->max);
}

/* The series the cliff is looked for in: the phase's IOPS in its windows,
 * or for a throughput bucket (st1/sc1) its MiB/s in windows of at least a
 * real second, as a time-scaled window holds about one 1 MiB I/O.  NULL
 * (and *n 0) without one. */
static double *cliff_series(const json_t *phase, bool mibs, size_t *n, double *window_s)
{
	const json_t *series = json_object_get(phase, "iops_series");
	size_t per = mibs ? (size_t)fmax(1.0, round(1.0 / *window_s)) : 1;
	double to_unit = mibs ? results_num_or(phase, "bs", MIB) / MIB : 1;
	double *out;
	*n = json_array_size(series) / per;
	if (!*n || !(out = calloc(*n, sizeof(*out))))
		return NULL;
	for (size_t i = 0; i < *n * per; i++)
		out[i / per] += json_number_value(json_array_get(series, i)) * to_unit / per;
	*window_s *= (double)per;
	return out;
}

/* The series is in windows of window_ms (1 s, time-scaled); times in the
 * analysis are seconds of the run as it happened.  unit: "IOPS", or
 * "MiB/s" for a throughput bucket (a cliff is a cliff in either). */
static json_t *cliff_json(const json_t *phase, const struct ebs_prediction *pred, double time_scale,
			  json_t *findings, const char *label, const char *unit)
{
	double window_s = results_window_s(phase);
	size_t n;
	double *iops = cliff_series(phase, strcmp(unit, "IOPS"), &n, &window_s);
	const char *name = json_string_value(json_object_get(phase, "phase"));
	struct cliff c;
	struct cliff_params params = cliff_params_default();
	if (!iops)
		return json_null(); /* no per-window series recorded: nothing to judge */
	/* A device's start-up burst lasts about a real second whatever the
	 * time scale: skip that much, not one (possibly 10 ms) window. */
	params.skip_leading = (size_t)fmax(1.0, round(1.0 / window_s));
	int rc = cliff_find(iops, n, &params, &c);
	free(iops);
	if (rc)
		return json_null();
	static const char *const status[] = { [CLIFF_FOUND] = "found",
					      [CLIFF_NONE] = "none",
					      [CLIFF_TOO_SLOW] = "too-slow",
					      [CLIFF_TOO_SHORT] = "too-short" };
	json_t *o = json_pack("{ssss}", "status", status[c.result], "explanation",
			      cliff_result_name(c.result));
	double predicted = pred->bursts ? pred->burst_seconds * time_scale : NAN;
	double ran_s = (double)n * window_s;
	json_object_set_new(o, "predicted_second",
			    isfinite(predicted) ? json_real(predicted) : json_null());
	json_object_set_new(o, "before", plateau_json(&c.before, window_s));
	if (c.result == CLIFF_FOUND || c.result == CLIFF_TOO_SLOW) {
		double at = (double)c.second * window_s;
		double tolerance = fmax(2 * window_s, 0.05 * predicted);
		const char *verdict = !isfinite(predicted)		  ? "no cliff predicted"
				      : fabs(at - predicted) <= tolerance ? "as predicted"
				      : at < predicted			  ? "earlier than predicted"
									  : "later than predicted";
		json_object_set_new(o, "second", json_real(at));
		json_object_set_new(o, "transition_s",
				    json_real((double)c.transition_s * window_s));
		json_object_set_new(o, "after", plateau_json(&c.after, window_s));
		json_object_set_new(o, "verdict", json_string(verdict));
		char line[320];
		if (isfinite(predicted))
			snprintf(line, sizeof(line),
				 "%s: %.0f %s until %.1f s, then %.0f %s: the credit cliff (%s; "
				 "the model predicts %.1f s).",
				 label, c.before.mean, unit, at, c.after.mean, unit, verdict,
				 predicted);
		else /* whose it was: instance_cliff.c */
			snprintf(line, sizeof(line),
				 "%s: %.0f %s until %.1f s, then %.0f %s: a cliff the volume "
				 "does not predict (it has no credit bucket).",
				 label, c.before.mean, unit, at, c.after.mean, unit);
		/* An early cliff is the start balance's finding (verdict.c): it
		 * names the cliff too. */
		/* An early cliff is the start balance's finding (verdict.c), which
		 * names the cliff too; one the volume does not predict is
		 * instance_cliff.c's, which names whose it was. */
		finding_add(findings,
			    !isfinite(predicted) || !strcmp(verdict, "earlier than predicted")
				    ? FINDING_DETAIL
				    : FINDING_START_STATE,
			    line);
	} else {
		char line[400];
		bool expected = isfinite(predicted) && predicted < ran_s;
		/* No burst at all where a full bucket would have burst: the
		 * bucket was empty when the phase began (spent before the run,
		 * or by the phases before). */
		bool spent = pred->bursts && pred->bucket > 0 &&
			     c.before.mean <= pred->baseline.ops * (1 + VERDICT_TOLERANCE);
		if (spent)
			snprintf(line, sizeof(line),
				 "%s: %.0f %s from its first second, its baseline (%.0f): it "
				 "never burst, so its credit bucket was empty when %s "
				 "began, not full as a rested volume's; every phase is predicted "
				 "from that.",
				 label, c.before.mean, unit, pred->baseline.ops, name);
		else
			snprintf(line, sizeof(line), "%s: %.0f %s over %.1f s with no cliff (%s).",
				 label, c.before.mean, unit, ran_s,
				 expected ? "a cliff was predicted inside the phase: check the "
					    "volume facts"
				 : pred->bursts ? "a full bucket outlasts the phase"
						: "it has no credit bucket to run out of");
		json_object_set_new(o, "verdict",
				    json_string(spent	   ? ANALYSIS_BUCKET_EMPTY
						: expected ? "cliff missing"
							   : "as predicted"));
		/* A missing cliff puts the volume facts, and so every prediction,
		 * in doubt: as decisive as the start state it contradicts.  A
		 * bucket that outlasted the phase: cliff_predicted.c says when it
		 * would have run dry, from the ledger's balance. */
		if (spent || expected || !pred->bursts)
			finding_add(findings,
				    spent || expected ? FINDING_START_STATE : FINDING_DETAIL, line);
	}
	return o;
}

/* After the bucket ran dry, each idle gap refilled it at baseline: the
 * phases after the cliff, with what the ledger's balance and their
 * latency allowed (verdict.c).  The reference benchmark's randwrite:
 * 300 + 120 x 300 / 120 = 600 (measured 601). */
static json_t *refill_json(const json_t *phases, const char *cliff_phase)
{
	json_t *list = json_array(), *p;
	bool after_cliff = false;
	size_t i;

	json_array_foreach(phases, i, p)
	{
		double idle = results_num_or(p, "idle_before_s", 0);
		bool iops = results_str_is(json_object_get(p, "unit"), "IOPS");
		const json_t *bounds = json_object_get(p, "bounds");
		if (after_cliff && iops && idle > 0 &&
		    json_is_number(json_object_get(p, "predicted")))
			json_array_append_new(
				list,
				json_pack("{s:O,s:f,s:O,s:O,s:O,s:O,s:O,s:O}", "phase",
					  json_object_get(p, "phase"), "idle_s", idle, "duration_s",
					  json_object_get(p, "duration_s"), "expected_iops",
					  json_object_get(p, "predicted"), "measured_iops",
					  json_object_get(p, "measured"), "bound",
					  json_object_get(p, "bound"), "bucket_allows_iops",
					  json_object_get(bounds, "volume"), "latency_allows_iops",
					  json_object_get(bounds, "latency")));
		after_cliff =
			after_cliff || results_str_is(json_object_get(p, "phase"), cliff_phase);
	}
	return list;
}

/* One finding per way the queue missed iodepth (fewer, more), naming
 * each phase with its figures: one cause, one sentence. */
static void little_findings(const char *label, const char *note, const char *phases,
			    json_t *findings)
{
	char line[640];

	if (!phases[0])
		return;
	snprintf(line, sizeof(line), "%s: %s. By Little's law:%s.", label, note, phases);
	finding_add(findings, FINDING_MEASUREMENT, line);
}

static json_t *little_json(json_t *results, const char *label, json_t *findings)
{
	json_t *list = json_array();
	char under[400] = "", over[400] = "";
	size_t i;
	json_t *phase;
	json_array_foreach(json_object_get(results, RESULTS_KEY_PHASES), i, phase)
	{
		double depth = results_num_or(phase, "iodepth", 1);
		if (!results_str_is(json_object_get(phase, "device"), label))
			continue;
		struct little_check c = little_judge_phase(phase);
		json_array_append_new(
			list,
			json_pack("{s:O,s:f,s:f,s:f,s:s}", "phase", json_object_get(phase, "phase"),
				  "in_flight", isfinite(c.in_flight) ? c.in_flight : 0, "iodepth",
				  depth, "predicted_latency_ms",
				  isfinite(c.predicted_latency_s) ? c.predicted_latency_s * 1e3 : 0,
				  "verdict", little_note(c.verdict)));
		char *to = c.verdict == LITTLE_UNDERFILLED  ? under
			   : c.verdict == LITTLE_OVERFILLED ? over
							    : NULL;
		size_t used = to ? strlen(to) : 0;
		if (to)
			snprintf(to + used, sizeof(under) - used, "%s %s %.1f in flight at qd%.0f",
				 used ? "," : "",
				 json_string_value(json_object_get(phase, "phase")), c.in_flight,
				 depth);
	}
	little_findings(label, little_note(LITTLE_UNDERFILLED), under, findings);
	little_findings(label, little_note(LITTLE_OVERFILLED), over, findings);
	return list;
}

/* The instance's EBS limits by its type, or NULL when unknown. */
static const struct instance_ebs_limits *instance_of(const json_t *results)
{
	const char *type = json_string_value(json_object_get(
		json_object_get(results, RESULTS_KEY_ENVIRONMENT), "instance_type"));
	return type ? ebs_instance_limits_find(type) : NULL;
}

static json_t *prediction_json(const struct ebs_volume *v, const struct ebs_prediction *p)
{
	struct ebs_workload seq = { .io_size_bytes = 1 << 20, .sequential = true };
	struct ebs_prediction s = ebs_predict(v, &seq);
	return json_pack("{sfsfsfsbsfsf}", "baseline_iops", p->baseline.ops, "burst_iops",
			 p->burst.ops, "burst_seconds", p->bursts ? p->burst_seconds : 0.0,
			 "bursts", p->bursts, "seq_baseline_mibs", s.baseline.ops, "seq_burst_mibs",
			 s.burst.ops);
}

/* The balance the device's first phase began with, as the randread's
 * evidence implies it: a full bucket less what that evidence found missing
 * at the randread (the ledger is linear between its clamps); for a lower
 * bound, the least it can have been.  False when the evidence agrees with
 * a full start within 5 points. */
static bool implied_start(const json_t *state, double *start)
{
	double bucket = results_num(json_object_get(state, "bucket"));
	double missing = results_num(json_object_get(state, "expected_credits")) -
			 results_num(json_object_get(state, "credits"));

	if (!(bucket > 0) || !isfinite(missing))
		return false;
	/* For a lower bound (what the randread spent) the same sum is the
	 * least the start can have been: that plus what the phases before
	 * spent. */
	*start = fmin(bucket, fmax(0, bucket - missing));
	return *start < 0.95 * bucket;
}

/* The device's verdicts: infer first, then predict.  A first pass reads
 * the evidence: the randread's start balance, and whether every phase at
 * full demand held one level below what the model allows.  When either
 * overrules what the model assumed (a full bucket, the volume as sold),
 * a second pass judges every phase from it, so each phase's sentence is
 * true of the state the measurements show and the cause is said once. */
static json_t *inferred_phases(const json_t *results, struct verdict_device *vd, json_t *findings,
			       json_t **credit_state, json_t **delivered)
{
	json_t *said = json_array();
	json_t *phases = verdict_phases(results, vd, said, credit_state);
	struct delivered iops, mibs;
	bool by_iops = delivered_find(phases, "IOPS", &iops);
	bool by_mibs = delivered_find(phases, "MiB/s", &mibs);
	bool spent = implied_start(*credit_state, &vd->start_credits);

	/* At the instance's baseline: its burst, not the volume, was short. */
	json_t *instance_said = json_array();
	if (by_iops && delivered_instance_spent(results, vd, &iops, instance_said))
		by_iops = false;
	if (by_mibs && delivered_instance_spent(results, vd, &mibs, instance_said))
		by_mibs = false;
	vd->instance_spent = json_array_size(instance_said) > 0;
	if (by_iops || by_mibs || spent || vd->instance_spent) {
		json_t *evidence = *credit_state, *unused;
		vd->evidence = spent ? evidence : NULL;
		vd->delivered_iops = by_iops ? iops.level : 0;
		vd->delivered_mibs = by_mibs ? mibs.level : 0;
		json_decref(phases);
		json_array_clear(said);
		json_array_extend(said, instance_said);
		json_decref(*delivered);
		*delivered = by_iops ? delivered_json(results, vd, &iops, said) : json_null();
		if (by_mibs) {
			json_t *m = delivered_json(results, vd, &mibs, said);
			if (by_iops)
				json_object_set_new(*delivered, "throughput", m);
			else
				*delivered = m;
		}
		phases = verdict_phases(results, vd, said, spent ? &unused : credit_state);
		if (spent) { /* the first pass's state, against a full start */
			json_decref(unused);
			*credit_state = evidence;
		} else {
			json_decref(evidence);
		}
		vd->evidence = NULL;
	}
	json_array_extend(findings, said);
	json_decref(said);
	json_decref(instance_said);
	return phases;
}

static json_t *device_analysis(json_t *results, const json_t *device,
			       const struct ebs_prices *prices, json_t *findings)
{
	const char *label = json_string_value(json_object_get(device, "label"));
	double time_scale =
		results_num_or(json_object_get(results, RESULTS_KEY_PLAN), "time_scale", 1);
	if (!(time_scale > 0) || !isfinite(time_scale))
		time_scale = 1; /* a damaged record: read its seconds as they are */
	struct ebs_volume v;
	if (!label)
		return NULL;
	analysis_volume_from_json(device, &v);
	/* A throughput bucket's cliff is in MiB/s, of 1 MiB sequential reads. */
	bool hdd = ebs_type_throughput_bucket(v.type);
	struct ebs_workload w = { .io_size_bytes = hdd ? MIB : 4096,
				  .sequential = hdd,
				  .credits_at_start = EBS_CREDITS_FULL };
	struct ebs_prediction pred = ebs_predict(&v, &w);
	json_t *o = json_pack("{ss}", "device", label);
	json_object_set_new(o, "prediction", prediction_json(&v, &pred));
	const json_t *randread = results_phase(results, ebs_cliff_phase(v.type), label);
	json_t *cliff = randread ? cliff_json(randread, &pred, time_scale, findings, label,
					      hdd ? "MiB/s" : "IOPS")
				 : json_null();
	bool dried = results_str_is(json_object_get(cliff, "status"), "found");
	struct verdict_device vd = {
		.label = label,
		.volume = v,
		.is_ebs = !results_str_is(json_object_get(device, "kind"), "instance-store") &&
			  !results_str_is(json_object_get(device, "kind"), "other"),
		.instance = instance_of(results),
		.time_scale = time_scale,
		.cliff_s = dried ? results_num(json_object_get(cliff, "second")) : NAN,
		.bucket_empty =
			results_str_is(json_object_get(cliff, "verdict"), ANALYSIS_BUCKET_EMPTY),
		.unloaded = initialization_unloaded(results, label)
	};
	json_object_set_new(o, "cliff", cliff);
	json_t *credit_state, *delivered = json_null();
	json_t *phases = inferred_phases(results, &vd, findings, &credit_state, &delivered);
	cliff_predicted_add(cliff, &v, phases, credit_state, time_scale, label, findings);
	steady_state_add(results, &vd, cliff, phases);
	json_t *init = initialization_judge(results, label, phases, vd.unloaded, findings);
	json_decref((json_t *)vd.unloaded);
	if (!json_is_null(init))
		json_object_set_new(o, "initialization", init);
	json_t *pass = initialization_pass(results, label, findings);
	if (!json_is_null(pass))
		json_object_set_new(o, "initialize", pass);
	json_object_set_new(o, "delivered", delivered);
	json_object_set_new(o, "instance_burst_spent", json_boolean(vd.instance_spent));
	json_object_set_new(o, "refill",
			    dried ? refill_json(phases, ebs_cliff_phase(v.type)) : json_array());
	json_object_set_new(o, "phases", phases);
	json_t *sweep = sweep_line(results, &vd, phases, findings);
	if (sweep)
		json_object_set_new(o, "sweep", sweep);
	json_object_set_new(o, "credits_at_start", credit_state);
	json_object_set_new(
		o, "design_target",
		design_target_judge(results, &vd, phases, pred.baseline_iops, findings));
	json_object_set_new(o, "little", little_json(results, label, findings));
	json_object_set_new(o, "loadcurve",
			    loadcurve_analyse(results, label, vd.delivered_iops, findings));
	double monthly = ebs_monthly_cost(&v, prices), per = ebs_cost_per_3000_iops(&v, prices);
	json_object_set_new(o, "cost",
			    json_pack("{s:o,s:o}", "monthly_usd",
				      isfinite(monthly) ? json_real(monthly) : json_null(),
				      "per_3000_iops_usd",
				      isfinite(per) ? json_real(per) : json_null()));
	return o;
}

void analysis_build(json_t *results, const struct ebs_prices *prices)
{
	json_t *devices = json_array(), *findings = json_array();
	size_t i;
	json_t *device;
	json_array_foreach(json_object_get(results, RESULTS_KEY_DEVICES), i, device)
	{
		json_t *a = device_analysis(results, device, prices, findings);
		if (a)
			json_array_append_new(devices, a);
	}
	json_t *instance_cliff = instance_cliff_judge(results, devices, findings);
	json_t *together = together_judge(results, findings);
	json_t *ranked, *details;
	finding_split(findings, &ranked, &details);
	json_decref(findings);
	json_t *a = json_pack("{s:o,s:o,s:o,s:o}", "devices", devices, "findings", ranked,
			      "details", details, "instance_cliff", instance_cliff);
	if (together) /* a run without the together phase keeps its record as it was */
		json_object_set_new(a, "together", together);
	json_object_set_new(results, RESULTS_KEY_ANALYSIS, a);
}
