/* test_rng.c - the offsets' generator: splitmix64 seeding and xoshiro256**
 * outputs match the published algorithms, a seed repeats its sequence,
 * and rng_below stays under its bound. */
#include "check.h"
#include "job/rng.h"

/* Seed 0 spreads into splitmix64's first four outputs (its well-known
 * sequence); the outputs are xoshiro256**'s from that state, worked out
 * with an independent implementation. */
static void test_known_answers(struct checks *checks)
{
	struct rng r;
	rng_init(&r, 0);
	CHECK_EQ_U64(r.s[0], 0xe220a8397b1dcdafull);
	CHECK_EQ_U64(r.s[1], 0x6e789e6aa1b965f4ull);
	CHECK_EQ_U64(r.s[2], 0x06c45d188009454full);
	CHECK_EQ_U64(r.s[3], 0xf88bb8a8724c81ecull);
	CHECK_EQ_U64(rng_next(&r), 0x99ec5f36cb75f2b4ull);
	CHECK_EQ_U64(rng_next(&r), 0xbf6e1f784956452aull);
	CHECK_EQ_U64(rng_next(&r), 0x1a5f849d4933e6e0ull);
	/* The 1,000th: every step of the state update has had its say. */
	uint64_t last = 0;
	for (int i = 3; i < 1000; i++)
		last = rng_next(&r);
	CHECK_EQ_U64(last, 0x7aac8c483a2edd2full);
}

static void test_seed_repeats_and_differs(struct checks *checks)
{
	struct rng a, b, c;
	rng_init(&a, 42);
	rng_init(&b, 42);
	rng_init(&c, 43);
	unsigned same = 0, differs = 0;
	for (int i = 0; i < 1000; i++) {
		uint64_t x = rng_next(&a);
		same += x == rng_next(&b);
		differs += x != rng_next(&c);
	}
	CHECK_EQ_U64(same, 1000);
	CHECK_EQ_U64(differs, 1000);
}

static void test_below_bound_covers_range(struct checks *checks)
{
	struct rng r;
	unsigned seen[7] = { 0 }, over = 0;
	rng_init(&r, 7);
	for (int i = 0; i < 7000; i++) {
		uint64_t v = rng_below(&r, 7);
		if (v >= 7)
			over++;
		else
			seen[v]++;
	}
	CHECK_EQ_U64(over, 0);
	for (int i = 0; i < 7; i++)
		CHECK(seen[i] > 800 && seen[i] < 1200);
	CHECK_EQ_U64(rng_below(&r, 1), 0);
}

CHECK_MAIN(test_known_answers, test_seed_repeats_and_differs, test_below_bound_covers_range)
