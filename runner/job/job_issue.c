/* job_issue.c - what the loop issues next: each I/O's direction, size,
 * offset and priority, drawn as fio draws them, and the batches that fill
 * the queue (unthrottled, or a rated job's I/Os as they fall due). */
#include "job/job_issue.h"
#include "job/internal.h"

#include "device/device.h"

/* The next I/O's direction: rwmixread's draw for a mixed pattern; a trim
 * for the trim patterns (trimwrite's writes follow their trims, below). */
static enum ddir choose_ddir(struct job_loop *L)
{
	enum rw_pattern rw = L->o->rw;
	if (rw == RW_RANDRW || rw == RW_READWRITE)
		return rng_below(&L->mix, 100) < L->o->rwmixread ? DDIR_READ : DDIR_WRITE;
	if (options_rw_trims(rw))
		return DDIR_TRIM;
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

/* Whether an I/O in direction d counts toward io_size: fio's
 * io_bytes_exceeded counts reads and writes for a mixed pattern, else the
 * pattern's one direction (a trimwrite's writes). */
static bool counts_bytes(enum rw_pattern rw, enum ddir d)
{
	if (options_rw_reads(rw) && options_rw_writes(rw))
		return d != DDIR_TRIM;
	if (options_rw_writes(rw))
		return d == DDIR_WRITE;
	return options_rw_reads(rw) ? d == DDIR_READ : d == DDIR_TRIM;
}

/* fio's io_size and number_ios: a job that is not time_based ends once
 * it has issued io_size bytes or number_ios I/Os (a trimwrite's trims and
 * writes, so twice as many, as fio). */
static bool limits_reached(const struct job_loop *L)
{
	const struct job_options *o = L->o;
	if (o->time_based || !(o->io_size || o->number_ios))
		return false;
	uint64_t ios =
		o->number_ios * (options_rw_trims(o->rw) && options_rw_writes(o->rw) ? 2 : 1);
	return (o->io_size && L->issued_bytes >= o->io_size) ||
	       (o->number_ios && L->counted_ios >= ios);
}

/* Where u goes: the block trimwrite just trimmed (fio writes it next), or
 * the next offset and a drawn size; false when the job's I/O is done: the
 * region's one pass (io_size's bytes instead, when given), or number_ios. */
static bool place_io(struct job_loop *L, struct io_unit *u)
{
	if (limits_reached(L)) {
		L->stopping = true;
		return false;
	}
	if (L->write_trimmed) {
		u->ddir = DDIR_WRITE;
		u->offset = L->trimmed_offset;
		u->length = L->trimmed_length;
		return true;
	}
	bool wrapped;
	uint64_t offset = offsets_next(&L->offsets, &wrapped);
	/* One pass over the region is the job, or as many as io_size takes. */
	if (wrapped && !L->o->time_based && !L->o->io_size) {
		L->stopping = true;
		return false;
	}
	u->length = choose_bs(L);
	u->offset = fit_in_region(L, offset, u->length);
	return true;
}

/* Hands u to the engine; on refusal puts it back and returns NULL. */
static struct io_unit *engine_take(struct job_loop *L, struct io_unit *u, uint64_t start_ns,
				   uint64_t now)
{
	u->start_ns = start_ns;
	u->issue_ns = now;
	u->done_ns = 0;
	if (L->engine.ops->queue(&L->engine, u) < 0) {
		u->next = L->free_list;
		L->free_list = u;
		return NULL;
	}
	return u;
}

/* What an issued I/O changes for those after it: a trimwrite's trim is
 * written next, its write ends the pair; writes count toward a sync. */
static void after_issue(struct job_loop *L, const struct io_unit *u)
{
	if (u->ddir == DDIR_TRIM && options_rw_writes(L->o->rw)) {
		L->write_trimmed = true;
		L->trimmed_offset = u->offset;
		L->trimmed_length = u->length;
	} else if (u->ddir == DDIR_WRITE) {
		L->write_trimmed = false;
		L->writes_since_sync++;
	}
}

/* Takes a free unit for the next offset in direction ddir, its latency
 * counted from start_ns, and queues it; NULL when the region's one pass is
 * done or the engine takes no more. */
static struct io_unit *queue_io(struct job_loop *L, enum ddir ddir, uint64_t start_ns, uint64_t now)
{
	struct io_unit *u = L->free_list;
	u->ddir = ddir;
	if (!place_io(L, u))
		return NULL;
	L->free_list = u->next;
	if (u->ddir == DDIR_WRITE) /* so a later run knows the data as its own */
		data_mark_stamp(u->buf, u->length, u->offset);
	u->ioprio = u->ddir == DDIR_TRIM ? 0 : choose_ioprio(L, u->length);
	if (!engine_take(L, u, start_ns, now))
		return NULL;
	if (L->o->io_size && counts_bytes(L->o->rw, u->ddir))
		L->issued_bytes += u->length;
	if (L->measuring)
		L->counted_ios++;
	after_issue(L, u);
	return u;
}

/* Whether --fsync/--fdatasync's N writes have been issued since the last
 * sync, so the next I/O is a sync.  As fio, a size-bound job ends with its
 * last write: no sync once the pass is done (4096 writes at --fsync=32
 * give 127 syncs, in fio as here). */
static bool sync_due(const struct job_loop *L)
{
	enum ddir kind;
	unsigned every = options_sync_every(L->o, &kind);
	bool pass_done = !L->o->time_based && !L->write_trimmed &&
			 (L->offsets.next >= L->offsets.blocks || limits_reached(L));
	return every && L->writes_since_sync >= every && !pass_done;
}

/* Queues the due sync (fsync or fdatasync of the whole target, no data),
 * after which nothing is issued until it completes. */
static struct io_unit *queue_sync(struct job_loop *L, uint64_t now)
{
	struct io_unit *u = L->free_list;
	L->free_list = u->next;
	options_sync_every(L->o, &u->ddir);
	u->offset = 0;
	u->length = 0;
	u->ioprio = 0;
	if (!engine_take(L, u, now, now))
		return NULL;
	L->writes_since_sync = 0;
	L->sync_inflight = true;
	return u;
}

/* As fio: the whole batch counts at the depth it brings the queue to. */
static void count_depth(struct job_loop *L, unsigned queued)
{
	if (L->measuring && queued)
		L->s->depth_level[stats_depth_level_index(L->inflight + queued)] += queued;
}

/* Queues up to max I/Os while units are free; returns how many were
 * queued.  A due sync waits for the writes before it to complete (fio's
 * sync engines and libaio drain the same way) and goes alone. */
unsigned job_fill_queue(struct job_loop *L, uint64_t now, unsigned max)
{
	unsigned queued = 0;
	while (queued < max && !L->stopping && L->free_list && !L->sync_inflight) {
		struct io_unit *u;
		if (sync_due(L)) {
			if (L->inflight || queued)
				break;
			u = queue_sync(L, now);
		} else {
			u = queue_io(L, choose_ddir(L), now, now);
		}
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
