/* blkdev_probe.h - does a device already hold something a write plan would
 * destroy?
 *
 * Two looks.  util-linux's libblkid probes the superblocks and partition
 * tables it knows (well over a hundred filesystems, RAID members, crypto
 * containers and tables, at both ends of the device).  What it does not
 * know is caught by reading the first and last MiB and samples between
 * them: a sector that is neither zeros nor marked by an earlier ebsbench
 * write (data_mark.h) is unrecognised data. */
#ifndef EBSBENCH_BLKDEV_PROBE_H
#define EBSBENCH_BLKDEV_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BLKDEV_PROBE_SPAN (1u << 20) /* bytes read at each end */
#define BLKDEV_PROBE_SAMPLES 62u     /* blocks read between the two ends */
#define BLKDEV_PROBE_SAMPLE 4096u    /* bytes in one of them */

/* What one device holds. */
struct blkdev_contents {
	char type[64];		  /* libblkid's TYPE ("vfat", "linux_raid_member"); several
				   * comma-separated when signatures disagree; "" */
	char usage[16];		  /* its USAGE: "filesystem", "raid", "crypto", "other" */
	char pttype[16];	  /* PTTYPE, a partition table ("gpt", "dos"), "" */
	bool ambivalent;	  /* several signatures claim the device */
	bool unrecognised;	  /* non-zero bytes nothing above explains */
	uint64_t unrecognised_at; /* byte offset of the first such sector */
	bool ebsbench_data;	  /* sectors an earlier ebsbench run wrote */
	uint64_t bytes_read;	  /* by the scan (not counting libblkid's reads) */
};

/* Probes the device or image open read-only on fd.  Returns 0, or -errno
 * when it cannot be read (-EIO when libblkid fails). */
int blkdev_contents_probe(int fd, struct blkdev_contents *c);

/* Whether c holds anything a write would destroy. */
bool blkdev_contents_found(const struct blkdev_contents *c);

/* "vfat, gpt" or "unrecognised data" ("" for nothing): for tables. */
void blkdev_contents_short(const struct blkdev_contents *c, char *buf, size_t len);

/* What it holds as a phrase: "a GPT partition table and a vfat filesystem",
 * "unrecognised data (non-zero bytes at byte 1048576 that no known format
 * explains)"; "" for nothing. */
void blkdev_contents_describe(const struct blkdev_contents *c, char *buf, size_t len);

/* The scan of one area read from byte offset at of the device: each
 * DATA_MARK_SECTOR-byte sector is zeros, marked by ebsbench, or
 * unrecognised (the lowest offset of all areas scanned into c is kept,
 * whatever their order).  Pure; the probe's and a region read's
 * (job/read_first.h). */
void blkdev_scan_area(const uint8_t *buf, size_t len, uint64_t at, struct blkdev_contents *c);

/* The areas the scan reads on a device of size bytes: the two ends, then
 * the samples between them, as (offset, length) pairs in off[] and len[];
 * returns how many (at most 2 + BLKDEV_PROBE_SAMPLES). */
size_t blkdev_scan_areas(uint64_t size, uint64_t *off, size_t *len);

#endif
