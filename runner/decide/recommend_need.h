/* recommend_need.h - what a recommendation weighs: what the user asked,
 * what the volume delivered, the need that follows, and each candidate with
 * its measured p99 (types only: recommend.c searches, recommend_p99.c
 * measures, both over these). */
#ifndef EBSBENCH_RECOMMEND_NEED_H
#define EBSBENCH_RECOMMEND_NEED_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"

/* The candidates, in the order they are shown: gp3, io2, gp2, st1, sc1
 * (--demand weighs the first three; recommend_device.ncand says). */
#define RECOMMEND_CANDIDATES 5
#define RECOMMEND_REASONS 6
#define RECOMMEND_REASON_LEN 320

/* What the user asked for; 0 (or NaN) means not asked. */
struct recommend_ask {
	double iops, mibs, p99_ms;
	double gib; /* the size to price at; 0: the volume's own */
};

/* What the volume delivered, from its phases and the analysis; NaN where
 * the results hold no phase that shows it. */
struct recommend_delivered {
	double burst_iops;	       /* randread before its cliff, or its mean */
	double sustained_iops;	       /* after the cliff, or the mean */
	double burst_s;		       /* when the cliff came; NaN: none */
	double seq_mibs;	       /* the best sequential phase but layout */
	double rated_iops, rated_mibs; /* the model's, for the volume */
};

/* The need a candidate must meet; a field 0 needs nothing. */
struct recommend_need {
	double iops, mibs, p99_ms, gib;
	bool measured; /* from the delivered figures, not given */
};

enum recommend_p99_state {
	P99_NOT_MEASURED, /* no phase at that load on a volume of that configuration */
	P99_MEASURED,
};

struct recommend_p99 {
	enum recommend_p99_state state;
	double ms;	 /* clat p99 */
	double at_iops;	 /* the load it was measured at */
	char device[32]; /* the device it was measured on */
	char phase[48];	 /* "loadcurve 25 %", "randread" */
	bool meets;	 /* measured and at most the p99 asked (true when none asked) */
	bool bound;	 /* from a saturating randread, at a higher load than the need's:
			  * it can confirm a p99 asked, never rule a candidate out */
};

/* The p99 at the need's load is known to miss the one asked (a bound
 * above it is not: at the need's lower load it may well meet it). */
static inline bool recommend_p99_misses(const struct recommend_p99 *p)
{
	return p->state == P99_MEASURED && !p->meets && !p->bound;
}

/* Nothing measured says whether the candidate meets the p99 at this load. */
static inline bool recommend_p99_unknown(const struct recommend_p99 *p)
{
	return p->state != P99_MEASURED || (!p->meets && p->bound);
}

struct recommend_candidate {
	enum ebs_type type;
	bool feasible; /* the type can be provisioned for the need at all */
	bool chosen;
	struct ebs_volume volume;      /* what to provision */
	double iops, mibs;	       /* what it delivers, sustained */
	double monthly_usd, delta_usd; /* NaN: a price unknown */
	struct recommend_p99 p99;
	char reasons[RECOMMEND_REASONS][RECOMMEND_REASON_LEN];
	size_t nreasons;
};

#endif
