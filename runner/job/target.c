/* target.c - open and check the device or file under test. */
#include "job/target.h"
#include "job/internal.h"
#include "lib/lib.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static unsigned sysfs_logical_block(dev_t dev)
{
	char path[128];
	unsigned lbs = 0;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/queue/logical_block_size", major(dev),
		 minor(dev));
	FILE *f = fopen(path, "r");
	if (!f) {
		/* A partition keeps its queue in the parent directory. */
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/../queue/logical_block_size",
			 major(dev), minor(dev));
		f = fopen(path, "r");
	}
	if (f) {
		if (fscanf(f, "%u", &lbs) != 1)
			lbs = 0;
		fclose(f);
	}
	return lbs ? lbs : 512;
}

static int open_error(const char *path, bool writes, int err, char *msg, size_t len)
{
	if (err == EBUSY)
		snprintf(msg, len,
			 "%s: device is busy (mounted, or held by another user); "
			 "refusing to %s it",
			 path, writes ? "write" : "open");
	else if (err == EINVAL)
		snprintf(msg, len, "%s: O_DIRECT is not supported here (use --direct=0)", path);
	else
		snprintf(msg, len, "cannot open %s: %s", path, strerror(err));
	return -1;
}

/* Writes zeros up to end so reads hit allocated blocks, as fio's layout. */
static int lay_out_file(int fd, const char *path, uint64_t from, uint64_t end, char *err,
			size_t errlen)
{
	const size_t chunk = 1u << 20;
	void *zeros;
	if (posix_memalign(&zeros, 4096, chunk))
		return error_set(err, errlen, "out of memory laying out %s", path);
	memset(zeros, 0, chunk);
	fprintf(stderr, "ebsbench: laying out %s (%" PRIu64 " MiB)\n", path, (end - from) >> 20);
	for (uint64_t pos = from & ~(uint64_t)(chunk - 1); pos < end; pos += chunk) {
		size_t n = end - pos < chunk ? (size_t)(end - pos) : chunk;
		if (pwrite(fd, zeros, n, (off_t)pos) != (ssize_t)n) {
			snprintf(err, errlen, "laying out %s: %s", path, strerror(errno));
			free(zeros);
			return -1;
		}
	}
	free(zeros);
	return fsync(fd);
}

static int open_file(struct target *t, const struct job_options *o, const struct stat *st,
		     bool exists, char *err, size_t errlen)
{
	bool writes = options_rw_changes_data(o->rw); /* a trim destroys as a write */
	int flags = O_RDWR | O_CREAT | O_CLOEXEC;
	uint64_t have = exists ? (uint64_t)st->st_size : 0;
	uint64_t want = o->size ? o->offset + o->size : have;
	if (want == 0) { /* refused before it is created: nothing left behind */
		return error_set(err, errlen,
				 "%s: --size is needed to create an empty or missing file",
				 o->filename);
	}
	if (exists && !writes && have >= o->offset + o->size)
		flags = O_RDONLY | O_CLOEXEC;
	int fd = open(o->filename, flags, 0644);
	if (fd < 0)
		return open_error(o->filename, writes, errno, err, errlen);
	if (have < want && lay_out_file(fd, o->filename, have, want, err, errlen)) {
		close(fd);
		return -1;
	}
	struct stat now;
	if (fstat(fd, &now)) {
		close(fd);
		return open_error(o->filename, writes, errno, err, errlen);
	}
	t->fd = fd;
	t->size = (uint64_t)now.st_size;
	t->disk = now.st_dev;
	t->logical_block = sysfs_logical_block(now.st_dev);
	return 0;
}

static int open_block(struct target *t, const struct job_options *o, const struct stat *st,
		      char *err, size_t errlen)
{
	bool writes = options_rw_changes_data(o->rw); /* a trim destroys as a write */
	/* O_EXCL on a block device fails with EBUSY while it is mounted or
	 * held by dm/md: a write job never touches a device in use. */
	int flags = (writes ? O_RDWR | O_EXCL : O_RDONLY) | O_CLOEXEC;
	int fd = open(o->filename, flags);
	if (fd < 0)
		return open_error(o->filename, writes, errno, err, errlen);
	uint64_t bytes = 0;
	int lbs = 0;
	if (ioctl(fd, BLKGETSIZE64, &bytes) || ioctl(fd, BLKSSZGET, &lbs)) {
		snprintf(err, errlen, "%s: cannot read the device size: %s", o->filename,
			 strerror(errno));
		close(fd);
		return -1;
	}
	t->fd = fd;
	t->is_block = true;
	t->size = bytes;
	t->logical_block = lbs > 0 ? (unsigned)lbs : 512;
	t->disk = st->st_rdev;
	return 0;
}

uint64_t target_region_bytes(const struct job_options *o, uint64_t size)
{
	uint64_t room = size - o->offset;
	uint64_t region = o->size && o->size < room ? o->size : room;
	return region - region % options_min_bs(o);
}

static int check_region(struct target *t, const struct job_options *o, char *err, size_t errlen)
{
	if (options_min_bs(o) % t->logical_block || options_max_bs(o) % t->logical_block ||
	    o->offset % t->logical_block) {
		snprintf(err, errlen,
			 "%s: bs %" PRIu32 " and offset %" PRIu64 " must be multiples "
			 "of the logical block size %u",
			 o->filename, o->bs, o->offset, t->logical_block);
		return -1;
	}
	if (o->offset >= t->size || (o->size && o->size > t->size - o->offset)) {
		snprintf(err, errlen,
			 "%s: offset %" PRIu64 " + size %" PRIu64 " is beyond its end "
			 "(%" PRIu64 " bytes)",
			 o->filename, o->offset, o->size, t->size);
		return -1;
	}
	uint64_t region = o->size ? o->size : t->size - o->offset;
	if (region < options_max_bs(o)) {
		snprintf(err, errlen,
			 "%s: the region (%" PRIu64 " bytes) is smaller than bs %" PRIu32,
			 o->filename, region, options_max_bs(o));
		return -1;
	}
	t->region_offset = o->offset;
	t->region_size = target_region_bytes(o, t->size);
	return 0;
}

static int enable_direct(struct target *t, const char *path, char *err, size_t errlen)
{
	int flags = fcntl(t->fd, F_GETFL);
	if (flags < 0 || fcntl(t->fd, F_SETFL, flags | O_DIRECT) < 0)
		return open_error(path, false, EINVAL, err, errlen);
	return 0;
}

/* A diskless engine's (null's) target: no file, a region of --size. */
static int open_nothing(struct target *t, const struct job_options *o, char *err, size_t errlen)
{
	if (!o->size)
		return error_set(err, errlen,
				 "ioengine %s needs --size (it has no file to measure)",
				 o->ioengine->name);
	t->size = o->offset + o->size;
	t->logical_block = 1; /* no device: any bs and offset */
	return check_region(t, o, err, errlen);
}

int target_open(struct target *t, const struct job_options *o, char *err, size_t errlen)
{
	struct stat st;
	memset(t, 0, sizeof(*t));
	t->fd = -1;
	if (o->ioengine->diskless)
		return open_nothing(t, o, err, errlen);
	bool exists = stat(o->filename, &st) == 0;
	if (!exists && errno != ENOENT)
		return error_set(err, errlen, "cannot open %s: %s", o->filename, strerror(errno));
	if (exists && !S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode))
		return error_set(err, errlen, "%s is neither a block device nor a regular file",
				 o->filename);
	if (exists && S_ISBLK(st.st_mode) ? open_block(t, o, &st, err, errlen)
					  : open_file(t, o, &st, exists, err, errlen))
		return -1;
	/* O_DIRECT goes on after any layout, which is plain buffered I/O. */
	if (check_region(t, o, err, errlen) ||
	    (o->direct && enable_direct(t, o->filename, err, errlen))) {
		target_close(t);
		return -1;
	}
	return 0;
}

void target_close(struct target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}
