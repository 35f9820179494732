/* demand_recommend.h - `ebsbench recommend --demand`: for one volume's
 * demand trace, the cheapest gp3, io2 and gp2 that would never have
 * throttled it (or at most a budget of the time), each replayed through
 * demand_sim.h, beside what the current volume did and costs. */
#ifndef EBSBENCH_DEMAND_RECOMMEND_H
#define EBSBENCH_DEMAND_RECOMMEND_H

#include <jansson.h>

#include "decide/demand_sim.h"
#include "decide/recommend.h"

struct demand_recommend_opts {
	const struct ebs_volume *current; /* NULL: not known */
	struct demand_sim_opts sim;
	double budget; /* share of the time a candidate may throttle, 0..1 */
	double gib;    /* the size wanted; 0: the current volume's, else 1 */
	/* A results.json (analysis present) whose load curve gives the p99
	 * at the demand's level; NULL: none. */
	const json_t *results;
};

struct demand_answer {
	/* The search in recommend's own form (label: the trace's volume),
	 * so its table and apply files serve this too. */
	struct recommend_device rec;
	bool has_current;
	struct demand_sim_result current;
	struct demand_sim_result sim[RECOMMEND_CANDIDATES];
	struct demand_stats stats;
	double t0; /* the trace's first interval */
	double peak_factor, budget, interval_s;
	size_t gaps;
	bool partial;
	/* CloudWatch's BurstBalance (NaN: not in the trace), the current
	 * gp2's replay starting from its first value. */
	double balance_first_pct, balance_min_pct, balance_min_t;
	unsigned metrics;
};

/* Searches and replays; -1 with a reason for a trace without points. */
int demand_recommend(const struct demand_trace *tr, const struct demand_recommend_opts *o,
		     const struct ebs_prices *prices, struct demand_answer *out, char *err,
		     size_t errlen);

#endif
