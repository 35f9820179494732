/* blkdev_probe.h - does a device already hold something a write plan would
 * destroy?
 *
 * Two looks.  util-linux's libblkid probes the superblocks and partition
 * tables it knows (well over a hundred filesystems, RAID members, crypto
 * containers and tables, at both ends of the device).  What it does not
 * know is caught by reading the first and last MiB and samples between
 * them: a sector that is neither zeros nor marked by an earlier ebsbench
 * write (data_mark.h) is unrecognised data.
 *
 * This header holds what a probe finds, which a discovered device carries,
 * and the scan of one area, which a region read shares; the probe itself
 * and its phrases are device/'s own (device/internal.h). */
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

/* The scan of one area read from byte offset at of the device: each
 * DATA_MARK_SECTOR-byte sector is zeros, marked by ebsbench, or
 * unrecognised (the lowest offset of all areas scanned into c is kept,
 * whatever their order).  Pure; the probe's and a region read's
 * (job/read_first.h). */
void blkdev_scan_area(const uint8_t *buf, size_t len, uint64_t at, struct blkdev_contents *c);

#endif
