/* job_issue.c - what the loop issues next: each I/O's direction, size,
 * offset and priority, drawn as fio draws them, and the batches that fill
 * the queue (unthrottled, or a rated job's I/Os as they fall due). */
#include "job/job_loop.h"

#include "device/device.h"

static enum ddir choose_ddir(struct job_loop *L)
{
	enum rw_pattern rw = L->o->rw;
	if (rw == RW_RANDRW || rw == RW_READWRITE)
		return rng_below(&L->mix, 100) < L->o->rwmixread ? DDIR_READ : DDIR_WRITE;
	return options_rw_writes(rw) ? DDIR_WRITE : DDIR_READ;
}

/* fio's bssplit: each I/O's size drawn by the shares; bs without it. */
static uint32_t choose_bs(struct job_loop *L)
{
	const struct job_options *o = L->o;
	if (!o->bssplit_count)
		return o->bs;
	unsigned draw = rng_below(&L->mix, 100), below = 0;
	for (unsigned i = 0; i + 1 < o->bssplit_count; i++) {
		below += o->bssplit[i].percent;
		if (draw < below)
			return o->bssplit[i].bs;
	}
	return o->bssplit[o->bssplit_count - 1].bs;
}

/* fio's cmdprio options: cmdprio_bssplit's shares of I/Os of this size,
 * or cmdprio_percentage of all, drawn at random, carry their priority; the
 * rest the default (0). */
static uint16_t choose_ioprio(struct job_loop *L, uint32_t bs)
{
	const struct job_options *o = L->o;
	if (!options_cmdprio(o))
		return 0;
	unsigned draw = rng_below(&L->mix, 100), below = 0;
	if (!o->cmdprio_bssplit_count)
		return draw < o->cmdprio_percentage ? options_cmdprio_ioprio(o) : 0;
	for (unsigned i = 0; i < o->cmdprio_bssplit_count; i++) {
		const struct bs_share *share = &o->cmdprio_bssplit[i];
		below += share->bs == bs ? share->percent : 0;
		if (share->bs == bs && draw < below)
			return options_share_ioprio(o, share);
	}
	return 0;
}

/* An offset for an I/O of length bytes that ends inside the region (with
 * bssplit the offsets come in steps of the smallest size). */
static uint64_t fit_in_region(const struct job_loop *L, uint64_t offset, uint32_t length)
{
	uint64_t base = L->t->region_offset, end = base + L->t->region_size;
	uint32_t step = options_min_bs(L->o);
	if (offset + length <= end)
		return offset;
	return base + (end - length - base) / step * step;
}

/* Takes a free unit for the next offset in direction ddir, its latency
 * counted from start_ns, and queues it; NULL when the region's one pass is
 * done or the engine takes no more. */
static struct io_unit *queue_io(struct job_loop *L, enum ddir ddir, uint64_t start_ns, uint64_t now)
{
	bool wrapped;
	uint64_t offset = offsets_next(&L->offsets, &wrapped);
	if (wrapped && !L->o->time_based) {
		L->stopping = true; /* one pass over the region is the job */
		return NULL;
	}
	struct io_unit *u = L->free_list;
	L->free_list = u->next;
	u->length = choose_bs(L);
	u->offset = fit_in_region(L, offset, u->length);
	u->ddir = ddir;
	if (u->ddir == DDIR_WRITE) /* so a later run knows the data as its own */
		data_mark_stamp(u->buf, u->length, u->offset);
	u->ioprio = choose_ioprio(L, u->length);
	u->start_ns = start_ns;
	u->issue_ns = now;
	if (L->engine.ops->queue(&L->engine, u) < 0) {
		u->next = L->free_list;
		L->free_list = u;
		return NULL;
	}
	return u;
}

/* As fio: the whole batch counts at the depth it brings the queue to. */
static void count_depth(struct job_loop *L, unsigned queued)
{
	if (L->measuring && queued)
		L->s->depth_level[stats_depth_level_index(L->inflight + queued)] += queued;
}

/* Fills the queue back up to depth; returns how many were queued. */
unsigned job_fill_queue(struct job_loop *L, uint64_t now)
{
	unsigned queued = 0;
	while (!L->stopping && L->free_list) {
		struct io_unit *u = queue_io(L, choose_ddir(L), now, now);
		if (!u)
			break;
		L->batch[queued++] = u;
	}
	count_depth(L, queued);
	return queued;
}

/* A rated job's fill: every I/O the schedule has due by now, while a unit
 * is free, each counted from its due time (so a wait for a free unit is
 * in its latency); returns how many were queued. */
unsigned job_fill_due(struct job_loop *L, uint64_t now)
{
	unsigned queued = 0;
	while (!L->stopping && L->free_list) {
		uint64_t due;
		enum ddir d = rate_next(&L->rate, &due);
		if (due > now)
			break;
		struct io_unit *u = queue_io(L, d, due, now);
		if (!u)
			break;
		rate_take(&L->rate, d);
		L->batch[queued++] = u;
	}
	count_depth(L, queued);
	return queued;
}
