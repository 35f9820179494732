/* null.c - fio's null engine: every I/O completes at once and moves no
 * data, so a job measures only the tool's own cost per I/O. */
#include "engine/sync_batch.h"

/* Completes the batch in full, as fio's null engine does, with no data: a
 * read, write or trim its whole length, a sync nothing. */
static int null_commit(struct engine *e)
{
	struct sync_batch *st = e->priv;
	for (unsigned i = 0; i < st->count; i++) {
		struct io_unit *u = st->queued[i];
		u->result = u->ddir < DDIR_COUNT ? (int64_t)u->length : 0;
	}
	return (int)st->count;
}

const struct engine_ops engine_null_ops = {
	.name = "null",
	.synchronous = true,
	.diskless = true,
	.setup = sync_batch_setup,
	.queue = sync_batch_queue,
	.commit = null_commit,
	.reap = sync_batch_reap,
	.teardown = sync_batch_teardown,
};
