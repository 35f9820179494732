/* rate.c - when a rate-limited job's next I/O is due: linear spacing or
 * poisson arrivals, per direction, from one origin. */
#include "job/rate.h"
#include "job/internal.h"

#include <math.h>

/* Keeps the poisson streams of the two directions apart, and apart from
 * the offsets and the read/write mix drawn from the same job seed. */
#define RATE_SEED_SALT 0x7261746570726f63ull /* "rateproc" */

void rate_init(struct rate_schedule *r, const struct job_options *o, uint64_t seed,
	       uint64_t origin_ns)
{
	*r = (struct rate_schedule){ .process = o->rate_process, .origin_ns = origin_ns };
	for (int d = 0; d < DDIR_COUNT; d++) {
		r->iops[d] = options_rw_does(o->rw, (enum ddir)d) ? o->rate_iops[d] : 0;
		rng_init(&r->poisson_rng[d], rng_mix64(seed ^ RATE_SEED_SALT) + (uint64_t)d);
	}
}

/* Due time of direction d's next I/O.  Linear: exactly taken * 1e9 / R
 * nanoseconds after the origin, in integers, so no error accumulates over
 * a long run; poisson: the running sum of its gaps (the first I/O at the
 * origin, as in fio). */
static uint64_t due_ns(const struct rate_schedule *r, enum ddir d)
{
	if (r->process == RATE_POISSON)
		return r->origin_ns + (uint64_t)r->poisson_at_ns[d];
	return r->origin_ns + (uint64_t)((unsigned __int128)r->taken[d] * 1000000000u / r->iops[d]);
}

enum ddir rate_next(const struct rate_schedule *r, uint64_t *due)
{
	enum ddir next = DDIR_COUNT;
	for (int d = 0; d < DDIR_COUNT; d++) {
		if (!r->iops[d])
			continue;
		uint64_t t = due_ns(r, (enum ddir)d);
		if (next == DDIR_COUNT || t < *due) {
			next = (enum ddir)d;
			*due = t;
		}
	}
	return next;
}

/* An exponential gap of mean 1e9 / iops ns: -ln(U) with U uniform in
 * (0, 1], from the top 53 bits of the generator (never ln 0). */
static double exponential_gap_ns(struct rng *g, uint32_t iops)
{
	double u = (double)((rng_next(g) >> 11) + 1) * 0x1p-53;
	return -log(u) * 1e9 / iops;
}

void rate_take(struct rate_schedule *r, enum ddir d)
{
	r->taken[d]++;
	if (r->process == RATE_POISSON)
		r->poisson_at_ns[d] += exponential_gap_ns(&r->poisson_rng[d], r->iops[d]);
}
