/* read_first.h - before a write touches a block device, every byte it may
 * overwrite is read, and each sector must be zeros or carry ebsbench's own
 * mark (device/data_mark.h).
 *
 * The guard's first look (device/blkdev_probe.h: libblkid and a sample of
 * the device) names formats wherever they sit; this second look reads all
 * of the region the writes can reach, so nothing between the samples is
 * lost.  The region is read whole before the first write (1 MiB reads, 8
 * in flight, through the default engine), not chunk by chunk during it: a
 * refusal leaves the device exactly as it was, and under a throughput cap
 * shared by reads and writes, as EBS's is, the bytes cost the same time
 * either way. */
#ifndef EBSBENCH_READ_FIRST_H
#define EBSBENCH_READ_FIRST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "job/options.h"

struct job_context;

/* What reading a region found. */
struct read_first {
	uint64_t offset, length; /* the region: [offset, offset + length) */
	uint64_t bytes_read;	 /* short of length: a signal stopped it, or data was found */
	uint64_t elapsed_ns;
	bool ebsbench_data; /* some sector carried ebsbench's mark */
	bool found;	    /* a sector that is neither zeros nor ebsbench's ... */
	uint64_t found_at;  /* ... at this byte offset of the device (the lowest read) */
};

/* The region job o may change on a device of size bytes, as target.c
 * settles it: [*offset, *offset + *length).  False when o changes nothing
 * (reads only, or a diskless engine) or its region is empty. */
bool read_first_region(const struct job_options *o, uint64_t size, uint64_t *offset,
		       uint64_t *length);

/* Reads [offset, offset + length) of the block device path and scans every
 * sector, stopping at the first that is neither zeros nor ebsbench's.
 * ctx gives the stop flag and the progress label (its check_reads is
 * ignored).  Returns 0 with r filled, or -1 when the device could not be
 * read (err says why). */
int read_first_device(struct read_first *r, const char *path, uint64_t offset, uint64_t length,
		      const struct job_context *ctx, char *err, size_t errlen);

/* Whether the whole region was read and held only zeros and ebsbench's. */
bool read_first_clean(const struct read_first *r);

/* What a refusal says after the device's name, when the region is not
 * clean: "unrecognised data at byte 1048576 of the 256.0 MiB a write would
 * overwrite (all read first: nothing was written)", or that a signal
 * stopped the read at byte N. */
void read_first_describe(const struct read_first *r, char *buf, size_t len);

#endif
