/* test_rng.h - the one pseudo-random generator the unit tests draw from:
 * splitmix64, whose state is a plain counter the caller holds, so every
 * test names its seed and repeats exactly (no rand(), no hidden state).
 * Also the distributions the tests need: uniform, log-uniform, a bounded
 * bell and Box-Muller's normal. */
#ifndef EBSBENCH_TEST_RNG_H
#define EBSBENCH_TEST_RNG_H

#include <math.h>
#include <stdint.h>

#define TEST_RNG_PI 3.14159265358979323846 /* M_PI is not ISO C */

struct test_rng {
	uint64_t state; /* the seed; any value, 0 included */
};

/* splitmix64: the next 64 random bits. */
static inline uint64_t test_rng_next(struct test_rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, 1), with all 53 bits of a double's mantissa. */
static inline double test_rng_unit(struct test_rng *r)
{
	return (double)(test_rng_next(r) >> 11) * 0x1p-53;
}

/* Log-uniform in [2^lo_bits, 2^hi_bits): every octave equally likely. */
static inline uint64_t test_rng_log_uniform(struct test_rng *r, unsigned lo_bits, unsigned hi_bits)
{
	return (uint64_t)exp2(lo_bits + (hi_bits - lo_bits) * test_rng_unit(r));
}

/* The mean of four uniforms, moved to [-1, 1]: bell-shaped noise that is
 * never beyond +-1. */
static inline double test_rng_bell(struct test_rng *r)
{
	return (test_rng_unit(r) + test_rng_unit(r) + test_rng_unit(r) + test_rng_unit(r)) / 2 - 1;
}

/* Standard normal (Box-Muller): unbounded tails. */
static inline double test_rng_normal(struct test_rng *r)
{
	double u = 1.0 - test_rng_unit(r); /* (0, 1]: log(u) is finite */

	return sqrt(-2.0 * log(u)) * cos(2.0 * TEST_RNG_PI * test_rng_unit(r));
}

#endif
