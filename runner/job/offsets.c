/* offsets.c - sequential, permuted and uniform random block offsets. */
#include "job/offsets.h"

static uint64_t mix64(uint64_t x)
{
	/* splitmix64's finaliser: every input bit reaches every output bit. */
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++) {
		seed += 0x9e3779b97f4a7c15ull;
		r->s[i] = mix64(seed);
	}
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

/* Lemire's multiply-shift; the bias is below 2^-32 for any block count a
 * disk can have, far under what a benchmark can see. */
uint64_t rng_below(struct rng *r, uint64_t bound)
{
	return (uint64_t)(((unsigned __int128)rng_next(r) * bound) >> 64);
}

void permutation_init(struct permutation *p, uint64_t size, uint64_t seed)
{
	p->size = size;
	p->half_bits = 1;
	/* The smallest even-bit domain holding size is under 4 * size, so
	 * cycle walking takes fewer than four steps on average. */
	while (p->half_bits < 32 && (1ull << (2 * p->half_bits)) < size)
		p->half_bits++;
	for (int i = 0; i < 4; i++)
		p->keys[i] = mix64(seed + 0x632be59bd9b4e019ull * (uint64_t)(i + 1));
}

static uint64_t feistel(const struct permutation *p, uint64_t x)
{
	uint64_t mask = (1ull << p->half_bits) - 1;
	uint64_t left = x >> p->half_bits, right = x & mask;
	for (int round = 0; round < 4; round++) {
		uint64_t next = left ^ (mix64(right ^ p->keys[round]) & mask);
		left = right;
		right = next;
	}
	return (left << p->half_bits) | right;
}

uint64_t permutation_apply(const struct permutation *p, uint64_t index)
{
	/* A bijection on the domain walked until it lands in range is a
	 * bijection on the range: no block is visited twice or skipped. */
	uint64_t x = index;
	do
		x = feistel(p, x);
	while (x >= p->size);
	return x;
}

void offset_gen_init(struct offset_gen *g, uint64_t base, uint64_t region_bytes, uint32_t bs,
		     bool random, bool uniform, uint64_t seed)
{
	g->base = base;
	g->bs = bs;
	g->blocks = region_bytes / bs;
	g->random = random;
	g->uniform = uniform;
	g->next = 0;
	g->pass = 0;
	g->seed = seed;
	permutation_init(&g->perm, g->blocks, seed);
	rng_seed(&g->rng, seed);
}

uint64_t offset_gen_next(struct offset_gen *g, bool *wrapped)
{
	*wrapped = false;
	if (g->next == g->blocks) {
		/* A new pass gets a new order, as a re-run of fio would. */
		g->next = 0;
		g->pass++;
		*wrapped = true;
		if (g->random)
			permutation_init(&g->perm, g->blocks, g->seed + g->pass);
	}
	uint64_t block = g->next++;
	if (g->random)
		block = g->uniform ? rng_below(&g->rng, g->blocks)
				   : permutation_apply(&g->perm, block);
	return g->base + block * g->bs;
}
