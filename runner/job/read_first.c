/* read_first.c - the region a write may reach, read and checked before the
 * write (see read_first.h for why whole and first). */
#include "job/job.h"
#include "job/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#define READ_FIRST_BS (1u << 20)
#define READ_FIRST_DEPTH 8u

bool read_first_region(const struct job_options *o, uint64_t size, uint64_t *offset,
		       uint64_t *length)
{
	if (!options_rw_changes_data(o->rw) || o->ioengine->diskless || o->offset >= size)
		return false;
	*offset = o->offset;
	*length = target_region_bytes(o, size);
	return *length > 0;
}

/* The read job over [offset, offset + length) in blocks of bs. */
static int span_options(struct job_options *o, const char *path, uint64_t offset, uint64_t length,
			uint32_t bs, char *err, size_t errlen)
{
	options_defaults(o);
	return options_set(o, "name", "read-first", err, errlen) ||
			       options_set(o, "filename", path, err, errlen) ||
			       options_set(o, "rw", "read", err, errlen) ||
			       options_set(o, "direct", "1", err, errlen) ||
			       options_set_number(o, "bs", bs, err, errlen) ||
			       options_set_number(o, "iodepth", READ_FIRST_DEPTH, err, errlen) ||
			       options_set_number(o, "offset", offset, err, errlen) ||
			       options_set_number(o, "size", length, err, errlen)
		       ? -1
		       : 0;
}

/* One read job over a span, its data scanned into seen. */
static int read_span(struct read_first *r, const char *path, uint64_t offset, uint64_t length,
		     uint32_t bs, struct blkdev_contents *seen, const struct job_context *ctx,
		     char *err, size_t errlen)
{
	struct job_options *o = malloc(sizeof(*o));
	struct job_stats *s = malloc(sizeof(*s));
	struct job_context checked = *ctx;
	int rc = -1;
	checked.check_reads = seen;
	if (!o || !s)
		snprintf(err, errlen, "out of memory");
	else if (span_options(o, path, offset, length, bs, err, errlen) == 0) {
		rc = job_run_once(o, s, &checked, err, errlen);
		r->bytes_read += s->dir[DDIR_READ].bytes;
		r->elapsed_ns += s->elapsed_ns;
	}
	free(o);
	free(s);
	return rc;
}

int read_first_device(struct read_first *r, const char *path, uint64_t offset, uint64_t length,
		      const struct job_context *ctx, char *err, size_t errlen)
{
	struct blkdev_contents seen;
	memset(r, 0, sizeof(*r));
	memset(&seen, 0, sizeof(seen));
	r->offset = offset;
	r->length = length;
	/* Whole MiBs, then what is left (a multiple of the job's block size,
	 * and so of the device's logical block) in one read. */
	uint64_t whole = length - length % READ_FIRST_BS, tail = length - whole;
	int rc = 0;
	if (whole)
		rc = read_span(r, path, offset, whole, READ_FIRST_BS, &seen, ctx, err, errlen);
	if (rc == 0 && tail && !seen.unrecognised && !(ctx->stop && *ctx->stop))
		rc = read_span(r, path, offset + whole, tail, (uint32_t)tail, &seen, ctx, err,
			       errlen);
	r->ebsbench_data = seen.ebsbench_data;
	r->found = seen.unrecognised;
	r->found_at = seen.unrecognised_at;
	return rc;
}

bool read_first_clean(const struct read_first *r)
{
	return !r->found && r->bytes_read == r->length;
}

void read_first_describe(const struct read_first *r, char *buf, size_t len)
{
	double mib = (double)r->length / 1048576.0;
	if (r->found)
		snprintf(buf, len,
			 "unrecognised data at byte %" PRIu64 " of the %.1f MiB a write would "
			 "overwrite (all read first: nothing was written)",
			 r->found_at, mib);
	else
		snprintf(buf, len,
			 "read %" PRIu64 " of the %" PRIu64 " bytes a write would overwrite "
			 "before it stopped: nothing was written",
			 r->bytes_read, r->length);
}

/* The size of the block device at path: 0, 1 when it is in use (mounted
 * or held: the job's own O_EXCL open refuses it, saying so), or -1 with
 * err. */
static int device_bytes(const char *path, uint64_t *size, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0 && errno == EBUSY)
		return 1;
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, size)) {
		snprintf(err, errlen, "cannot read the size of %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

int read_first_job(struct read_first *r, const struct job_options *o, const struct job_context *ctx,
		   char *err, size_t errlen)
{
	struct stat st;
	uint64_t size, offset, length;
	memset(r, 0, sizeof(*r));
	/* A regular file is written as fio writes it; a missing one is made. */
	if (o->allow_destroy || !options_rw_changes_data(o->rw) || o->ioengine->diskless ||
	    stat(o->filename, &st) || !S_ISBLK(st.st_mode))
		return 0;
	int in_use = device_bytes(o->filename, &size, err, errlen);
	if (in_use)
		return in_use < 0 ? -1 : 0;
	if (!read_first_region(o, size, &offset, &length))
		return 0;
	return read_first_device(r, o->filename, offset, length, ctx, err, errlen);
}
