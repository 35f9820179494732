/* test_init_probe.c - the probe's verdict from its two passes' medians
 * (a slow first read is loading only well above noise and the sample's
 * minimum), and its sentence.  The probe on a device: tests/bats/snapshot.bats. */
#include <string.h>

#include "check.h"
#include "job/job.h"
#include "job/internal.h"
#include "lib/lib.h"

static void test_state(struct checks *checks)
{
	static const struct {
		uint64_t blocks;
		double first_ms, second_ms;
		const char *want;
	} cases[] = {
		/* QEMU's copy-on-read at 20 ms, real EBS's first touch. */
		{ 64, 24.8, 0.007, "loading" },
		{ 64, 21.3, 0.41, "loading" },
		/* Three times as slow and a millisecond above: both needed. */
		{ 64, 2.9, 1.0, "not loading" },
		{ 64, 3.1, 1.0, "loading" },
		{ 64, 0.9, 0.1, "not loading" }, /* 9x, but 0.8 ms: noise on a fast device */
		{ 64, 1.3, 0.3, "loading" },
		/* Loaded volumes: both passes alike, or the second slower. */
		{ 64, 0.5, 0.45, "not loading" },
		{ 64, 0.4, 5.0, "not loading" },
		/* Too few blocks read in a pass to judge. */
		{ 15, 30.0, 0.4, "unknown" },
		{ 16, 30.0, 0.4, "loading" },
		{ 0, 0, 0, "unknown" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		CHECK(!strcmp(
			init_probe_state(cases[i].blocks, cases[i].first_ms, cases[i].second_ms),
			cases[i].want));
}

static void test_describe(struct checks *checks)
{
	struct init_probe r = {
		.state = "loading", .blocks = 64, .first_ms = 21.3, .second_ms = 0.41
	};
	char line[256];
	init_probe_describe(&r, line, sizeof(line));
	CHECK(!strcmp(line, "still loading from its snapshot: the first read of 64 blocks took "
			    "21.3 ms (median), the same blocks again 0.41 ms"));
	r = (struct init_probe){ .state = "unknown" };
	init_probe_describe(&r, line, sizeof(line));
	CHECK(!strcmp(line, "initialization unknown: no block read"));
}

CHECK_MAIN(test_state, test_describe)
