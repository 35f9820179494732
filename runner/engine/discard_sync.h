/* discard_sync.h - the I/Os that move no data, done synchronously where an
 * engine has no asynchronous form of them, as fio does: a trim (BLKDISCARD
 * on a block device, fio's os_trim; on a regular file a punched hole,
 * FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, fio's falloc engine's trim)
 * and a sync (fsync, fdatasync); and the list an asynchronous engine keeps
 * such I/Os on until the loop reaps them.  Only engines include this. */
#ifndef EBSBENCH_DISCARD_SYNC_H
#define EBSBENCH_DISCARD_SYNC_H

#include <stdbool.h>

#include "engine/engine.h"

/* Whether fd is a block device (trims are BLKDISCARD) or a file (holes). */
bool discard_is_block(int fd);

/* u's trim or sync on fd, now, retried on EINTR: returns what io_unit.result
 * holds, the trim's length, 0 for a sync, or -errno. */
int64_t discard_sync_now(int fd, bool block, const struct io_unit *u);

/* I/Os an asynchronous engine completed itself, inside queue, awaiting
 * the next reap. */
struct done_now {
	unsigned count;
	struct io_unit **units; /* room for depth */
};

int done_now_init(struct done_now *d, unsigned depth);
void done_now_free(struct done_now *d);
/* Does u's trim or sync at once, as fio's io_uring and libaio engines do
 * (kernel 6.1's io_uring has no discard, Linux AIO no usable fsync): its
 * clat is the call's own time (issue_ns and done_ns stamped around it),
 * it has no submission latency, and it waits in d for the next reap. */
void done_now_run(struct done_now *d, int fd, bool block, struct io_unit *u);
/* Moves up to max of d's I/Os into done[]; returns how many. */
unsigned done_now_take(struct done_now *d, struct io_unit **done, unsigned max);

#endif
