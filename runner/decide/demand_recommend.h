/* demand_recommend.h - `ebsbench recommend --demand`: for one volume's
 * demand trace, the cheapest gp3, io2 and gp2 that would never have
 * throttled it (or at most a budget of the time), each replayed through
 * demand_sim.h, beside what the current volume did and costs. */
#ifndef EBSBENCH_DEMAND_RECOMMEND_H
#define EBSBENCH_DEMAND_RECOMMEND_H

#include <jansson.h>
#include <stdio.h>

#include "decide/demand_sim.h"
#include "decide/recommend.h"

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

/* `recommend --demand`'s question, once its arguments are read. */
struct demand_question {
	const char *const *files; /* the traces: CloudWatch JSON or docs/demand.md's CSV */
	size_t nfiles;
	const char *peak_from; /* a finer trace whose peak-to-mean is the peak factor, or NULL */
	double peak_factor;    /* given (1..1000), or 0: 1, or peak_from's */
	double budget;	       /* share of the time a candidate may throttle, 0..1 */
	double gib;	       /* the size wanted; 0: the current volume's */
	/* The instance (NULL: the results' environment.instance_type, if known)
	 * and the current volume (NULL: each trace's device in the results). */
	const struct instance_ebs_limits *instance;
	const struct ebs_volume *volume;
};

/* Reads q's traces into *set and searches each against its current volume
 * (q->volume, or the results' device of the trace's volume ID, else their
 * only EBS device): *ans (calloc'd, the caller frees it) holds *n answers
 * in the traces' order; a trace that cannot be searched is one line on
 * warn and left out.  run: an analysed results.json, or NULL.  0, or -1
 * with a reason (a trace unreadable: the user's input). */
int demand_recommend_all(const struct demand_question *q, const json_t *run,
			 const struct ebs_prices *prices, struct demand_set *set,
			 struct demand_answer **ans, size_t *n, FILE *warn, char *err,
			 size_t errlen);

#endif
