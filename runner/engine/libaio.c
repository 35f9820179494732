/* libaio.c - Linux native AIO through libaio, the fallback engine
 * where io_uring is refused (kernel.io_uring_disabled, seccomp).  Trims
 * and syncs are done at once, as fio's libaio engine does them (BLKDISCARD
 * or a punched hole; fsync, fdatasync), the loop having drained the queue
 * before a sync. */
#include <errno.h>
#include <libaio.h>
#include <stdlib.h>
#include <time.h>

#include "engine/discard_sync.h"

struct aio_state {
	io_context_t ctx;
	int fd;
	bool block;		 /* trims are BLKDISCARD, else punched holes */
	struct done_now at_once; /* trims and syncs done in queue */
	unsigned pending;
	struct iocb *iocbs;  /* one per io_unit, by index */
	struct iocb **batch; /* queued, not yet submitted */
	struct io_event *events;
};

static void aio_free(struct aio_state *st)
{
	free(st->iocbs);
	free(st->batch);
	free(st->events);
	done_now_free(&st->at_once);
	free(st);
}

static int aio_setup(struct engine *e, int fd, unsigned depth)
{
	struct aio_state *st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->fd = fd;
	st->block = discard_is_block(fd);
	st->iocbs = calloc(depth, sizeof(*st->iocbs));
	st->batch = calloc(depth, sizeof(*st->batch));
	st->events = calloc(depth, sizeof(*st->events));
	if (!st->iocbs || !st->batch || !st->events || done_now_init(&st->at_once, depth)) {
		aio_free(st);
		return -ENOMEM;
	}
	int ret = io_setup((int)depth, &st->ctx);
	if (ret < 0) {
		aio_free(st);
		return ret;
	}
	e->priv = st;
	return 0;
}

static int aio_queue(struct engine *e, struct io_unit *u)
{
	struct aio_state *st = e->priv;
	struct iocb *cb = &st->iocbs[u->index];
	if (u->ddir != DDIR_READ && u->ddir != DDIR_WRITE) {
		done_now_run(&st->at_once, st->fd, st->block, u);
		return 0;
	}
	if (u->ddir == DDIR_READ)
		io_prep_pread(cb, st->fd, u->buf, u->length, (long long)u->offset);
	else
		io_prep_pwrite(cb, st->fd, u->buf, u->length, (long long)u->offset);
	cb->data = u;
	cb->aio_reqprio = (short)u->ioprio;
	cb->u.c.flags |= u->ioprio ? 1u << 1 : 0; /* IOCB_FLAG_IOPRIO */
	st->batch[st->pending++] = cb;
	return 0;
}

static int aio_commit(struct engine *e)
{
	struct aio_state *st = e->priv;
	unsigned sent = 0;
	while (sent < st->pending) {
		int ret = io_submit(st->ctx, (long)(st->pending - sent), st->batch + sent);
		if (ret == -EINTR || ret == -EAGAIN)
			continue;
		if (ret < 0)
			return ret;
		sent += (unsigned)ret;
	}
	st->pending = 0;
	return (int)sent;
}

/* One io_getevents: at least min completions into done[], or fewer when
 * timeout (NULL: none) runs out; returns how many, or -errno. */
static int aio_events(struct aio_state *st, unsigned min, struct io_unit **done, unsigned max,
		      struct timespec *timeout)
{
	int got = io_getevents(st->ctx, (long)min, (long)max, st->events, timeout);
	for (int i = 0; i < got; i++) {
		struct io_unit *u = st->events[i].data;
		/* res is the byte count, or a negative errno in an unsigned field. */
		u->result = (int64_t)(long)st->events[i].res;
		done[i] = u;
	}
	return got;
}

/* What queue completed first, then the kernel's completions if min wants
 * more. */
static int aio_reap(struct engine *e, unsigned min, struct io_unit **done, unsigned max)
{
	struct aio_state *st = e->priv;
	unsigned ready = done_now_take(&st->at_once, done, max);
	if (ready >= min || ready == max)
		return (int)ready;
	int got;
	do
		got = aio_events(st, min - ready, done + ready, max - ready, NULL);
	while (got == -EINTR);
	return got < 0 ? got : (int)ready + got;
}

static int aio_reap_timed(struct engine *e, struct io_unit **done, unsigned max,
			  uint64_t timeout_ns)
{
	struct aio_state *st = e->priv;
	unsigned ready = done_now_take(&st->at_once, done, max);
	if (ready)
		return (int)ready;
	struct timespec ts = { .tv_sec = (time_t)(timeout_ns / 1000000000u),
			       .tv_nsec = (long)(timeout_ns % 1000000000u) };
	int got = aio_events(st, 1, done, max, &ts);
	return got == -EINTR ? 0 : got;
}

static void aio_teardown(struct engine *e)
{
	struct aio_state *st = e->priv;
	if (!st)
		return;
	io_destroy(st->ctx);
	aio_free(st);
	e->priv = NULL;
}

const struct engine_ops engine_libaio_ops = {
	.name = "libaio",
	.synchronous = false,
	.ioprio = true,
	.setup = aio_setup,
	.queue = aio_queue,
	.commit = aio_commit,
	.reap = aio_reap,
	.reap_timed = aio_reap_timed,
	.teardown = aio_teardown,
};
