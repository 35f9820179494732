/* offsets.c - sequential, permuted and uniform random block offsets. */
#include "job/offsets.h"

void offsets_permutation_init(struct permutation *p, uint64_t size, uint64_t seed)
{
	p->size = size;
	p->half_bits = 1;
	/* The smallest even-bit domain holding size is under 4 * size, so
	 * cycle walking takes fewer than four steps on average. */
	while (p->half_bits < 32 && (1ull << (2 * p->half_bits)) < size)
		p->half_bits++;
	for (int i = 0; i < 4; i++)
		p->keys[i] = rng_mix64(seed + 0x632be59bd9b4e019ull * (uint64_t)(i + 1));
}

static uint64_t feistel(const struct permutation *p, uint64_t x)
{
	uint64_t mask = (1ull << p->half_bits) - 1;
	uint64_t left = x >> p->half_bits, right = x & mask;
	for (int round = 0; round < 4; round++) {
		uint64_t next = left ^ (rng_mix64(right ^ p->keys[round]) & mask);
		left = right;
		right = next;
	}
	return (left << p->half_bits) | right;
}

uint64_t offsets_permutation_apply(const struct permutation *p, uint64_t index)
{
	/* A bijection on the domain walked until it lands in range is a
	 * bijection on the range: no block is visited twice or skipped. */
	uint64_t x = index;
	do
		x = feistel(p, x);
	while (x >= p->size);
	return x;
}

void offsets_init(struct offset_gen *g, uint64_t base, uint64_t region_bytes, uint32_t bs,
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
	offsets_permutation_init(&g->perm, g->blocks, seed);
	rng_init(&g->rng, seed);
}

uint64_t offsets_next(struct offset_gen *g, bool *wrapped)
{
	*wrapped = false;
	if (g->next == g->blocks) {
		/* A new pass gets a new order, as a re-run of fio would. */
		g->next = 0;
		g->pass++;
		*wrapped = true;
		if (g->random)
			offsets_permutation_init(&g->perm, g->blocks, g->seed + g->pass);
	}
	uint64_t block = g->next++;
	if (g->random)
		block = g->uniform ? rng_below(&g->rng, g->blocks)
				   : offsets_permutation_apply(&g->perm, block);
	return g->base + block * g->bs;
}
