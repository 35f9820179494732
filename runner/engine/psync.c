/* engine_psync.c - pread/pwrite, one I/O at a time whatever the iodepth,
 * as fio's psync engine. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "engine/engine.h"

struct psync_state {
	int fd;
	unsigned count;
	struct io_unit **queued;
};

static int psync_setup(struct engine *e, int fd, unsigned depth)
{
	struct psync_state *st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->queued = calloc(depth, sizeof(*st->queued));
	if (!st->queued) {
		free(st);
		return -ENOMEM;
	}
	st->fd = fd;
	e->priv = st;
	return 0;
}

static int psync_queue(struct engine *e, struct io_unit *u)
{
	struct psync_state *st = e->priv;
	st->queued[st->count++] = u;
	return 0;
}

static int64_t psync_transfer(int fd, const struct io_unit *u)
{
	ssize_t ret;
	do {
		if (u->ddir == DDIR_READ)
			ret = pread(fd, u->buf, u->length, (off_t)u->offset);
		else
			ret = pwrite(fd, u->buf, u->length, (off_t)u->offset);
	} while (ret < 0 && errno == EINTR);
	return ret < 0 ? -errno : ret;
}

/* The transfer happens here; reap only hands the results back. */
static int psync_commit(struct engine *e)
{
	struct psync_state *st = e->priv;
	for (unsigned i = 0; i < st->count; i++)
		st->queued[i]->result = psync_transfer(st->fd, st->queued[i]);
	return (int)st->count;
}

static int psync_reap(struct engine *e, unsigned min, struct io_unit **done, unsigned max)
{
	(void)min;
	struct psync_state *st = e->priv;
	unsigned n = st->count < max ? st->count : max;
	for (unsigned i = 0; i < n; i++)
		done[i] = st->queued[i];
	st->count = 0;
	return (int)n;
}

static void psync_teardown(struct engine *e)
{
	struct psync_state *st = e->priv;
	if (!st)
		return;
	free(st->queued);
	free(st);
	e->priv = NULL;
}

const struct engine_ops engine_psync_ops = {
	.name = "psync",
	.synchronous = true,
	.setup = psync_setup,
	.queue = psync_queue,
	.commit = psync_commit,
	.reap = psync_reap,
	.teardown = psync_teardown,
};
