/* offsets.h - where the next I/O goes.
 *
 * Sequential walks the region block by block.  Random visits every block
 * exactly once per pass in a pseudo-random order with O(1) memory: a keyed
 * Feistel permutation over the next power of four, cycle-walked back into
 * range (fio keeps a bitmap; a permutation needs none).  With norandommap
 * the blocks are drawn uniformly with repeats, as fio's norandommap. */
#ifndef EBSBENCH_OFFSETS_H
#define EBSBENCH_OFFSETS_H

#include <stdbool.h>
#include <stdint.h>

#include "job/rng.h"

struct permutation {
	uint64_t size;	    /* elements permuted: 0..size-1 */
	unsigned half_bits; /* each Feistel half has this many bits */
	uint64_t keys[4];
};

void offsets_permutation_init(struct permutation *p, uint64_t size, uint64_t seed);
/* The image of index (< size) under the permutation. */
uint64_t offsets_permutation_apply(const struct permutation *p, uint64_t index);

struct offset_gen {
	uint64_t base;	 /* region start, bytes */
	uint64_t blocks; /* blocks in the region */
	uint32_t bs;
	bool random;
	bool uniform;  /* norandommap */
	uint64_t next; /* blocks handed out in this pass */
	uint64_t pass;
	uint64_t seed;
	struct permutation perm;
	struct rng rng;
};

void offsets_init(struct offset_gen *g, uint64_t base, uint64_t region_bytes, uint32_t bs,
		  bool random, bool uniform, uint64_t seed);
/* The byte offset of the next I/O.  Sets *wrapped when it starts a new pass
 * (a size-bound job stops there). */
uint64_t offsets_next(struct offset_gen *g, bool *wrapped);

#endif
