/* io_uring.c - io_uring through liburing, the default engine.
 *
 * The target is registered as a fixed file (no file table lookup per I/O)
 * and the loop's buffers as fixed buffers (no page pinning per I/O);
 * registering the ring's own fd measured no gain.  Otherwise this is what
 * fio's io_uring engine does with its defaults: one io_uring_enter to
 * submit, one to wait for the first completion when none is ready, so each
 * I/O's clat starts after its submission and ends when it is reaped.
 * A sync is IORING_OP_FSYNC in the ring, as fio's; a trim is done at once
 * (kernel 6.1's io_uring has no discard), as fio's FIO_ASYNCIO_SYNC_TRIM:
 * BLKDISCARD, or a punched hole in a file. */
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <sys/uio.h>

#include "engine/discard_sync.h"
#include "lib/lib.h"

struct uring_state {
	struct io_uring ring;
	int fd;
	bool block;		 /* trims are BLKDISCARD, else punched holes */
	struct done_now trimmed; /* trims done in queue, for the next reap */
	bool fixed_file;
	bool fixed_buffers;	 /* io_units' buffers registered, by index */
	bool deferred_task_work; /* completions posted only when asked for */
	unsigned buffer_count;
};

/* Sets the ring up with the cheapest task work the kernel offers. */
static int uring_init_ring(struct io_uring *ring, unsigned depth)
{
	/* Newer kernels let a single-threaded submitter skip cross-CPU
	 * task work; older ones refuse the flags with EINVAL. */
	static const unsigned flag_sets[] = {
#ifdef IORING_SETUP_DEFER_TASKRUN
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
#endif
#ifdef IORING_SETUP_COOP_TASKRUN
		IORING_SETUP_COOP_TASKRUN,
#endif
		0
	};
	int ret = -EINVAL;
	for (size_t i = 0; i < ARRAY_SIZE(flag_sets); i++) {
		ret = io_uring_queue_init(depth, ring, flag_sets[i]);
		if (ret != -EINVAL)
			break;
	}
	return ret;
}

/* Opens a ring of depth entries for fd; -errno when the host refuses. */
static int uring_setup(struct engine *e, int fd, unsigned depth)
{
	struct uring_state *st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	int ret = done_now_init(&st->trimmed, depth);
	if (ret == 0)
		ret = uring_init_ring(&st->ring, depth);
	if (ret < 0) {
		done_now_free(&st->trimmed);
		free(st);
		return ret;
	}
	st->fd = fd;
	st->block = discard_is_block(fd);
#ifdef IORING_SETUP_DEFER_TASKRUN
	st->deferred_task_work = st->ring.flags & IORING_SETUP_DEFER_TASKRUN;
#endif
	st->fixed_file = io_uring_register_files(&st->ring, &fd, 1) == 0;
	e->priv = st;
	return 0;
}

/* Pins count buffers of unit_bytes from base, unit i's as fixed buffer i. */
static int uring_register_buffers(struct engine *e, void *base, size_t unit_bytes, unsigned count)
{
	struct uring_state *st = e->priv;
	struct iovec *iov = calloc(count, sizeof(*iov));
	if (!iov)
		return -ENOMEM;
	for (unsigned i = 0; i < count; i++) {
		iov[i].iov_base = (char *)base + (size_t)i * unit_bytes;
		iov[i].iov_len = unit_bytes;
	}
	int ret = io_uring_register_buffers(&st->ring, iov, count);
	free(iov);
	st->fixed_buffers = ret == 0;
	st->buffer_count = ret == 0 ? count : 0;
	return ret;
}

/* Prepares u's read, write or sync in an SQE (a read or write from its
 * fixed buffer if it has one); a trim is done here and now. */
static int uring_queue(struct engine *e, struct io_unit *u)
{
	struct uring_state *st = e->priv;
	if (u->ddir == DDIR_TRIM) {
		done_now_run(&st->trimmed, st->fd, st->block, u);
		return 0;
	}
	struct io_uring_sqe *sqe = io_uring_get_sqe(&st->ring);
	if (!sqe)
		return -EBUSY;
	int fd = st->fixed_file ? 0 : st->fd;
	bool fixed = st->fixed_buffers && u->index < st->buffer_count;
	if (u->ddir == DDIR_SYNC || u->ddir == DDIR_DATASYNC)
		io_uring_prep_fsync(sqe, fd, u->ddir == DDIR_DATASYNC ? IORING_FSYNC_DATASYNC : 0);
	else if (fixed && u->ddir == DDIR_READ)
		io_uring_prep_read_fixed(sqe, fd, u->buf, u->length, u->offset, (int)u->index);
	else if (fixed)
		io_uring_prep_write_fixed(sqe, fd, u->buf, u->length, u->offset, (int)u->index);
	else if (u->ddir == DDIR_READ)
		io_uring_prep_read(sqe, fd, u->buf, u->length, u->offset);
	else
		io_uring_prep_write(sqe, fd, u->buf, u->length, u->offset);
	if (st->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	sqe->ioprio = u->ioprio;
	io_uring_sqe_set_data(sqe, u);
	return 0;
}

/* Submits every prepared SQE in one io_uring_enter, without waiting.  With
 * deferred task work the same enter also posts the completions the device
 * (here the loop worker, another thread) finished meanwhile, which would
 * otherwise wait for an enter of their own in reap: one system call per
 * loop turn instead of two when I/O completes while the loop works. */
static int uring_commit(struct engine *e)
{
	struct uring_state *st = e->priv;
	int ret;
	do
		ret = st->deferred_task_work ? io_uring_submit_and_get_events(&st->ring)
					     : io_uring_submit(&st->ring);
	while (ret == -EINTR);
	return ret;
}

/* Moves up to max ready completions into done[]; returns how many. */
static unsigned uring_harvest(struct uring_state *st, struct io_unit **done, unsigned max)
{
	struct io_uring_cqe *cqe;
	unsigned head, got = 0;
	io_uring_for_each_cqe(&st->ring, head, cqe)
	{
		if (got == max)
			break;
		struct io_unit *u = io_uring_cqe_get_data(cqe);
		u->result = cqe->res;
		done[got++] = u;
	}
	io_uring_cq_advance(&st->ring, got);
	return got;
}

/* Reaps every completion ready, waiting (task work run) for min of them. */
static int uring_reap(struct engine *e, unsigned min, struct io_unit **done, unsigned max)
{
	struct uring_state *st = e->priv;
	struct io_uring_cqe *cqe;
	unsigned got = done_now_take(&st->trimmed, done, max);
	for (;;) {
		got += uring_harvest(st, done + got, max - got);
		if (got >= min)
			return (int)got;
		int ret = io_uring_wait_cqe_nr(&st->ring, &cqe, min - got);
		if (ret < 0 && ret != -EINTR && ret != -ETIME)
			return ret;
	}
}

/* The kernel's own timeout (IORING_ENTER_EXT_ARG): an hrtimer without the
 * task's timer slack, so a rated job wakes on time. */
static int uring_reap_timed(struct engine *e, struct io_unit **done, unsigned max,
			    uint64_t timeout_ns)
{
	struct uring_state *st = e->priv;
	unsigned got = done_now_take(&st->trimmed, done, max);
	got += uring_harvest(st, done + got, max - got);
	if (got)
		return (int)got;
	struct __kernel_timespec ts = { .tv_sec = (long long)(timeout_ns / 1000000000u),
					.tv_nsec = (long long)(timeout_ns % 1000000000u) };
	struct io_uring_cqe *cqe;
	int ret = io_uring_wait_cqe_timeout(&st->ring, &cqe, &ts);
	if (ret < 0 && ret != -EINTR && ret != -ETIME)
		return ret;
	return (int)uring_harvest(st, done, max);
}

/* Lets go of the fixed file and buffers, then closes the ring. */
static void uring_teardown(struct engine *e)
{
	struct uring_state *st = e->priv;
	if (!st)
		return;
	/* Closing a ring frees its registered files later, from a kernel
	 * worker: the next phase's O_EXCL open of the same device would
	 * meet a stale reference and fail with EBUSY.  Unregistering waits
	 * for the ring to let go. */
	if (st->fixed_file)
		io_uring_unregister_files(&st->ring);
	if (st->fixed_buffers)
		io_uring_unregister_buffers(&st->ring);
	io_uring_queue_exit(&st->ring);
	done_now_free(&st->trimmed);
	free(st);
	e->priv = NULL;
}

const struct engine_ops engine_io_uring_ops = {
	.name = "io_uring",
	.synchronous = false,
	.ioprio = true,
	.setup = uring_setup,
	.register_buffers = uring_register_buffers,
	.queue = uring_queue,
	.commit = uring_commit,
	.reap = uring_reap,
	.reap_timed = uring_reap_timed,
	.teardown = uring_teardown,
};
