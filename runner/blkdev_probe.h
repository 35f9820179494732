/* blkdev_probe.h - does a device already hold something a write plan would
 * destroy?  Looks for partition tables, filesystems, LVM, swap and LUKS
 * signatures in the first and last MiB.  Detection is pure on buffers; one
 * helper reads the two ends of an open fd. */
#ifndef EBSBENCH_BLKDEV_PROBE_H
#define EBSBENCH_BLKDEV_PROBE_H

#include <stddef.h>
#include <stdint.h>

#define BLKDEV_PROBE_SPAN (1u << 20) /* bytes read at each end */

enum blkdev_signature {
	BLKDEV_SIG_GPT = 1u << 0, /* primary or backup header, or a protective MBR */
	BLKDEV_SIG_MBR = 1u << 1, /* a DOS partition table with entries */
	BLKDEV_SIG_EXT2 = 1u << 2,
	BLKDEV_SIG_EXT3 = 1u << 3,
	BLKDEV_SIG_EXT4 = 1u << 4,
	BLKDEV_SIG_XFS = 1u << 5,
	BLKDEV_SIG_BTRFS = 1u << 6,
	BLKDEV_SIG_LVM2 = 1u << 7,
	BLKDEV_SIG_SWAP = 1u << 8,
	BLKDEV_SIG_LUKS = 1u << 9,
	BLKDEV_SIG_ALL = (1u << 10) - 1,
};

/* The first head_len bytes of a device and its last tail_len bytes (the two
 * overlap on a device under two spans).  Returns a mask of
 * blkdev_signature; 0 means none found.  Either buffer may be short or NULL:
 * checks past its end are skipped. */
unsigned blkdev_probe(const uint8_t *head, size_t head_len, const uint8_t *tail, size_t tail_len);

/* Short name of one signature bit: "GPT", "ext4", "LVM2"... */
const char *blkdev_signature_name(unsigned bit);
/* What one signature bit is, with its article: "an ext4 filesystem". */
const char *blkdev_signature_what(unsigned bit);
/* "GPT, ext4" into buf ("" for 0).  Returns the length it needed, as
 * snprintf does. */
size_t blkdev_signatures_format(unsigned mask, char *buf, size_t len);

struct blkdev_ends {
	uint8_t *head, *tail; /* page aligned, so an O_DIRECT fd works */
	size_t head_len, tail_len;
	uint64_t size; /* of the device or file */
};

/* Reads the first and last BLKDEV_PROBE_SPAN bytes (less on a smaller
 * device) of fd, a block device or regular file.  Returns 0 or -errno;
 * ends needs blkdev_ends_free either way. */
int blkdev_ends_read(int fd, struct blkdev_ends *ends);
void blkdev_ends_free(struct blkdev_ends *ends);

#endif
