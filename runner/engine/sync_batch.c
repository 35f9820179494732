/* sync_batch.c - queue, reap and the state around them for engines that
 * complete every I/O inside commit (psync, null). */
#include "engine/sync_batch.h"
#include "engine/discard_sync.h"

#include <errno.h>
#include <stdlib.h>

/* Room for depth queued I/Os on fd. */
int sync_batch_setup(struct engine *e, int fd, unsigned depth)
{
	struct sync_batch *st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->queued = calloc(depth, sizeof(*st->queued));
	if (!st->queued) {
		free(st);
		return -ENOMEM;
	}
	st->fd = fd;
	st->block = fd >= 0 && discard_is_block(fd);
	e->priv = st;
	return 0;
}

/* Remembers the I/O for the engine's commit. */
int sync_batch_queue(struct engine *e, struct io_unit *u)
{
	struct sync_batch *st = e->priv;
	st->queued[st->count++] = u;
	return 0;
}

/* Hands back what commit completed; nothing is ever left in flight. */
int sync_batch_reap(struct engine *e, unsigned min, struct io_unit **done, unsigned max)
{
	(void)min;
	struct sync_batch *st = e->priv;
	unsigned n = st->count < max ? st->count : max;
	for (unsigned i = 0; i < n; i++)
		done[i] = st->queued[i];
	st->count = 0;
	return (int)n;
}

void sync_batch_teardown(struct engine *e)
{
	struct sync_batch *st = e->priv;
	if (!st)
		return;
	free(st->queued);
	free(st);
	e->priv = NULL;
}
