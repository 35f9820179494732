/* engine.h - an I/O engine is a table of operations, as in fio.
 *
 * The job loop owns the io_units and their buffers; an engine only moves
 * them to the kernel and back.  Nothing above this header knows which
 * engine runs. */
#ifndef EBSBENCH_ENGINE_H
#define EBSBENCH_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "stats/stats.h"

struct io_unit {
	uint64_t offset;
	uint32_t length;
	enum ddir ddir;
	void *buf;
	uint64_t start_ns;    /* prepared: start of slat and lat */
	uint64_t issue_ns;    /* handed to the kernel: start of clat */
	int64_t result;	      /* bytes transferred, or -errno */
	unsigned index;	      /* position in the loop's array */
	struct io_unit *next; /* free list link */
};

struct engine;

struct engine_ops {
	const char *name;
	/* Completes I/O inside commit, so the time before commit is the
	 * issue time and slat is zero, as fio reports for sync engines. */
	bool synchronous;
	/* Prepares for depth I/Os in flight on fd; -errno on failure. */
	int (*setup)(struct engine *e, int fd, unsigned depth);
	/* Adds one I/O to the batch the next commit hands over. */
	int (*queue)(struct engine *e, struct io_unit *u);
	/* Hands the batch to the kernel; returns how many went, or -errno. */
	int (*commit)(struct engine *e);
	/* Waits for at least min completions and stores up to max of them in
	 * done[] with result set; returns how many, or -errno. */
	int (*reap)(struct engine *e, unsigned min, struct io_unit **done, unsigned max);
	void (*teardown)(struct engine *e);
};

struct engine {
	const struct engine_ops *ops;
	void *priv;
};

extern const struct engine_ops engine_io_uring_ops;
extern const struct engine_ops engine_libaio_ops;
extern const struct engine_ops engine_psync_ops;

#endif
