/* recommend_size.h - sizing a candidate (recommend_size.c). */
#ifndef EBSBENCH_RECOMMEND_SIZE_H
#define EBSBENCH_RECOMMEND_SIZE_H

#include "decide/recommend.h"

/* Sizes c (its type set) for the need: c->volume and c->feasible, with
 * the reasons. */
void recommend_size(const struct recommend_need *n, struct recommend_candidate *c);
/* Appends one sentence to a candidate's reasons (the last ones are
 * dropped past RECOMMEND_REASONS, never cut mid-sentence). */
__attribute__((format(printf, 2, 3))) void recommend_reason(struct recommend_candidate *c,
							    const char *fmt, ...);
/* The MiB/s a volume sustains once any burst is spent. */
double recommend_sustained_mibs(const struct ebs_volume *v);

#endif
