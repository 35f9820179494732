/* demand_recommend.c - the cheapest volume per type that would have
 * served a real demand trace: gp3 and io2 provisioned for the trace's
 * rate at the budget's quantile (its peak with no budget) and raised
 * until the replay agrees, gp2 the smallest size whose replay stays
 * within the budget (its bucket included), all priced. */
#include "decide/demand_recommend.h"
#include "decide/internal.h"
#include "decide/recommend_p99.h"
#include "decide/recommend_size.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/lib.h"

/* st1 and sc1 are left out: a trace's counts cannot tell sequential I/O,
 * which they serve, from random, which they refuse. */
#define DEMAND_CANDIDATES 3
static const enum ebs_type candidate_types[DEMAND_CANDIDATES] = { EBS_GP3, EBS_IO2, EBS_GP2 };

/* Rounds of raising a provisioned candidate the replay says throttles. */
#define RAISE_ROUNDS 60
#define RAISE_STEP 1.05

/* Whether a replay stays within the budget. */
static bool within(const struct demand_sim_result *r, double budget)
{
	return r->share <= budget + 1e-12;
}

static bool replay(const struct demand_trace *tr, const struct ebs_volume *v,
		   const struct demand_recommend_opts *o, struct demand_sim_result *r)
{
	char err[128];
	return demand_simulate(tr, v, &o->sim, r, err, sizeof(err)) == 0;
}

/* gp3 or io2: sized for the need by recommend_size, the need raised
 * until the replay keeps within the budget (the backlog, the instance
 * can ask more than the quantile). */
static void search_provisioned(const struct demand_trace *tr, const struct demand_recommend_opts *o,
			       struct recommend_need need, struct recommend_candidate *c,
			       struct demand_sim_result *r)
{
	for (int round = 0; round < RAISE_ROUNDS; round++) {
		struct recommend_candidate next = { .type = c->type };
		recommend_size(&need, &next);
		*c = next;
		if (!c->feasible || !replay(tr, &c->volume, o, r) || within(r, o->budget))
			return;
		need.iops = ceil(fmax(need.iops * RAISE_STEP, need.iops + 1));
		need.mibs = ceil(fmax(need.mibs * RAISE_STEP, need.mibs + 1));
	}
	c->feasible = false;
	recommend_reason(c, "%s: no setting found that keeps within the budget.",
			 ebs_type_name(c->type));
}

/* gp2: the smallest size, from the one wanted, whose replay keeps within
 * the budget; more size is more baseline and throughput, so a binary
 * search finds it. */
static void search_gp2(const struct demand_trace *tr, const struct demand_recommend_opts *o,
		       double gib, struct recommend_candidate *c, struct demand_sim_result *r)
{
	const struct ebs_type_rules *rules = ebs_type_rules(EBS_GP2);
	double lo = fmax(ceil(gib), rules->min_gib), hi = rules->max_gib;
	struct ebs_volume v;

	ebs_volume_init(&v, EBS_GP2, hi);
	if (!replay(tr, &v, o, r) || !within(r, o->budget)) {
		recommend_reason(c,
				 "gp2 cannot: even at %.0f GiB it would have throttled %.1f %% "
				 "of the time.",
				 hi, 100 * r->share);
		return;
	}
	while (lo < hi) {
		double mid = floor((lo + hi) / 2);
		ebs_volume_init(&v, EBS_GP2, mid);
		if (replay(tr, &v, o, r) && within(r, o->budget))
			hi = mid;
		else
			lo = mid + 1;
	}
	c->feasible = true;
	ebs_volume_init(&c->volume, EBS_GP2, lo);
	replay(tr, &c->volume, o, r);
	recommend_reason(c,
			 "The smallest gp2 whose baseline (%.0f IOPS) and 5.4 M-credit bucket "
			 "serve the trace%s: %.0f GiB.",
			 ebs_volume_iops(&c->volume),
			 o->budget > 0 ? " within the budget" : " without throttling", lo);
}

/* The sentence each candidate's replay earns. */
static void replay_reason(struct recommend_candidate *c, const struct demand_sim_result *r)
{
	if (r->share <= 0)
		recommend_reason(c, "Replayed, it never throttles the trace.");
	else
		recommend_reason(c,
				 "Replayed, it throttles %.2f %% of the time (the longest stretch "
				 "%.0f s).",
				 100 * r->share, r->worst_s);
	if (!isnan(r->min_credit_pct))
		recommend_reason(c, "Its bucket's lowest balance: %.0f %%.", r->min_credit_pct);
}

/* The cheapest candidate at a known price, or -1. */
static int cheapest(const struct recommend_device *d)
{
	int best = -1;
	for (int i = 0; i < d->ncand; i++) {
		const struct recommend_candidate *c = &d->cand[i];
		if (!c->feasible || isnan(c->monthly_usd) || recommend_p99_misses(&c->p99))
			continue;
		if (best < 0 || c->monthly_usd < d->cand[best].monthly_usd - 0.005)
			best = i;
	}
	return best;
}

static void summarise(struct demand_answer *a)
{
	struct recommend_device *d = &a->rec;
	const struct recommend_candidate *c = d->choice >= 0 ? &d->cand[d->choice] : NULL;

	if (!c) {
		snprintf(d->summary, sizeof(d->summary),
			 "%s: no candidate serves the demand at a known price.", d->label);
		return;
	}
	int n = snprintf(d->summary, sizeof(d->summary),
			 "%s: %s %.0f GiB at %.0f IOPS and %.0f MiB/s for $%.2f a month", d->label,
			 ebs_type_name(c->type), c->volume.size_gib, c->iops,
			 ebs_volume_mibs(&c->volume), c->monthly_usd);
	if (n < 0 || (size_t)n >= sizeof(d->summary))
		return;
	if (a->has_current && !isnan(d->current_usd))
		snprintf(d->summary + n, sizeof(d->summary) - (size_t)n,
			 " against $%.2f now, which throttled %.2f %% of the time.", d->current_usd,
			 100 * a->current.share);
	else
		snprintf(d->summary + n, sizeof(d->summary) - (size_t)n, ".");
}

int demand_recommend(const struct demand_trace *tr, const struct demand_recommend_opts *o,
		     const struct ebs_prices *prices, struct demand_answer *out, char *err,
		     size_t errlen)
{
	struct recommend_device *d = &out->rec;
	double unit = ebs_type_rules(EBS_GP3)->unit_bytes;

	memset(out, 0, sizeof(*out));
	if (!tr->n)
		return error_set(err, errlen, "%s: no demand in the trace", tr->volume);
	snprintf(d->label, sizeof(d->label), "%s", tr->volume);
	if (!strncmp(tr->volume, "vol-", 4))
		snprintf(d->volume_id, sizeof(d->volume_id), "%s", tr->volume);
	out->stats = demand_stats_of(tr);
	out->peak_factor = o->sim.peak_factor >= 1 ? o->sim.peak_factor : 1;
	out->budget = o->budget;
	out->interval_s = tr->interval_s;
	out->t0 = tr->p[0].t;
	out->gaps = tr->gaps;
	out->partial = tr->partial;
	out->metrics = tr->metrics;
	d->current_usd = NAN;
	out->balance_first_pct = tr->has_balance ? tr->balance_first_pct : NAN;
	out->balance_min_pct = tr->has_balance ? tr->balance_min_pct : NAN;
	out->balance_min_t = tr->has_balance ? tr->balance_min_t : NAN;
	if (o->current) {
		/* The volume CloudWatch measured starts where its BurstBalance did;
		 * a candidate, new, starts full. */
		struct demand_recommend_opts now = *o;
		now.sim.start_spent_pct = 100 - out->balance_first_pct; /* NaN: full */
		d->current = *o->current;
		d->current_usd = ebs_monthly_cost(o->current, prices);
		out->has_current = replay(tr, o->current, &now, &out->current);
	}
	struct demand_need_rate q = demand_rate_quantile(tr, unit, o->budget, out->peak_factor);
	d->need = (struct recommend_need){
		.iops = ceil(q.units),
		.mibs = ceil(q.mibs),
		.gib = o->gib > 0   ? o->gib
		       : o->current ? o->current->size_gib
				    : 1,
	};
	d->ncand = DEMAND_CANDIDATES;
	for (int i = 0; i < DEMAND_CANDIDATES; i++) {
		struct recommend_candidate *c = &d->cand[i];
		c->type = candidate_types[i];
		c->monthly_usd = c->delta_usd = NAN;
		if (c->type == EBS_GP2)
			search_gp2(tr, o, d->need.gib, c, &out->sim[i]);
		else
			search_provisioned(tr, o, d->need, c, &out->sim[i]);
		if (!c->feasible)
			continue;
		replay_reason(c, &out->sim[i]);
		c->iops = ebs_volume_iops(&c->volume);
		c->mibs = recommend_sustained_mibs(&c->volume);
		c->monthly_usd = ebs_monthly_cost(&c->volume, prices);
		c->delta_usd = c->monthly_usd - d->current_usd;
		if (o->results)
			recommend_candidate_p99(o->results, &d->need, c);
	}
	d->choice = cheapest(d);
	if (d->choice >= 0)
		d->cand[d->choice].chosen = true;
	summarise(out);
	return 0;
}
