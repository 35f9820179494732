/* test_discard.c - every engine's trim and sync: a trim of a written
 * block of a regular file punches a hole there (SEEK_HOLE finds it, the
 * file keeps its size, the block reads back as zeros), its result is its
 * length and, in an asynchronous engine, it carries its own completion
 * time; a sync completes with 0.  null completes both without a file. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "engine/engine.h"
#include "lib/lib.h"

#define FILE_BYTES (1 << 20)
#define BLOCK 65536

/* One I/O through a started engine: queue, commit, reap; its result. */
static int64_t one_io(struct engine *e, struct io_unit *u)
{
	struct io_unit *done[1];
	if (e->ops->queue(e, u) < 0 || e->ops->commit(e) < 0 || e->ops->reap(e, 1, done, 1) != 1)
		return -1;
	return done[0] == u ? u->result : -1;
}

/* A 1 MiB file of non-zero data, written and synced, already unlinked. */
static int data_fd(struct checks *checks)
{
	char path[] = "/tmp/test_discard.XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return -1;
	unlink(path);
	char *data = malloc(FILE_BYTES);
	memset(data, 0x5a, FILE_BYTES);
	CHECK(pwrite(fd, data, FILE_BYTES, 0) == FILE_BYTES);
	CHECK(fsync(fd) == 0);
	free(data);
	return fd;
}

/* Trims [BLOCK, 2 BLOCK) through engine name, then syncs. */
static void trim_and_sync(struct checks *checks, const char *name)
{
	int fd = data_fd(checks);
	if (fd < 0)
		return;
	struct engine e = { 0 };
	char note[160], err[256], buf[BLOCK];
	CHECK(engine_start(&e, engine_find(name), fd, 4, note, sizeof(note), err, sizeof(err)) ==
	      0);
	if (!e.ops) {
		close(fd);
		return;
	}
	CHECK(lseek(fd, 0, SEEK_HOLE) == FILE_BYTES); /* no hole before the trim */
	struct io_unit t = { .offset = BLOCK, .length = BLOCK, .ddir = DDIR_TRIM, .buf = buf };
	uint64_t before = clock_now_ns();
	CHECK_EQ_U64((uint64_t)one_io(&e, &t), BLOCK);
	CHECK(lseek(fd, 0, SEEK_HOLE) == BLOCK);
	CHECK(lseek(fd, BLOCK, SEEK_DATA) == 2 * BLOCK);
	struct stat st;
	CHECK(fstat(fd, &st) == 0 && st.st_size == FILE_BYTES);
	CHECK(pread(fd, buf, BLOCK, BLOCK) == BLOCK && buf[0] == 0 && buf[BLOCK - 1] == 0);
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

CHECK_MAIN(test_each_engine_trims_and_syncs, test_null_trims_nothing, test_trim_beside_a_read)
