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

#include "decide/recommend_need.h"

/* The search for one measured device. */
struct recommend_device {
	char label[32];
	char volume_id[32]; /* "" when the results hold none */
	struct ebs_volume current;
	double current_usd;
	struct recommend_delivered delivered;
	struct recommend_need need;
	struct recommend_candidate cand[RECOMMEND_CANDIDATES];
	int ncand;  /* how many of cand were searched */
	int choice; /* index into cand of the cheapest that meets it; -1 none */
	char summary[RECOMMEND_REASON_LEN]; /* one sentence: the choice and its delta */
};

/* recommend_device for every EBS device of the results, in order, at
 * most cap of them (the others are skipped); returns how many. */
size_t recommend_all(const json_t *results, const struct recommend_ask *ask,
		     const struct ebs_prices *prices, struct recommend_device *out, size_t cap);
/* Whether two volumes perform alike: same type and, for gp2, size; for
 * the provisioned types, IOPS and throughput. */
bool recommend_same_config(const struct ebs_volume *a, const struct ebs_volume *b);

#endif
