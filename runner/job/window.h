/* window.h - per-window totals, aligned to the job start.
 *
 * Window k always covers [k*width, (k+1)*width) of the measured run and
 * every window is closed, busy or not, so a log has one row per window and
 * a stalled device shows as 0 rather than a gap (fio skips empty windows
 * and drifts: its window ends where the next completion happened to land). */
#ifndef EBSBENCH_WINDOW_H
#define EBSBENCH_WINDOW_H

#include <stdint.h>

#include "stats/stats.h"

struct window_totals {
	uint64_t ios[DDIR_COUNT];
	uint64_t bytes[DDIR_COUNT];
	uint64_t slat_sum[DDIR_COUNT];
	uint64_t clat_sum[DDIR_COUNT];
	uint64_t lat_sum[DDIR_COUNT];
};

/* Receives a closed window: its end and span since the job start, in ns. */
typedef void (*window_sink)(void *ctx, uint64_t end_ns, uint64_t span_ns,
			    const struct window_totals *t);

struct window_tracker {
	uint64_t width_ns;
	uint64_t index; /* the window being filled */
	struct window_totals current;
	window_sink sink;
	void *ctx;
};

void window_init(struct window_tracker *w, uint64_t width_ns, window_sink sink, void *ctx);
/* Closes every window that ends at or before now (ns since the start). */
void window_advance(struct window_tracker *w, uint64_t now_ns);
void window_add(struct window_tracker *w, enum ddir d, uint32_t bytes, uint64_t slat, uint64_t clat,
		uint64_t lat);
/* Closes the window being filled early, at end (a job that stopped between
 * window edges); nothing happens when end is the window's own start. */
void window_finish(struct window_tracker *w, uint64_t end_ns);

#endif
