/* demand_sim.h - a volume's real demand (demand/demand.h) replayed
 * through the EBS model's limits (ebs_model.h): when and for how long a
 * volume of a given configuration would have throttled it.
 *
 * Per interval the demand is its mean rate: operations and bytes over
 * the interval.  I/O counts in the type's units (256 KiB for SSDs) as
 * max(operations, bytes / unit): exact when no I/O is over a unit or all
 * are alike.  What the volume cannot serve in an interval waits (the
 * backlog) and is asked again in the next, as a queue would.  A gp2's
 * bucket starts full, drains at what it serves above its baseline and
 * refills at the baseline; gap intervals are idle.  The instance's EBS
 * limits apply on top when it is known, its burst for
 * burst_seconds_per_day in each day of the trace. */
#ifndef EBSBENCH_DEMAND_SIM_H
#define EBSBENCH_DEMAND_SIM_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"
#include "demand/demand.h"

struct demand_sim_opts {
	const struct instance_ebs_limits *instance; /* NULL: unknown, not limiting */
	/* How far above its interval's mean the busiest moment runs (1: the
	 * trace is fine enough; from demand_peak_to_mean of an observe trace,
	 * or a benchmark's windows).  An interval whose mean fits under the
	 * cap but whose peak does not counts as hidden throttling. */
	double peak_factor;
	/* How much of a bucket is spent at the trace's start, in percent
	 * (100 - CloudWatch's first BurstBalance); 0 or NaN: full. */
	double start_spent_pct;
};

/* The balance a gp2's bucket held, as a few samples across the trace:
 * the lowest in each stretch. */
#define DEMAND_BALANCE_POINTS 12
struct demand_balance {
	double t, percent;
};

struct demand_sim_result {
	double seconds;	    /* the trace's span, gaps included */
	double throttled_s; /* time the demand (with its backlog) exceeded what was allowed */
	double hidden_s;    /* time only the peak factor's peak exceeded it */
	double share;	    /* (throttled_s + hidden_s) / seconds */
	double worst_s;	    /* the longest run of intervals with throttling */
	double worst_start; /* its first interval's start; NaN: none */
	double max_backlog_units;
	double max_backlog_s; /* the largest backlog, in seconds of the sustained cap */
	enum ebs_bound bound; /* what bound most of the throttled time */
	/* gp2 (any volume with a bucket); NaN without one or never dry. */
	double dry_at;	       /* when the bucket first ran dry */
	double dry_s;	       /* time with an empty bucket */
	double min_credit_pct; /* the lowest balance */
	struct demand_balance balance[DEMAND_BALANCE_POINTS];
	size_t nbalance;
};

#endif
