/* recommend_p99.c - what the measurement says of a candidate's p99: the
 * phase nearest the need's load on a volume of its configuration, and the
 * load-curve step that met the p99 asked. */
#include "decide/recommend_p99.h"
#include "decide/recommend_size.h"

#include <math.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "results/results.h"

/* Measured IOPS of a phase, both directions. */
double recommend_phase_iops(const json_t *phase)
{
	return results_num_or(RESULTS_GET(phase, "job", "read"), "iops", 0) +
	       results_num_or(RESULTS_GET(phase, "job", "write"), "iops", 0);
}

/* Whether the EBS model covers a results.json device. */
bool recommend_is_ebs(const json_t *device)
{
	const json_t *kind = json_object_get(device, "kind");
	return !results_str_is(kind, "instance-store") && !results_str_is(kind, "other");
}

/* A saturating randread: not rated, deeper than the latency-bound depths. */
static bool saturating_randread(const json_t *phase)
{
	return results_str_is(json_object_get(phase, "rw"), "randread") &&
	       results_num_or(phase, "iodepth", 1) > VERDICT_LOW_DEPTH &&
	       !RESULTS_GET(phase, "job", "ebsbench", "rate");
}

/* The phase's name as recommend shows it: "loadcurve 25 %" or "randread qd32". */
static void p99_phase_name(const json_t *p, char *buf, size_t len)
{
	const json_t *load = json_object_get(p, "load");
	if (load)
		snprintf(buf, len, "loadcurve %.0f %%%s",
			 results_num(json_object_get(load, "percent")),
			 json_is_true(json_object_get(load, "on_burst")) ? " (on burst)" : "");
	else
		snprintf(buf, len, "randread qd%.0f", results_num_or(p, "iodepth", 1));
}

struct recommend_p99 recommend_p99_at(const json_t *results, const char *device, double iops)
{
	struct recommend_p99 out = { .state = P99_NOT_MEASURED, .ms = NAN, .at_iops = NAN };
	const json_t *p, *curve = NULL, *saturated = NULL;
	double curve_at = HUGE_VAL, saturated_at = HUGE_VAL;
	size_t i;

	json_array_foreach(json_object_get(results, RESULTS_KEY_PHASES), i, p)
	{
		if (!results_str_is(json_object_get(p, "device"), device))
			continue;
		double offered = results_num(RESULTS_GET(p, "load", "offered_iops"));
		double got = recommend_phase_iops(p);
		if (results_str_is(json_object_get(p, "phase"), "loadcurve")) {
			if (offered >= iops && offered < curve_at) {
				curve = p;
				curve_at = offered;
			}
		} else if (saturating_randread(p) && got >= iops && got < saturated_at) {
			saturated = p;
			saturated_at = got;
		}
	}
	p = curve ? curve : saturated;
	double ns = p ? results_lat_pct_ns(results_direction(p), "99.000000") : NAN;
	if (!(ns > 0))
		return out;
	out.state = P99_MEASURED;
	out.ms = ns / 1e6;
	out.at_iops = curve ? curve_at : saturated_at;
	out.bound = !curve;
	snprintf(out.device, sizeof(out.device), "%s", device);
	p99_phase_name(p, out.phase, sizeof(out.phase));
	return out;
}

/* The loadcurve step of device with the highest load whose p99 is at most
 * p99_ms, or NULL: how much headroom the asked p99 wants. */
static const json_t *step_within(const json_t *results, const char *device, double p99_ms)
{
	const json_t *p, *best = NULL;
	double best_pct = 0;
	size_t i;

	json_array_foreach(json_object_get(results, RESULTS_KEY_PHASES), i, p)
	{
		double pct = results_num(RESULTS_GET(p, "load", "percent"));
		double ns = results_lat_pct_ns(results_direction(p), "99.000000");
		if (results_str_is(json_object_get(p, "device"), device) &&
		    results_str_is(json_object_get(p, "phase"), "loadcurve") && pct > best_pct &&
		    ns > 0 && ns / 1e6 <= p99_ms) {
			best = p;
			best_pct = pct;
		}
	}
	return best;
}

/* A provisioned candidate whose measured p99 misses: the share of its
 * rate at which the load curve met the p99, and the IOPS that would hold
 * the need at that share (an inference, said as one). */
static void headroom_reason(const json_t *results, const struct recommend_need *n,
			    struct recommend_candidate *c)
{
	const json_t *step = step_within(results, c->p99.device, n->p99_ms);
	double pct = results_num(RESULTS_GET(step, "load", "percent"));

	if (!step || ebs_type_rules(c->type)->size_derived || !(pct > 0))
		return;
	recommend_reason(
		c,
		"At %.0f %% of its rate (%.0f IOPS offered) it measured %.2f ms: %.0f IOPS would "
		"hold the need at that share (not measured).",
		pct, results_num(RESULTS_GET(step, "load", "offered_iops")),
		results_lat_pct_ns(results_direction(step), "99.000000") / 1e6,
		ceil(n->iops * 100 / pct));
}

/* The p99 at the need's load on a device of the candidate's configuration
 * in these results, and whether it meets the p99 asked. */
void recommend_candidate_p99(const json_t *results, const struct recommend_need *n,
			     struct recommend_candidate *c)
{
	const json_t *dev;
	size_t i;

	c->p99 = (struct recommend_p99){ .state = P99_NOT_MEASURED, .ms = NAN, .at_iops = NAN };
	json_array_foreach(json_object_get(results, RESULTS_KEY_DEVICES), i, dev)
	{
		struct ebs_volume v;
		const char *label = json_string_value(json_object_get(dev, "label"));
		analysis_volume_from_json(dev, &v);
		if (!label || !recommend_is_ebs(dev) || !recommend_same_config(&v, &c->volume))
			continue;
		c->p99 = recommend_p99_at(results, label, n->iops);
		if (c->p99.state == P99_MEASURED)
			break;
	}
	c->p99.meets = !(n->p99_ms > 0) || (c->p99.state == P99_MEASURED && c->p99.ms <= n->p99_ms);
	if (n->p99_ms > 0 && c->p99.state == P99_MEASURED && !c->p99.meets && c->p99.bound)
		recommend_reason(
			c,
			"Its p99 measured %.2f ms at saturation (%.0f IOPS on %s, %s), above the "
			"%.2f ms "
			"asked: a higher load than the need's, so it rules nothing out.",
			c->p99.ms, c->p99.at_iops, c->p99.device, c->p99.phase, n->p99_ms);
	if (!(n->p99_ms > 0 && recommend_p99_misses(&c->p99)))
		return;
	recommend_reason(
		c, "Its p99 measured %.2f ms at %.0f IOPS on %s (%s), above the %.2f ms asked.",
		c->p99.ms, c->p99.at_iops, c->p99.device, c->p99.phase, n->p99_ms);
	headroom_reason(results, n, c);
}
