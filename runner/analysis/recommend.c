/* recommend.c - the cheapest gp3, io2 and gp2 that meet a need, priced
 * against the measured volume, each with its reasons (recommend.h). */
#include "analysis/recommend.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/verdict.h"
#include "lib/lib.h"
#include "results/results.h"

/* The order the candidates are searched and shown in. */
static const enum ebs_type candidate_types[RECOMMEND_CANDIDATES] = { EBS_GP3, EBS_IO2, EBS_GP2 };

bool recommend_ask_given(const struct recommend_ask *ask)
{
	return ask->iops > 0 || ask->mibs > 0 || ask->p99_ms > 0;
}

/* Appends one sentence to a candidate's reasons (the last ones are
 * dropped past RECOMMEND_REASONS, never cut mid-sentence). */
__attribute__((format(printf, 2, 3))) static void reason(struct recommend_candidate *c,
							 const char *fmt, ...)
{
	va_list ap;

	if (c->nreasons >= RECOMMEND_REASONS)
		return;
	va_start(ap, fmt);
	vsnprintf(c->reasons[c->nreasons++], RECOMMEND_REASON_LEN, fmt, ap);
	va_end(ap);
}

/* Measured IOPS of a phase, both directions. */
static double phase_iops(const json_t *phase)
{
	return results_num_or(RESULTS_GET(phase, "job", "read"), "iops", 0) +
	       results_num_or(RESULTS_GET(phase, "job", "write"), "iops", 0);
}

/* The best MiB/s of the device's sequential phases; the layout, which
 * only prepares the test file, is left out.  NaN when there is none. */
static double best_seq_mibs(const json_t *results, const char *label)
{
	double best = NAN;
	const json_t *p;
	size_t i;

	json_array_foreach(json_object_get(results, "phases"), i, p)
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
	double mean = rr ? phase_iops(rr) : NAN;
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

/* What to provision of a figure the type includes up to `included`: the
 * included figure when it covers the need (or, for a measured need, comes
 * within VERDICT_TOLERANCE of it), else the need. */
static double provision(struct recommend_candidate *c, double need, double included, bool measured,
			const char *unit)
{
	if (need <= included)
		return included;
	if (measured && need <= included * (1 + VERDICT_TOLERANCE)) {
		reason(c,
		       "The need of %.0f %s (this volume's, from its measurement) is within %.0f "
		       "%% "
		       "of gp3's included %.0f %s: a measurement cannot tell them apart.",
		       need, unit, VERDICT_TOLERANCE * 100, included, unit);
		return included;
	}
	return ceil(need);
}

/* gp3: IOPS and MiB/s provisioned apart from size, the first 3,000 and
 * 125 included; at most 0.25 MiB/s per IOPS and 500 IOPS per GiB. */
static void search_gp3(const struct recommend_need *n, struct recommend_candidate *c)
{
	const struct ebs_type_rules *r = ebs_type_rules(EBS_GP3);
	double iops = provision(c, n->iops, r->iops_min, n->measured, "IOPS");
	double mibs = provision(c, n->mibs, r->mibs_min, n->measured, "MiB/s");
	double gib = fmax(n->gib, r->min_gib);

	if (mibs > r->mibs_per_iops * iops) {
		iops = ceil(mibs / r->mibs_per_iops);
		reason(c, "IOPS raised to %.0f: gp3 gives at most %.2f MiB/s per provisioned IOPS.",
		       iops, r->mibs_per_iops);
	}
	if (iops > r->iops_per_gib_max * gib) {
		gib = ceil(iops / r->iops_per_gib_max);
		reason(c, "Size raised to %.0f GiB: gp3 allows at most %.0f IOPS per GiB.", gib,
		       r->iops_per_gib_max);
	}
	c->feasible = iops <= r->iops_max && mibs <= r->max_mibs && gib <= r->max_gib;
	if (!c->feasible) {
		reason(c, "gp3 cannot: at most %.0f IOPS, %.0f MiB/s and %.0f GiB.", r->iops_max,
		       r->max_mibs, r->max_gib);
		return;
	}
	c->volume = (struct ebs_volume){
		.type = EBS_GP3, .size_gib = gib, .iops = iops, .throughput_mibs = mibs
	};
	if (iops == r->iops_min && mibs == r->mibs_min)
		reason(c,
		       "%.0f IOPS and %.0f MiB/s are gp3's included baseline at any size: "
		       "nothing to provision above it.",
		       iops, mibs);
	else
		reason(c,
		       "Provisions %.0f IOPS and %.0f MiB/s (%.0f and %.0f included) for a "
		       "need of %.0f IOPS and %.0f MiB/s.",
		       iops, mibs, r->iops_min, r->mibs_min, n->iops, n->mibs);
}

/* io2 (Block Express): every IOPS provisioned and billed, at most 1,000
 * per GiB; throughput follows at 0.25 MiB/s per IOPS. */
static void search_io2(const struct recommend_need *n, struct recommend_candidate *c)
{
	const struct ebs_type_rules *r = ebs_type_rules(EBS_IO2);
	double iops = fmax(r->iops_min, ceil(n->iops));
	double gib;

	if (n->mibs > iops * r->mibs_per_iops)
		iops = ceil(n->mibs / r->mibs_per_iops);
	gib = fmax(fmax(n->gib, r->min_gib), ceil(iops / r->iops_per_gib_max));
	c->feasible = iops <= r->iops_max && n->mibs <= r->max_mibs && gib <= r->max_gib;
	if (!c->feasible) {
		reason(c, "io2 cannot: at most %.0f IOPS, %.0f MiB/s and %.0f GiB.", r->iops_max,
		       r->max_mibs, r->max_gib);
		return;
	}
	c->volume = (struct ebs_volume){ .type = EBS_IO2, .size_gib = gib, .iops = iops };
	reason(c,
	       "Provisions %.0f IOPS, every one billed; throughput follows at %.2f MiB/s per "
	       "IOPS (%.0f MiB/s).",
	       iops, r->mibs_per_iops, fmin(r->max_mibs, iops * r->mibs_per_iops));
	if (gib > n->gib)
		reason(c, "Size raised to %.0f GiB: io2 allows at most %.0f IOPS per GiB.", gib,
		       r->iops_per_gib_max);
}

/* What a volume moves sustained at 1 MiB: its baseline in 256 KiB units,
 * under its throughput cap (gp2 100 GiB: 300 units, 75 MiB/s). */
static double sustained_mibs(const struct ebs_volume *v)
{
	struct ebs_workload seq = { .io_size_bytes = MIB, .sequential = true };
	return ebs_predict(v, &seq).baseline.ops;
}

/* Whether a gp2 of gib meets the need: sustained (its baseline, 3 IOPS
 * per GiB, and the throughput that baseline allows at 1 MiB), or, with
 * on_burst, while its credits last. */
static bool gp2_meets(double gib, const struct recommend_need *n, bool on_burst)
{
	struct ebs_volume v;
	struct ebs_workload small = { .io_size_bytes = 4096, .credits_at_start = EBS_CREDITS_FULL };
	struct ebs_workload seq = { .io_size_bytes = MIB,
				    .sequential = true,
				    .credits_at_start = EBS_CREDITS_FULL };

	ebs_volume_init(&v, EBS_GP2, gib);
	struct ebs_prediction p = ebs_predict(&v, &small), s = ebs_predict(&v, &seq);
	return (on_burst ? p.burst : p.baseline).ops >= n->iops &&
	       (on_burst ? s.burst : s.baseline).ops >= n->mibs;
}

/* gp2: the smallest size, from the one asked, whose baseline sustains the
 * need (its burst ends when the credits do).  Baseline and throughput
 * grow with size, so a binary search finds it. */
static void search_gp2(const struct recommend_need *n, struct recommend_candidate *c)
{
	const struct ebs_type_rules *r = ebs_type_rules(EBS_GP2);
	double lo = fmax(ceil(n->gib), r->min_gib), hi = r->max_gib;

	c->feasible = gp2_meets(hi, n, false);
	if (!c->feasible) {
		reason(c,
		       "gp2 cannot: it sustains at most %.0f IOPS and %.0f MiB/s, whatever the "
		       "size.",
		       r->baseline_max, r->max_mibs);
		return;
	}
	while (lo < hi) {
		double mid = floor((lo + hi) / 2);
		if (gp2_meets(mid, n, false))
			hi = mid;
		else
			lo = mid + 1;
	}
	ebs_volume_init(&c->volume, EBS_GP2, lo);
	reason(c,
	       "gp2's baseline is %.0f IOPS per GiB: %.0f GiB sustains %.0f IOPS and %.0f MiB/s.",
	       r->baseline_per_gib, lo, ebs_volume_iops(&c->volume), sustained_mibs(&c->volume));
	if (!(lo > fmax(ceil(n->gib), r->min_gib)))
		return;
	if (gp2_meets(fmax(ceil(n->gib), r->min_gib), n, true))
		reason(c,
		       "Sized for the need, above the %.0f GiB wanted: below %.0f GiB gp2 reaches "
		       "it "
		       "only on burst, while its credits last.",
		       n->gib, lo);
	else
		reason(c,
		       "Sized for the need, above the %.0f GiB wanted: at that size gp2 does not "
		       "reach it even on burst.",
		       n->gib);
}

/* Whether two volumes perform alike: same type and, for gp2, size; for
 * the provisioned types, IOPS and throughput. */
bool recommend_same_config(const struct ebs_volume *a, const struct ebs_volume *b)
{
	if (a->type != b->type)
		return false;
	if (ebs_type_rules(a->type)->size_derived)
		return fabs(a->size_gib - b->size_gib) < 0.5;
	return fabs(ebs_volume_iops(a) - ebs_volume_iops(b)) < 0.5 &&
	       fabs(ebs_volume_mibs(a) - ebs_volume_mibs(b)) < 0.5;
}

/* Whether the EBS model covers a results.json device. */
static bool is_ebs(const json_t *device)
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

	json_array_foreach(json_object_get(results, "phases"), i, p)
	{
		if (!results_str_is(json_object_get(p, "device"), device))
			continue;
		double offered = results_num(RESULTS_GET(p, "load", "offered_iops"));
		double got = phase_iops(p);
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
	double ns = p ? results_clat_pct_ns(results_direction(p), "99.000000") : NAN;
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

	json_array_foreach(json_object_get(results, "phases"), i, p)
	{
		double pct = results_num(RESULTS_GET(p, "load", "percent"));
		double ns = results_clat_pct_ns(results_direction(p), "99.000000");
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
	reason(c,
	       "At %.0f %% of its rate (%.0f IOPS offered) it measured %.2f ms: %.0f IOPS would "
	       "hold the need at that share (not measured).",
	       pct, results_num(RESULTS_GET(step, "load", "offered_iops")),
	       results_clat_pct_ns(results_direction(step), "99.000000") / 1e6,
	       ceil(n->iops * 100 / pct));
}

/* The p99 at the need's load on a device of the candidate's configuration
 * in these results, and whether it meets the p99 asked. */
static void candidate_p99(const json_t *results, const struct recommend_need *n,
			  struct recommend_candidate *c)
{
	const json_t *dev;
	size_t i;

	c->p99 = (struct recommend_p99){ .state = P99_NOT_MEASURED, .ms = NAN, .at_iops = NAN };
	json_array_foreach(json_object_get(results, "devices"), i, dev)
	{
		struct ebs_volume v;
		const char *label = json_string_value(json_object_get(dev, "label"));
		analysis_volume_from_json(dev, &v);
		if (!label || !is_ebs(dev) || !recommend_same_config(&v, &c->volume))
			continue;
		c->p99 = recommend_p99_at(results, label, n->iops);
		if (c->p99.state == P99_MEASURED)
			break;
	}
	c->p99.meets = !(n->p99_ms > 0) || (c->p99.state == P99_MEASURED && c->p99.ms <= n->p99_ms);
	if (n->p99_ms > 0 && c->p99.state == P99_MEASURED && !c->p99.meets && c->p99.bound)
		reason(c,
		       "Its p99 measured %.2f ms at saturation (%.0f IOPS on %s, %s), above the "
		       "%.2f ms "
		       "asked: a higher load than the need's, so it rules nothing out.",
		       c->p99.ms, c->p99.at_iops, c->p99.device, c->p99.phase, n->p99_ms);
	if (!(n->p99_ms > 0 && recommend_p99_misses(&c->p99)))
		return;
	reason(c, "Its p99 measured %.2f ms at %.0f IOPS on %s (%s), above the %.2f ms asked.",
	       c->p99.ms, c->p99.at_iops, c->p99.device, c->p99.phase, n->p99_ms);
	headroom_reason(results, n, c);
}

/* Prices the candidate and names what it gives up against the volume. */
static void candidate_price(struct recommend_candidate *c, const struct recommend_device *d,
			    const struct ebs_prices *prices)
{
	const struct recommend_delivered *del = &d->delivered;

	c->iops = ebs_volume_iops(&c->volume);
	c->mibs = sustained_mibs(&c->volume);
	c->monthly_usd = ebs_monthly_cost(&c->volume, prices);
	c->delta_usd = c->monthly_usd - d->current_usd;
	if (isnan(c->monthly_usd))
		reason(c, "No %s price for %s: the config's \"prices\" can give them.",
		       ebs_type_name(c->type), prices->region ? prices->region : "this region");
	if (!d->need.measured && del->seq_mibs > c->mibs * (1 + VERDICT_TOLERANCE))
		reason(c,
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
	static void (*const search[RECOMMEND_CANDIDATES])(
		const struct recommend_need *,
		struct recommend_candidate *) = { search_gp3, search_io2, search_gp2 };

	memset(out, 0, sizeof(*out));
	if (!label || !is_ebs(device))
		return error_set(err, errlen, "%s: not an EBS volume, nothing to recommend",
				 label ? label : "a device without a label");
	snprintf(out->label, sizeof(out->label), "%s", label);
	snprintf(out->volume_id, sizeof(out->volume_id), "%s", volume_id ? volume_id : "");
	analysis_volume_from_json(device, &out->current);
	out->current_usd = ebs_monthly_cost(&out->current, prices);
	delivered_read(results, label, &out->current, &out->delivered);
	out->need = need_of(ask, &out->delivered, &out->current);
	for (int i = 0; i < RECOMMEND_CANDIDATES; i++) {
		struct recommend_candidate *c = &out->cand[i];
		c->type = candidate_types[i];
		c->monthly_usd = c->delta_usd = NAN;
		search[i](&out->need, c);
		if (!c->feasible)
			continue;
		candidate_price(c, out, prices);
		candidate_p99(results, &out->need, c);
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

	json_array_foreach(json_object_get(results, "devices"), i, device)
	{
		if (n < cap &&
		    !recommend_device(results, device, ask, prices, &out[n], err, sizeof(err)))
			n++;
	}
	return n;
}
