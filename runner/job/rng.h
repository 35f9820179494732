/* rng.h - the seeded xoshiro256** generator behind random offsets: small,
 * fast and good enough to place I/O, never for anything secret. */
#ifndef EBSBENCH_RNG_H
#define EBSBENCH_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4];
};

/* Starts r from a random seed: the same seed gives the same sequence. */
void rng_init(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, bound). */
uint64_t rng_below(struct rng *r, uint64_t bound);
/* splitmix64's finaliser: every input bit reaches every output bit, so
 * nearby seeds give unrelated keys. */
uint64_t rng_mix64(uint64_t x);

#endif
