/* window.c - fixed, drift-free windows over the measured run. */
#include "job/window.h"

#include <string.h>

void window_init(struct window_tracker *w, uint64_t width_ns, window_sink sink, void *ctx)
{
	memset(w, 0, sizeof(*w));
	w->width_ns = width_ns;
	w->sink = sink;
	w->ctx = ctx;
}

static void window_emit(struct window_tracker *w, uint64_t end_ns, uint64_t span_ns)
{
	w->sink(w->ctx, end_ns, span_ns, &w->current);
	memset(&w->current, 0, sizeof(w->current));
	w->index++;
}

void window_advance(struct window_tracker *w, uint64_t now_ns)
{
	/* Window ends are computed from the index, never accumulated, so
	 * the thousandth window ends at exactly 1000 widths. */
	while ((w->index + 1) * w->width_ns <= now_ns)
		window_emit(w, (w->index + 1) * w->width_ns, w->width_ns);
}

void window_add(struct window_tracker *w, enum ddir d, uint32_t bytes, uint64_t slat, uint64_t clat,
		uint64_t lat)
{
	struct window_totals *t = &w->current;
	t->ios[d]++;
	t->bytes[d] += bytes;
	t->slat_sum[d] += slat;
	t->clat_sum[d] += clat;
	t->lat_sum[d] += lat;
}

void window_finish(struct window_tracker *w, uint64_t end_ns)
{
	window_advance(w, end_ns);
	uint64_t start = w->index * w->width_ns;
	if (end_ns > start)
		window_emit(w, end_ns, end_ns - start);
}
