/* recommend.c - the cheapest gp3, io2, gp2, st1 and sc1 that meet a need, priced
 * against the measured volume, each with its reasons (recommend.h): what
 * the volume delivered, the need, the price and the choice.  The sizing is
 * in recommend_size.c, the measured p99 in recommend_p99.c. */
#include "decide/recommend.h"
#include "decide/internal.h"
#include "decide/recommend_p99.h"
#include "decide/recommend_size.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "lib/lib.h"
#include "results/results.h"

/* The order the candidates are searched and shown in. */
static const enum ebs_type candidate_types[RECOMMEND_CANDIDATES] = { EBS_GP3, EBS_IO2, EBS_GP2,
								     EBS_ST1, EBS_SC1 };

/* The best MiB/s of the device's sequential phases; the layout, which
 * only prepares the test file, is left out.  NaN when there is none. */
static double best_seq_mibs(const json_t *results, const char *label)
{
	double best = NAN;
	const json_t *p;
	size_t i;

	json_array_foreach(json_object_get(results, RESULTS_KEY_PHASES), i, p)
	{
		const json_t *rw = json_object_get(p, "rw");
		if (!results_str_is(json_object_get(p, "device"), label) ||
		    results_str_is(json_object_get(p, "phase"), "layout") ||
		    !(results_str_is(rw, "read") || results_str_is(rw, "write")))
			continue;
		double mibs = results_num_or(results_direction(p), "bw_bytes", 0) / MIB;
		if (isnan(best) || mibs > best)
			best = mibs;
	}
	return best;
}

/* What the volume delivered: the randread phase's burst and sustained
 * levels (its cliff's plateaus, else its mean), its best sequential
 * throughput, and the model's rated figures for the volume. */
static void delivered_read(const json_t *results, const char *label, const struct ebs_volume *v,
			   struct recommend_delivered *d)
{
	const json_t *cliff = results_cliff_found(results, label);
	const json_t *rr = results_phase(results, "randread", label);
	double mean = rr ? recommend_phase_iops(rr) : NAN;
	struct ebs_workload small = { .io_size_bytes = 4096, .credits_at_start = EBS_CREDITS_FULL };
	struct ebs_workload seq = { .io_size_bytes = MIB,
				    .sequential = true,
				    .credits_at_start = EBS_CREDITS_FULL };

	d->burst_iops = cliff ? results_num(RESULTS_GET(cliff, "before", "mean")) : mean;
	d->sustained_iops = cliff ? results_num(RESULTS_GET(cliff, "after", "mean")) : mean;
	d->burst_s = cliff ? results_num(json_object_get(cliff, "second")) : NAN;
	d->seq_mibs = best_seq_mibs(results, label);
	d->rated_iops = ebs_predict(v, &small).burst.ops;
	d->rated_mibs = ebs_predict(v, &seq).burst.ops; /* 1 MiB I/O per second */
}

/* The rated figure when the measurement reached it (within
 * VERDICT_TOLERANCE, the verdicts' "as predicted") or went past it (a
 * volume sustains no more than its rating: above it is a start-up window,
 * QEMU's first second) or nothing was measured; else what was measured,
 * a volume held below its rating (by the instance, say). */
static double rated_if_matched(double measured, double rated)
{
	if (isnan(measured) || measured >= rated * (1 - VERDICT_TOLERANCE))
		return rated;
	return measured;
}

/* The larger of two figures, either of which may be NaN. */
static double max_known(double a, double b)
{
	return isnan(a) ? b : isnan(b) ? a : fmax(a, b);
}

/* The need: IOPS and MiB/s as given when either is, else what the volume
 * delivered at its best (its burst, to be kept sustained). */
static struct recommend_need need_of(const struct recommend_ask *ask,
				     const struct recommend_delivered *d,
				     const struct ebs_volume *current)
{
	struct recommend_need n = { .gib = ask->gib > 0 ? ask->gib : current->size_gib,
				    .p99_ms = ask->p99_ms > 0 ? ask->p99_ms : 0 };

	if (ask->iops > 0 || ask->mibs > 0) {
		n.iops = fmax(ask->iops, 0);
		n.mibs = fmax(ask->mibs, 0);
		return n;
	}
	n.measured = true;
	n.iops = ceil(rated_if_matched(max_known(d->burst_iops, d->sustained_iops), d->rated_iops));
	n.mibs = ceil(rated_if_matched(d->seq_mibs, d->rated_mibs));
	return n;
}

/* Prices the candidate and names what it gives up against the volume. */
static void candidate_price(struct recommend_candidate *c, const struct recommend_device *d,
			    const struct ebs_prices *prices)
{
	const struct recommend_delivered *del = &d->delivered;

	c->iops = ebs_volume_iops(&c->volume);
	c->mibs = recommend_sustained_mibs(&c->volume);
	c->monthly_usd = ebs_monthly_cost(&c->volume, prices);
	c->delta_usd = c->monthly_usd - d->current_usd;
	if (isnan(c->monthly_usd))
		recommend_reason(c, "No %s price for %s: the config's \"prices\" can give them.",
				 ebs_type_name(c->type),
				 prices->region ? prices->region : "this region");
	if (!d->need.measured && del->seq_mibs > c->mibs * (1 + VERDICT_TOLERANCE))
		recommend_reason(
			c,
			"This volume delivered %.0f MiB/s sequential, more than the %.0f MiB/s "
			"here: ask --mibs if the workload needs it.",
			del->seq_mibs, c->mibs);
}

/* The cheapest candidate that meets the need at a known price (the first
 * in order on a tie), or -1. */
static int cheapest(const struct recommend_device *d)
{
	int best = -1;

	for (int i = 0; i < RECOMMEND_CANDIDATES; i++) {
		const struct recommend_candidate *c = &d->cand[i];
		if (!c->feasible || recommend_p99_misses(&c->p99) || isnan(c->monthly_usd))
			continue;
		if (best < 0 || c->monthly_usd < d->cand[best].monthly_usd - 0.005)
			best = i;
	}
	return best;
}

/* One sentence: the choice, its price and the delta, in the table's words. */
static void summarise(struct recommend_device *d)
{
	const struct recommend_candidate *c = d->choice >= 0 ? &d->cand[d->choice] : NULL;
	double delta = c ? c->delta_usd : NAN;
	char change[64];

	if (!c) {
		snprintf(d->summary, sizeof(d->summary),
			 "%s: no candidate meets the need at a known price.", d->label);
		return;
	}
	if (isnan(delta))
		snprintf(change, sizeof(change), "the current price is unknown");
	else if (fabs(delta) < 0.005)
		snprintf(change, sizeof(change), "the same");
	else
		snprintf(change, sizeof(change), "$%.2f %s", fabs(delta),
			 delta < 0 ? "less" : "more");
	snprintf(d->summary, sizeof(d->summary),
		 "%s: %s %.0f GiB at %.0f IOPS and %.0f MiB/s for $%.2f a month against $%.2f "
		 "now (%s)%s",
		 d->label, ebs_type_name(c->type), c->volume.size_gib, c->iops, c->mibs,
		 c->monthly_usd, d->current_usd, change,
		 d->need.p99_ms > 0 && recommend_p99_unknown(&c->p99)
			 ? "; its p99 at this load is not measured."
			 : ".");
}

int recommend_device(const json_t *results, const json_t *device, const struct recommend_ask *ask,
		     const struct ebs_prices *prices, struct recommend_device *out, char *err,
		     size_t errlen)
{
	const char *label = json_string_value(json_object_get(device, "label"));
	const char *volume_id = json_string_value(json_object_get(device, "volume_id"));

	memset(out, 0, sizeof(*out));
	if (!label || !recommend_is_ebs(device))
		return error_set(err, errlen, "%s: not an EBS volume, nothing to recommend",
				 label ? label : "a device without a label");
	snprintf(out->label, sizeof(out->label), "%s", label);
	snprintf(out->volume_id, sizeof(out->volume_id), "%s", volume_id ? volume_id : "");
	analysis_volume_from_json(device, &out->current);
	out->current_usd = ebs_monthly_cost(&out->current, prices);
	delivered_read(results, label, &out->current, &out->delivered);
	out->need = need_of(ask, &out->delivered, &out->current);
	out->ncand = RECOMMEND_CANDIDATES;
	for (int i = 0; i < RECOMMEND_CANDIDATES; i++) {
		struct recommend_candidate *c = &out->cand[i];
		c->type = candidate_types[i];
		c->monthly_usd = c->delta_usd = NAN;
		recommend_size(&out->need, c);
		if (!c->feasible)
			continue;
		candidate_price(c, out, prices);
		recommend_candidate_p99(results, &out->need, c);
	}
	out->choice = cheapest(out);
	if (out->choice >= 0)
		out->cand[out->choice].chosen = true;
	summarise(out);
	return 0;
}

size_t recommend_all(const json_t *results, const struct recommend_ask *ask,
		     const struct ebs_prices *prices, struct recommend_device *out, size_t cap)
{
	const json_t *device;
	size_t i, n = 0;
	char err[128];

	json_array_foreach(json_object_get(results, RESULTS_KEY_DEVICES), i, device)
	{
		if (n < cap &&
		    !recommend_device(results, device, ask, prices, &out[n], err, sizeof(err)))
			n++;
	}
	return n;
}
