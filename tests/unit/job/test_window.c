/* test_window.c - windows end at exact multiples of the width, every
 * window is closed (empty ones too) and a trailing partial is its own. */
#include <string.h>

#include "check.h"
#include "job/window.h"

struct recorded {
	unsigned count;
	uint64_t end[64];
	uint64_t span[64];
	uint64_t ios[64];
};

static void record(void *ctx, uint64_t end_ns, uint64_t span_ns, const struct window_totals *t)
{
	struct recorded *r = ctx;
	if (r->count < 64) {
		r->end[r->count] = end_ns;
		r->span[r->count] = span_ns;
		r->ios[r->count] = t->ios[DDIR_READ] + t->ios[DDIR_WRITE];
	}
	r->count++;
}

static void test_exact_edges_and_empty_windows(struct checks *checks)
{
	struct recorded r = { 0 };
	struct window_tracker w;
	const uint64_t ms = 1000000;
	window_init(&w, 1000 * ms, record, &r);
	/* Two I/Os in the first second, none in the next two, one in the 4th. */
	window_advance(&w, 10 * ms);
	window_add(&w, DDIR_READ, 4096, 1, 2, 3);
	window_advance(&w, 999 * ms);
	window_add(&w, DDIR_WRITE, 4096, 1, 2, 3);
	CHECK_EQ_U64(r.count, 0);
	window_advance(&w, 3500 * ms);
	window_add(&w, DDIR_READ, 4096, 1, 2, 3);
	window_finish(&w, 4000 * ms);
	CHECK_EQ_U64(r.count, 4);
	for (unsigned k = 0; k < 4; k++) {
		CHECK_EQ_U64(r.end[k], (k + 1) * 1000 * ms);
		CHECK_EQ_U64(r.span[k], 1000 * ms);
	}
	CHECK_EQ_U64(r.ios[0], 2);
	CHECK_EQ_U64(r.ios[1], 0);
	CHECK_EQ_U64(r.ios[2], 0);
	CHECK_EQ_U64(r.ios[3], 1);
}

static void test_partial_window(struct checks *checks)
{
	struct recorded r = { 0 };
	struct window_tracker w;
	window_init(&w, 1000, record, &r);
	window_add(&w, DDIR_READ, 512, 0, 0, 0);
	window_finish(&w, 2500);
	CHECK_EQ_U64(r.count, 3);
	CHECK_EQ_U64(r.end[2], 2500);
	CHECK_EQ_U64(r.span[2], 500);
	/* Finishing on an edge adds nothing. */
	window_finish(&w, 2500);
	CHECK_EQ_U64(r.count, 3);
}

static void test_long_run_has_no_drift(struct checks *checks)
{
	struct recorded r = { 0 };
	struct window_tracker w;
	window_init(&w, 1000000000ull, record, &r);
	window_finish(&w, 1800 * 1000000000ull);
	CHECK_EQ_U64(r.count, 1800);
	CHECK_EQ_U64(w.index, 1800);
}

CHECK_MAIN(test_exact_edges_and_empty_windows, test_partial_window, test_long_run_has_no_drift)
