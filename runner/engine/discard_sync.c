/* discard_sync.c - trims and syncs done synchronously, for every engine. */
#include "engine/discard_sync.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/lib.h"

bool discard_is_block(int fd)
{
	struct stat st;
	return fstat(fd, &st) == 0 && S_ISBLK(st.st_mode);
}

/* One attempt: 0 or -errno (a trim's 0 becomes its length below). */
static int discard_sync_once(int fd, bool block, const struct io_unit *u)
{
	int ret;
	if (u->ddir == DDIR_SYNC) {
		ret = fsync(fd);
	} else if (u->ddir == DDIR_DATASYNC) {
		ret = fdatasync(fd);
	} else if (block) {
		uint64_t range[2] = { u->offset, u->length };
		ret = ioctl(fd, BLKDISCARD, range);
	} else {
		ret = fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)u->offset,
				(off_t)u->length);
	}
	return ret < 0 ? -errno : 0;
}

int64_t discard_sync_now(int fd, bool block, const struct io_unit *u)
{
	int ret;
	do
		ret = discard_sync_once(fd, block, u);
	while (ret == -EINTR);
	if (ret < 0)
		return ret;
	return u->ddir == DDIR_TRIM ? (int64_t)u->length : 0;
}

int done_now_init(struct done_now *d, unsigned depth)
{
	d->count = 0;
	d->units = calloc(depth, sizeof(*d->units));
	return d->units ? 0 : -ENOMEM;
}

void done_now_free(struct done_now *d)
{
	free(d->units);
	d->units = NULL;
	d->count = 0;
}

void done_now_run(struct done_now *d, int fd, bool block, struct io_unit *u)
{
	u->issue_ns = clock_now_ns();
	u->result = discard_sync_now(fd, block, u);
	u->done_ns = clock_now_ns();
	d->units[d->count++] = u;
}

unsigned done_now_take(struct done_now *d, struct io_unit **done, unsigned max)
{
	unsigned n = d->count < max ? d->count : max;
	for (unsigned i = 0; i < n; i++)
		done[i] = d->units[i];
	for (unsigned i = n; i < d->count; i++)
		d->units[i - n] = d->units[i];
	d->count -= n;
	return n;
}
