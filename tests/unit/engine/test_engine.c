/* test_engine.c - the engine registry: lookup by name, the names list,
 * an unknown name's error, the io_uring -> libaio fallback choice, each
 * engine found by name moving real I/O through a file, and io_uring's
 * fixed buffers; every engine's trims and syncs. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "engine/engine.h"
#include "engine/internal.h"
#include "job/options.h"
#include "lib/lib.h"

static void test_lookup_each_name(struct checks *checks)
{
	static const char *const names[] = { "io_uring", "libaio", "psync" };
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		const struct engine_ops *ops = engine_find(names[i]);
		CHECK(ops != NULL);
		CHECK(ops && !strcmp(ops->name, names[i]));
	}
	CHECK(engine_find("io_uring") == &engine_io_uring_ops);
	CHECK(engine_find("libaio") == &engine_libaio_ops);
	CHECK(engine_find("psync") == &engine_psync_ops);
	CHECK(engine_find("psync")->synchronous);
	CHECK(!engine_find("libaio")->synchronous);
	CHECK(engine_default() == &engine_io_uring_ops);
}

static void test_unknown_name(struct checks *checks)
{
	struct job_options o;
	char err[256] = "";
	CHECK(engine_find("spdk") == NULL);
	CHECK(engine_find("") == NULL);
	CHECK(engine_find("IO_URING") == NULL);
	CHECK(engine_find(NULL) == NULL);
	options_defaults(&o);
	CHECK(o.ioengine == engine_default());
	CHECK(options_set(&o, "ioengine", "spdk", err, sizeof(err)) == -1);
	CHECK(!strcmp(err, "option 'ioengine': invalid value 'spdk' "
			   "(expected io_uring, libaio, psync or null)"));
	CHECK(o.ioengine == engine_default());
	CHECK(options_set(&o, "ioengine", "psync", err, sizeof(err)) == 0);
	CHECK(o.ioengine == &engine_psync_ops);
}

static void test_names(struct checks *checks)
{
	char buf[64];
	CHECK(!strcmp(engine_names(buf, sizeof(buf), ", ", " or "),
		      "io_uring, libaio, psync or null"));
	CHECK(!strcmp(engine_names(buf, sizeof(buf), "|", "|"), "io_uring|libaio|psync|null"));
	/* Cut short, still a string. */
	CHECK(!strcmp(engine_names(buf, 6, "|", "|"), "io_ur"));
}

static void test_fallback_choice(struct checks *checks)
{
	CHECK(engine_fallback(&engine_io_uring_ops, -ENOSYS) == &engine_libaio_ops);
	CHECK(engine_fallback(&engine_io_uring_ops, -EPERM) == &engine_libaio_ops);
	CHECK(engine_fallback(&engine_io_uring_ops, -EACCES) == &engine_libaio_ops);
	/* Other failures are the job's, not the host's refusal. */
	CHECK(engine_fallback(&engine_io_uring_ops, -EINVAL) == NULL);
	CHECK(engine_fallback(&engine_io_uring_ops, -ENOMEM) == NULL);
	CHECK(engine_fallback(&engine_io_uring_ops, 0) == NULL);
	/* Nothing stands in for the others. */
	CHECK(engine_fallback(&engine_libaio_ops, -EPERM) == NULL);
	CHECK(engine_fallback(&engine_psync_ops, -ENOSYS) == NULL);
}

/* One I/O through a started engine: queue, commit, reap; its result. */
static int64_t one_io(struct engine *e, struct io_unit *u)
{
	struct io_unit *done[1];
	if (e->ops->queue(e, u) < 0 || e->ops->commit(e) < 0 || e->ops->reap(e, 1, done, 1) != 1)
		return -1;
	return done[0] == u ? u->result : -1;
}

/* Writes a block through the engine and reads it back through it. */
static void round_trip(struct checks *checks, const char *name, int fd)
{
	struct engine e = { 0 };
	char note[160], err[256];
	void *wbuf = NULL, *rbuf = NULL;
	CHECK(posix_memalign(&wbuf, 4096, 4096) == 0 && posix_memalign(&rbuf, 4096, 4096) == 0);
	memset(wbuf, 0x5a, 4096);
	memset(rbuf, 0, 4096);
	CHECK(engine_start(&e, engine_find(name), fd, 4, note, sizeof(note), err, sizeof(err)) ==
	      0);
	/* io_uring may be refused on this host: then libaio runs, and says so. */
	if (e.ops && e.ops != engine_find(name)) {
		CHECK(!strcmp(name, "io_uring") && e.ops == &engine_libaio_ops);
		CHECK(strstr(note, "io_uring refused (") == note);
		CHECK(strstr(note, "); ran libaio instead") != NULL);
	} else {
		CHECK(note[0] == '\0');
	}
	if (e.ops) {
		struct io_unit w = {
			.offset = 8192, .length = 4096, .ddir = DDIR_WRITE, .buf = wbuf
		};
		struct io_unit r = {
			.offset = 8192, .length = 4096, .ddir = DDIR_READ, .buf = rbuf
		};
		CHECK(one_io(&e, &w) == 4096);
		CHECK(one_io(&e, &r) == 4096);
		CHECK(memcmp(wbuf, rbuf, 4096) == 0);
		e.ops->teardown(&e);
	}
	free(wbuf);
	free(rbuf);
}

/* A 1 MiB scratch file, already unlinked; -1 (a failed check) if none. */
static int scratch_fd(struct checks *checks)
{
	char path[] = "/tmp/test_engine.XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return -1;
	unlink(path);
	CHECK(ftruncate(fd, 1 << 20) == 0);
	return fd;
}

static void test_each_engine_moves_io(struct checks *checks)
{
	int fd = scratch_fd(checks);
	if (fd < 0)
		return;
	round_trip(checks, "io_uring", fd);
	round_trip(checks, "libaio", fd);
	round_trip(checks, "psync", fd);
	close(fd);
}

/* io_uring pins the loop's buffers: units 2 and 3 write and read back
 * through their fixed buffers (a wrong buffer index fails with EFAULT),
 * and a unit past the registered ones still moves I/O unpinned.  libaio
 * has nothing to pin. */
static void test_fixed_buffers(struct checks *checks)
{
	int fd = scratch_fd(checks);
	if (fd < 0)
		return;
	struct engine e = { 0 };
	char note[160], err[256];
	char *bufs = NULL, *extra = NULL;
	CHECK(posix_memalign((void **)&bufs, 4096, 4 * 4096) == 0);
	CHECK(posix_memalign((void **)&extra, 4096, 4096) == 0);
	CHECK(engine_start(&e, &engine_io_uring_ops, fd, 4, note, sizeof(note), err, sizeof(err)) ==
	      0);
	bool pinned = engine_register_buffers(&e, bufs, 4096, 4);
	CHECK(pinned == (e.ops == &engine_io_uring_ops));
	memset(bufs + 2 * 4096, 0xa5, 4096);
	memset(bufs + 3 * 4096, 0, 4096);
	struct io_unit w = { .offset = 4096,
			     .length = 4096,
			     .ddir = DDIR_WRITE,
			     .buf = bufs + 2 * 4096,
			     .index = 2 };
	struct io_unit r = { .offset = 4096,
			     .length = 4096,
			     .ddir = DDIR_READ,
			     .buf = bufs + 3 * 4096,
			     .index = 3 };
	CHECK(one_io(&e, &w) == 4096);
	CHECK(one_io(&e, &r) == 4096);
	CHECK(memcmp(bufs + 2 * 4096, bufs + 3 * 4096, 4096) == 0);
	struct io_unit past = {
		.offset = 4096, .length = 4096, .ddir = DDIR_READ, .buf = extra, .index = 9
	};
	CHECK(one_io(&e, &past) == 4096);
	CHECK(memcmp(extra, bufs + 2 * 4096, 4096) == 0);
	e.ops->teardown(&e);
	CHECK(engine_start(&e, &engine_libaio_ops, fd, 4, note, sizeof(note), err, sizeof(err)) ==
	      0);
	CHECK(!engine_register_buffers(&e, bufs, 4096, 4));
	e.ops->teardown(&e);
	free(bufs);
	free(extra);
	close(fd);
}

/* reap_timed on engine `name` (or the engine standing in for it): with
 * nothing in flight it returns 0 once the timeout has passed, not before;
 * with a read in flight it returns that read, long before the timeout. */
static void timed_reap(struct checks *checks, const char *name, int fd)
{
	struct engine e = { 0 };
	char note[160], err[256];
	void *buf = NULL;
	CHECK(posix_memalign(&buf, 4096, 4096) == 0);
	CHECK(engine_start(&e, engine_find(name), fd, 4, note, sizeof(note), err, sizeof(err)) ==
	      0);
	if (e.ops) {
		struct io_unit *done[4];
		CHECK(e.ops->reap_timed != NULL);
		/* A signal ends the wait early, and so does task work the kernel
		 * queues on this thread (an io_uring torn down a moment before
		 * does, some milliseconds later): of a few waits, one must last
		 * the whole timeout, none return anything. */
		unsigned full = 0, got = 0;
		for (int i = 0; i < 5 && !full; i++) {
			uint64_t t0 = clock_now_ns();
			got += (unsigned)e.ops->reap_timed(&e, done, 4, 20000000);
			uint64_t waited = clock_now_ns() - t0;
			full += waited >= 20000000 && waited < 2000000000;
		}
		CHECK_EQ_U64(got, 0);
		CHECK_EQ_U64(full, 1);
		struct io_unit r = { .offset = 0, .length = 4096, .ddir = DDIR_READ, .buf = buf };
		CHECK(e.ops->queue(&e, &r) == 0 && e.ops->commit(&e) == 1);
		uint64_t t0 = clock_now_ns();
		CHECK(e.ops->reap_timed(&e, done, 4, 5000000000ull) == 1);
		CHECK(clock_now_ns() - t0 < 2000000000);
		CHECK(done[0] == &r && r.result == 4096);
		e.ops->teardown(&e);
	}
	free(buf);
}

/* Synchronous engines never have I/O in flight between calls: no timed
 * reap; the asynchronous ones wait for a completion or the timeout. */
static void test_reap_timed(struct checks *checks)
{
	int fd = scratch_fd(checks);
	if (fd < 0)
		return;
	timed_reap(checks, "io_uring", fd);
	timed_reap(checks, "libaio", fd);
	CHECK(engine_psync_ops.reap_timed == NULL);
	close(fd);
}

static void test_start_failure_names_the_engine(struct checks *checks)
{
	struct engine e = { 0 };
	char note[160], err[256] = "";
	/* A queue of no entries is refused by the kernel (EINVAL): no stand-in. */
	CHECK(engine_start(&e, &engine_libaio_ops, 0, 0, note, sizeof(note), err, sizeof(err)) ==
	      -1);
	CHECK(e.ops == NULL);
	CHECK(strstr(err, "ioengine libaio cannot start: ") == err);
	CHECK(note[0] == '\0');
}

/* The null engine: no file, every queued I/O complete in commit, in full,
 * with its buffer untouched; registered as a synchronous, diskless engine. */
static void test_null_engine(struct checks *checks)
{
	struct engine e = { 0 };
	char note[160], err[256], buf[3][512];
	struct io_unit u[3], *done[4];
	CHECK(engine_find("null") == &engine_null_ops);
	CHECK(engine_null_ops.synchronous && engine_null_ops.diskless && !engine_null_ops.ioprio);
	CHECK(!engine_psync_ops.diskless && engine_libaio_ops.ioprio && engine_io_uring_ops.ioprio);
	CHECK(engine_start(&e, &engine_null_ops, -1, 4, note, sizeof(note), err, sizeof(err)) == 0);
	memset(buf, 0x33, sizeof(buf));
	for (int i = 0; i < 3; i++) {
		u[i] = (struct io_unit){ .offset = (uint64_t)i << 20,
					 .length = 512,
					 .ddir = i % 2 ? DDIR_WRITE : DDIR_READ,
					 .buf = buf[i],
					 .result = -1 };
		CHECK(e.ops->queue(&e, &u[i]) == 0);
	}
	CHECK(e.ops->commit(&e) == 3);
	CHECK(e.ops->reap(&e, 1, done, 4) == 3);
	for (int i = 0; i < 3; i++)
		CHECK(done[i] == &u[i] && u[i].result == 512 && buf[i][0] == 0x33);
	CHECK(e.ops->reap(&e, 0, done, 4) == 0);
	e.ops->teardown(&e);
}

/* io_unit.ioprio reaches the kernel: a valid priority (best effort, level
 * 7) reads, an invalid class (7) the kernel refuses. */
static void ioprio_round_trip(struct checks *checks, const struct engine_ops *ops, int fd)
{
	struct engine e = { 0 };
	char note[160], err[256];
	void *buf = NULL;
	CHECK(posix_memalign(&buf, 4096, 4096) == 0);
	CHECK(engine_start(&e, ops, fd, 4, note, sizeof(note), err, sizeof(err)) == 0);
	if (e.ops == ops) {
		struct io_unit ok = {
			.length = 4096, .ddir = DDIR_READ, .buf = buf, .ioprio = 2u << 13 | 7
		};
		struct io_unit bad = {
			.length = 4096, .ddir = DDIR_READ, .buf = buf, .ioprio = 7u << 13
		};
		CHECK(one_io(&e, &ok) == 4096);
		int64_t refused = one_io(&e, &bad);
		if (!CHECK(refused != 4096))
			fprintf(stderr, "%s: ioprio class 7 was not refused\n", ops->name);
	}
	if (e.ops)
		e.ops->teardown(&e);
	free(buf);
}

static void test_ioprio_reaches_the_kernel(struct checks *checks)
{
	int fd = scratch_fd(checks);
	if (fd < 0)
		return;
	ioprio_round_trip(checks, &engine_libaio_ops, fd);
	ioprio_round_trip(checks, &engine_io_uring_ops, fd);
	close(fd);
}

/* Trims and syncs: a trim of a written block of a regular file punches a
 * hole there (SEEK_HOLE finds it, the file keeps its size, the block reads
 * back as zeros), its result is its length and, in an asynchronous engine,
 * it carries its own completion time; a sync completes with 0. */
#define DATA_FILE_BYTES (1 << 20)
#define TRIM_BLOCK 65536

/* A 1 MiB file of non-zero data, written and synced, already unlinked. */
static int data_fd(struct checks *checks)
{
	char path[] = "/tmp/test_discard.XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return -1;
	unlink(path);
	char *data = malloc(DATA_FILE_BYTES);
	memset(data, 0x5a, DATA_FILE_BYTES);
	CHECK(pwrite(fd, data, DATA_FILE_BYTES, 0) == DATA_FILE_BYTES);
	CHECK(fsync(fd) == 0);
	free(data);
	return fd;
}

/* Trims [TRIM_BLOCK, 2 TRIM_BLOCK) through engine name, then syncs. */
static void trim_and_sync(struct checks *checks, const char *name)
{
	int fd = data_fd(checks);
	if (fd < 0)
		return;
	struct engine e = { 0 };
	char note[160], err[256], buf[TRIM_BLOCK];
	CHECK(engine_start(&e, engine_find(name), fd, 4, note, sizeof(note), err, sizeof(err)) ==
	      0);
	if (!e.ops) {
		close(fd);
		return;
	}
	CHECK(lseek(fd, 0, SEEK_HOLE) == DATA_FILE_BYTES); /* no hole before the trim */
	struct io_unit t = {
		.offset = TRIM_BLOCK, .length = TRIM_BLOCK, .ddir = DDIR_TRIM, .buf = buf
	};
	uint64_t before = clock_now_ns();
	CHECK_EQ_U64((uint64_t)one_io(&e, &t), TRIM_BLOCK);
	CHECK(lseek(fd, 0, SEEK_HOLE) == TRIM_BLOCK);
	CHECK(lseek(fd, TRIM_BLOCK, SEEK_DATA) == 2 * TRIM_BLOCK);
	struct stat st;
	CHECK(fstat(fd, &st) == 0 && st.st_size == DATA_FILE_BYTES);
	CHECK(pread(fd, buf, TRIM_BLOCK, TRIM_BLOCK) == TRIM_BLOCK && buf[0] == 0 &&
	      buf[TRIM_BLOCK - 1] == 0);
	/* io_uring and libaio trim at once, and time it themselves. */
	if (!e.ops->synchronous)
		CHECK(t.done_ns >= t.issue_ns && t.issue_ns >= before);
	struct io_unit s = { .ddir = DDIR_SYNC, .buf = buf };
	CHECK(one_io(&e, &s) == 0);
	struct io_unit ds = { .ddir = DDIR_DATASYNC, .buf = buf };
	CHECK(one_io(&e, &ds) == 0);
	e.ops->teardown(&e);
	close(fd);
}

static void test_each_engine_trims_and_syncs(struct checks *checks)
{
	trim_and_sync(checks, "io_uring");
	trim_and_sync(checks, "libaio");
	trim_and_sync(checks, "psync");
}

/* null has no file: a trim is its length, a sync nothing, both at once. */
static void test_null_trims_nothing(struct checks *checks)
{
	struct engine e = { 0 };
	char note[160], err[256];
	CHECK(engine_start(&e, &engine_null_ops, -1, 2, note, sizeof(note), err, sizeof(err)) == 0);
	struct io_unit t = { .offset = 0, .length = 4096, .ddir = DDIR_TRIM };
	CHECK(one_io(&e, &t) == 4096);
	struct io_unit s = { .ddir = DDIR_SYNC };
	CHECK(one_io(&e, &s) == 0);
	e.ops->teardown(&e);
}

/* A trim and a read queued together come back from one reap, both. */
static void test_trim_beside_a_read(struct checks *checks)
{
	int fd = data_fd(checks);
	if (fd < 0)
		return;
	struct engine e = { 0 };
	char note[160], err[256];
	static char buf[2][4096] __attribute__((aligned(4096)));
	CHECK(engine_start(&e, &engine_io_uring_ops, fd, 4, note, sizeof(note), err, sizeof(err)) ==
	      0);
	struct io_unit r = { .offset = 0, .length = 4096, .ddir = DDIR_READ, .buf = buf[0] };
	struct io_unit t = { .offset = 4096, .length = 4096, .ddir = DDIR_TRIM, .buf = buf[1] };
	struct io_unit *done[2];
	CHECK(e.ops->queue(&e, &r) == 0 && e.ops->queue(&e, &t) == 0);
	CHECK(e.ops->commit(&e) >= 0);
	int got = e.ops->reap(&e, 2, done, 2);
	CHECK(got == 2);
	CHECK(r.result == 4096 && t.result == 4096);
	e.ops->teardown(&e);
	close(fd);
}

CHECK_MAIN(test_lookup_each_name, test_unknown_name, test_names, test_fallback_choice,
	   test_each_engine_moves_io, test_fixed_buffers, test_reap_timed,
	   test_start_failure_names_the_engine, test_null_engine, test_ioprio_reaches_the_kernel,
	   test_each_engine_trims_and_syncs, test_null_trims_nothing, test_trim_beside_a_read)
