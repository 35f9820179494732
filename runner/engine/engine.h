/* engine.h - an I/O engine is a table of operations, as in fio, and one
 * registry (engine.c) knows them all by name.
 *
 * The job loop owns the io_units and their buffers; an engine only moves
 * them to the kernel and back.  Nothing above this header knows which
 * engine runs, nor how many there are: options, usage texts and the
 * io_uring -> libaio fallback all ask the registry. */
#ifndef EBSBENCH_ENGINE_H
#define EBSBENCH_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/stats.h"

struct io_unit {
	uint64_t offset;
	uint32_t length;
	enum ddir ddir;
	void *buf;
	uint64_t start_ns;    /* prepared: start of slat and lat */
	uint64_t issue_ns;    /* handed to the kernel: start of clat */
	uint64_t done_ns;     /* completed by the engine itself (a synchronous
			       * trim or sync), at this time; 0: when reaped */
	int64_t result;	      /* bytes transferred, or -errno */
	unsigned index;	      /* position in the loop's array */
	uint16_t ioprio;      /* I/O priority, class << 13 | level; 0: the default */
	struct io_unit *next; /* free list link */
};

struct engine;

struct engine_ops {
	const char *name;
	/* Completes I/O inside commit, so the time before commit is the
	 * issue time and there is no submission latency: the job records no
	 * slat samples, as fio reports for sync engines. */
	bool synchronous;
	/* Passes io_unit.ioprio to the kernel (fio's cmdprio_* options). */
	bool ioprio;
	/* Moves no data and opens no file, as fio's null engine. */
	bool diskless;
	/* Prepares for depth I/Os in flight on fd; -errno on failure. */
	int (*setup)(struct engine *e, int fd, unsigned depth);
	/* Optional (NULL: nothing to gain): after setup, pins the count
	 * buffers the loop's io_units use, unit_bytes each and contiguous
	 * from base (unit i's at base + i * unit_bytes), so I/O on them skips
	 * the per-I/O page pinning.  0, or -errno and I/O goes on unpinned. */
	int (*register_buffers)(struct engine *e, void *base, size_t unit_bytes, unsigned count);
	/* Adds one I/O to the batch the next commit hands over.  Every engine
	 * takes every ddir: read, write, trim (a discard) and the syncs; one
	 * it completes at once, without the kernel's queue, carries done_ns. */
	int (*queue)(struct engine *e, struct io_unit *u);
	/* Hands the batch to the kernel; returns how many went, or -errno. */
	int (*commit)(struct engine *e);
	/* Waits for at least min completions and stores up to max of them in
	 * done[] with result set; returns how many, or -errno. */
	int (*reap)(struct engine *e, unsigned min, struct io_unit **done, unsigned max);
	/* As reap with min 1, but gives up after timeout_ns (or a signal) and
	 * returns 0: a rate-limited job waits for a completion or the next
	 * I/O's due time, whichever comes first.  NULL in synchronous engines,
	 * which never have I/O in flight between calls. */
	int (*reap_timed)(struct engine *e, struct io_unit **done, unsigned max,
			  uint64_t timeout_ns);
	void (*teardown)(struct engine *e);
};

struct engine {
	const struct engine_ops *ops;
	void *priv;
};

/* Each engine's table, in its own file; the registry lists them. */
extern const struct engine_ops engine_io_uring_ops;
extern const struct engine_ops engine_libaio_ops;
extern const struct engine_ops engine_psync_ops;
extern const struct engine_ops engine_null_ops;

/* The engine called `name` (fio's --ioengine value); NULL if none is. */
const struct engine_ops *engine_find(const char *name);
/* The engine a job runs when it names none: io_uring. */
const struct engine_ops *engine_default(void);
/* Every name in registry order, joined by sep and, before the last, by
 * last_sep: ", " and " or " give "io_uring, libaio or psync".  Returns buf. */
const char *engine_names(char *buf, size_t len, const char *sep, const char *last_sep);

/* Sets up `ops` on fd for depth I/Os in flight, or its fallback (then
 * note says which ran and why, e.g. "io_uring refused (EPERM: Operation
 * not permitted); ran libaio instead"; else note is ""). Returns 0 with
 * e->ops the engine that runs, or -1 with err and e->ops NULL. */
int engine_start(struct engine *e, const struct engine_ops *ops, int fd, unsigned depth, char *note,
		 size_t notelen, char *err, size_t errlen);

/* Offers the loop's buffers to the running engine (its register_buffers,
 * if it has one); returns whether it pinned them.  Not pinning costs only
 * speed, so there is no error. */
bool engine_register_buffers(struct engine *e, void *base, size_t unit_bytes, unsigned count);

#endif
