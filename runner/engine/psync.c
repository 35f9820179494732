/* psync.c - pread/pwrite (trims and syncs as fio's sync engines do
 * them: BLKDISCARD or a punched hole, fsync, fdatasync), one I/O at a time
 * whatever the iodepth, as fio's psync engine. */
#include <errno.h>
#include <unistd.h>

#include "engine/discard_sync.h"
#include "engine/sync_batch.h"

static int64_t psync_transfer(int fd, bool block, const struct io_unit *u)
{
	ssize_t ret;
	if (u->ddir != DDIR_READ && u->ddir != DDIR_WRITE)
		return discard_sync_now(fd, block, u);
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
	struct sync_batch *st = e->priv;
	for (unsigned i = 0; i < st->count; i++)
		st->queued[i]->result = psync_transfer(st->fd, st->block, st->queued[i]);
	return (int)st->count;
}

const struct engine_ops engine_psync_ops = {
	.name = "psync",
	.synchronous = true,
	.setup = sync_batch_setup,
	.queue = sync_batch_queue,
	.commit = psync_commit,
	.reap = sync_batch_reap,
	.teardown = sync_batch_teardown,
};
