/* recommend_p99.h - a candidate's measured p99 (recommend_p99.c). */
#ifndef EBSBENCH_RECOMMEND_P99_H
#define EBSBENCH_RECOMMEND_P99_H

#include <jansson.h>
#include <stdbool.h>

#include "decide/recommend_need.h"

/* Measured IOPS of a phase, both directions. */
double recommend_phase_iops(const json_t *phase);
/* Whether the EBS model covers a results.json device. */
bool recommend_is_ebs(const json_t *device);
/* The p99 at the need's load on a device of c's configuration in these
 * results, whether it meets the p99 asked, and why not. */
void recommend_candidate_p99(const json_t *results, const struct recommend_need *n,
			     struct recommend_candidate *c);

/* The clat p99 measured on device at load iops or above: the lowest
 * loadcurve step whose offered load covers it, else the saturating
 * randread phase whose measured IOPS covers it. */
struct recommend_p99 recommend_p99_at(const json_t *results, const char *device, double iops);

#endif
