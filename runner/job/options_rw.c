/* options_rw.c - fio's rw patterns: each value's name, whether its offsets
 * are random, and the directions it does (read, write, trim), in one
 * table that every question about a pattern asks. */
#include "job/options.h"
#include "job/internal.h"
#include "lib/lib.h"

#include <string.h>

/* Every rw value: its name, random offsets or not, the directions it does. */
static const struct {
	const char *name;
	bool random;
	bool does[DDIR_COUNT]; /* read, write, trim */
} rw_specs[] = {
	[RW_READ] = { "read", false, { true, false, false } },
	[RW_WRITE] = { "write", false, { false, true, false } },
	[RW_RANDREAD] = { "randread", true, { true, false, false } },
	[RW_RANDWRITE] = { "randwrite", true, { false, true, false } },
	[RW_RANDRW] = { "randrw", true, { true, true, false } },
	[RW_READWRITE] = { "rw", false, { true, true, false } },
	[RW_TRIM] = { "trim", false, { false, false, true } },
	[RW_RANDTRIM] = { "randtrim", true, { false, false, true } },
	[RW_TRIMWRITE] = { "trimwrite", false, { false, true, true } },
	[RW_RANDTRIMWRITE] = { "randtrimwrite", true, { false, true, true } },
};
#define RW_SPECS (ARRAY_SIZE(rw_specs))

int options_set_rw(struct job_options *o, const char *v)
{
	if (!strcmp(v, "readwrite")) { /* fio's second name for rw */
		o->rw = RW_READWRITE;
		return 0;
	}
	for (size_t i = 0; i < RW_SPECS; i++) {
		if (!strcmp(v, rw_specs[i].name)) {
			o->rw = (enum rw_pattern)i;
			return 0;
		}
	}
	return -1;
}

bool options_rw_is_random(enum rw_pattern rw)
{
	return rw_specs[rw].random;
}

bool options_rw_does(enum rw_pattern rw, enum ddir d)
{
	return d < DDIR_COUNT && rw_specs[rw].does[d];
}

bool options_rw_reads(enum rw_pattern rw)
{
	return options_rw_does(rw, DDIR_READ);
}

bool options_rw_writes(enum rw_pattern rw)
{
	return options_rw_does(rw, DDIR_WRITE);
}

bool options_rw_trims(enum rw_pattern rw)
{
	return options_rw_does(rw, DDIR_TRIM);
}

bool options_rw_changes_data(enum rw_pattern rw)
{
	return options_rw_writes(rw) || options_rw_trims(rw);
}

unsigned options_sync_every(const struct job_options *o, enum ddir *kind)
{
	*kind = o->fsync_blocks ? DDIR_SYNC : DDIR_DATASYNC;
	return o->fsync_blocks ? o->fsync_blocks : o->fdatasync_blocks;
}

const char *options_rw_name(enum rw_pattern rw)
{
	return rw_specs[rw].name;
}
