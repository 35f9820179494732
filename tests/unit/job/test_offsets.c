/* test_offsets.c - the random map visits every block exactly once per pass. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "job/offsets.h"
#include "lib/lib.h"

/* Every size class: tiny, odd, just above and below powers of four. */
static const uint64_t sizes[] = { 1, 2, 3, 5, 7, 64, 100, 1000, 4095, 4096, 4097, 65537, 1000003 };

static void test_permutation_is_bijection(struct checks *checks)
{
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		uint64_t n = sizes[i];
		unsigned char *seen = calloc(n, 1);
		struct permutation p;
		offsets_permutation_init(&p, n, 42 + i);
		uint64_t fixed_points = 0;
		bool ok = true;
		for (uint64_t k = 0; k < n && ok; k++) {
			uint64_t v = offsets_permutation_apply(&p, k);
			ok = CHECK(v < n) && CHECK(!seen[v]);
			if (ok)
				seen[v] = 1;
			fixed_points += v == k;
		}
		/* A shuffle, not the identity: few blocks stay in place. */
		if (n >= 1000)
			CHECK(fixed_points < n / 100);
		free(seen);
	}
}

static void test_offsets_cover_region_once_per_pass(struct checks *checks)
{
	const uint32_t bs = 4096;
	const uint64_t base = 1 << 20, blocks = 5003;
	unsigned char *seen = calloc(blocks, 1);
	struct offset_gen g;
	offsets_init(&g, base, blocks * bs + 100, bs, true, false, 7);
	CHECK_EQ_U64(g.blocks, blocks);
	for (int pass = 0; pass < 2; pass++) {
		memset(seen, 0, blocks);
		for (uint64_t k = 0; k < blocks; k++) {
			bool wrapped;
			uint64_t off = offsets_next(&g, &wrapped);
			CHECK(wrapped == (pass == 1 && k == 0));
			if (!CHECK(off >= base && (off - base) % bs == 0 &&
				   (off - base) / bs < blocks))
				break;
			CHECK(!seen[(off - base) / bs]);
			seen[(off - base) / bs] = 1;
		}
	}
	free(seen);
}

static void test_sequential_and_wrap(struct checks *checks)
{
	struct offset_gen g;
	bool wrapped;
	offsets_init(&g, 8192, 3 * 4096, 4096, false, false, 1);
	CHECK_EQ_U64(offsets_next(&g, &wrapped), 8192);
	CHECK(!wrapped);
	CHECK_EQ_U64(offsets_next(&g, &wrapped), 12288);
	CHECK_EQ_U64(offsets_next(&g, &wrapped), 16384);
	CHECK_EQ_U64(offsets_next(&g, &wrapped), 8192);
	CHECK(wrapped);
}

static void test_passes_differ_and_seeds_repeat(struct checks *checks)
{
	struct offset_gen a, b;
	bool wrapped;
	offsets_init(&a, 0, 1000 * 512, 512, true, false, 99);
	offsets_init(&b, 0, 1000 * 512, 512, true, false, 99);
	uint64_t first[1000], same = 0, repeat = 0;
	for (int k = 0; k < 1000; k++) {
		first[k] = offsets_next(&a, &wrapped);
		repeat += first[k] == offsets_next(&b, &wrapped);
	}
	CHECK_EQ_U64(repeat, 1000); /* randrepeat: same seed, same order */
	for (int k = 0; k < 1000; k++)
		same += first[k] == offsets_next(&a, &wrapped);
	CHECK(same < 50);
}

static void test_norandommap_is_uniform(struct checks *checks)
{
	enum { BLOCKS = 100, DRAWS = 200000 };
	unsigned counts[BLOCKS] = { 0 };
	struct offset_gen g;
	bool wrapped;
	offsets_init(&g, 0, BLOCKS * 4096, 4096, true, true, 3);
	for (int k = 0; k < DRAWS; k++)
		counts[offsets_next(&g, &wrapped) / 4096]++;
	/* Expect 2000 per block; 5 sigma is about 220. */
	for (int b = 0; b < BLOCKS; b++)
		if (!CHECK(counts[b] > 1780 && counts[b] < 2220))
			break;
}

CHECK_MAIN(test_permutation_is_bijection, test_offsets_cover_region_once_per_pass,
	   test_sequential_and_wrap, test_passes_differ_and_seeds_repeat,
	   test_norandommap_is_uniform)
