/* recommend.h - the decision: for a requirement (IOPS, MiB/s, p99, size),
 * the cheapest configuration of each volume type that meets it, priced
 * against the measured volume, with the reasons in words.
 *
 * Pure functions over a results.json document (its phases and analysis)
 * and a price table.  With no requirement given the need is "the same as
 * this volume, sustained": what it delivered on burst and after it, at the
 * rated figures when the measurement reached them (within
 * VERDICT_TOLERANCE, the analysis' "as predicted") or went past them, so a
 * gp3 provisioned to that need keeps sustained what the volume gave while
 * it lasted.
 * A need taken from a measurement is met by gp3's included 3,000 IOPS or
 * 125 MiB/s when it is within VERDICT_TOLERANCE above them: the
 * measurement cannot tell them apart (a 125 MiB/s gp3 delivers 127).
 * A given requirement is met exactly. */
#ifndef EBSBENCH_RECOMMEND_H
#define EBSBENCH_RECOMMEND_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"

/* The candidates, in the order they are shown. */
#define RECOMMEND_CANDIDATES 3
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

/* The search for one measured device. */
struct recommend_device {
	char label[32];
	char volume_id[32]; /* "" when the results hold none */
	struct ebs_volume current;
	double current_usd;
	struct recommend_delivered delivered;
	struct recommend_need need;
	struct recommend_candidate cand[RECOMMEND_CANDIDATES];
	int choice; /* index into cand of the cheapest that meets it; -1 none */
	char summary[RECOMMEND_REASON_LEN]; /* one sentence: the choice and its delta */
};

/* The search for one results.json device (analysis present), priced
 * from prices.  -1 with a reason for a device the EBS model does not
 * cover (instance store, other NVMe). */
int recommend_device(const json_t *results, const json_t *device, const struct recommend_ask *ask,
		     const struct ebs_prices *prices, struct recommend_device *out, char *err,
		     size_t errlen);
/* recommend_device for every EBS device of the results, in order, at
 * most cap of them (the others are skipped); returns how many. */
size_t recommend_all(const json_t *results, const struct recommend_ask *ask,
		     const struct ebs_prices *prices, struct recommend_device *out, size_t cap);
/* Whether two volumes perform alike: same type and, for gp2, size; for
 * the provisioned types, IOPS and throughput. */
bool recommend_same_config(const struct ebs_volume *a, const struct ebs_volume *b);
/* The clat p99 measured on device at load iops or above: the lowest
 * loadcurve step whose offered load covers it, else the saturating
 * randread phase whose measured IOPS covers it. */
struct recommend_p99 recommend_p99_at(const json_t *results, const char *device, double iops);

#endif
