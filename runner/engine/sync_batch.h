/* sync_batch.h - the batch that synchronous engines (psync, null) share:
 * queue remembers each I/O, the engine's commit completes them all, and
 * reap hands them back.  Only engines include this. */
#ifndef EBSBENCH_SYNC_BATCH_H
#define EBSBENCH_SYNC_BATCH_H

#include "engine/engine.h"

struct sync_batch {
	int fd;
	bool block;	/* trims are BLKDISCARD, else punched holes */
	unsigned count; /* queued since the last reap */
	struct io_unit **queued;
};

/* engine_ops.setup, .queue, .reap and .teardown for a synchronous engine:
 * e->priv is a struct sync_batch. */
int sync_batch_setup(struct engine *e, int fd, unsigned depth);
int sync_batch_queue(struct engine *e, struct io_unit *u);
int sync_batch_reap(struct engine *e, unsigned min, struct io_unit **done, unsigned max);
void sync_batch_teardown(struct engine *e);

#endif
