/* blkdev_probe.c - on-disk signatures at the two ends of a device.
 *
 * Offsets are those the formats define (as libblkid reads them); each check
 * is skipped when its bytes lie past the buffer it needs. */
#include "blkdev_probe.h"
#include "le.h"

#include <errno.h>
#include <linux/fs.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#define MBR_TABLE 446
#define MBR_ENTRY 16
#define MBR_TYPE_GPT_PROTECTIVE 0xEE
#define EXT_SUPER 1024
#define BTRFS_MAGIC_AT (65536 + 64)

/* Whether buf holds the len bytes of magic at off. */
static bool has(const uint8_t *buf, size_t buf_len, size_t off, const char *magic, size_t len)
{
	return buf && off + len <= buf_len && memcmp(buf + off, magic, len) == 0;
}

static bool has_boot_signature(const uint8_t *head, size_t len)
{
	return has(head, len, 510, "\x55\xaa", 2);
}

static bool has_protective_mbr(const uint8_t *head, size_t len)
{
	if (!has_boot_signature(head, len))
		return false;
	for (int i = 0; i < 4; i++)
		if (head[MBR_TABLE + i * MBR_ENTRY + 4] == MBR_TYPE_GPT_PROTECTIVE)
			return true;
	return false;
}

/* A GPT header: the signature and revision 1.0, which every writer uses. */
static bool gpt_header_at(const uint8_t *buf, size_t len, size_t off)
{
	return has(buf, len, off, "EFI PART", 8) && le32(buf + off + 8) == 0x00010000;
}

static bool has_gpt(const uint8_t *head, size_t head_len, const uint8_t *tail, size_t tail_len)
{
	/* LBA 1 for 512- and 4096-byte sectors; the backup header is the
	 * last sector, which outlives a wipe of the first MiB. */
	if (gpt_header_at(head, head_len, 512) || gpt_header_at(head, head_len, 4096))
		return true;
	if (tail_len >= 512 && gpt_header_at(tail, tail_len, tail_len - 512))
		return true;
	if (tail_len >= 4096 && gpt_header_at(tail, tail_len, tail_len - 4096))
		return true;
	return has_protective_mbr(head, head_len);
}

/* A DOS table with at least one entry.  Boot flags other than 0x00/0x80
 * mean the bytes are boot code (a FAT or NTFS boot sector), not a table. */
static bool has_mbr(const uint8_t *head, size_t len)
{
	if (!has_boot_signature(head, len) || has_protective_mbr(head, len))
		return false;
	bool used = false;
	for (int i = 0; i < 4; i++) {
		const uint8_t *e = head + MBR_TABLE + i * MBR_ENTRY;
		if (e[0] != 0x00 && e[0] != 0x80)
			return false;
		used |= e[4] != 0;
	}
	return used;
}

/* ext2/3/4 share a magic; the feature flags tell them apart as libblkid
 * does: features ext3 cannot handle make ext4, a journal alone ext3. */
static unsigned ext_variant(const uint8_t *head, size_t len)
{
	if (!has(head, len, EXT_SUPER + 56, "\x53\xef", 2) || len < EXT_SUPER + 1024)
		return 0;
	const uint8_t *sb = head + EXT_SUPER;
	if (le32(sb + 24) > 6) /* block size above 64 KiB: not a superblock */
		return 0;
	uint32_t compat = le32(sb + 0x5C), incompat = le32(sb + 0x60), ro = le32(sb + 0x64);
	const uint32_t ext3_incompat = 0x0002 | 0x0004 | 0x0010; /* filetype, recover, meta_bg */
	const uint32_t ext3_ro = 0x0001 | 0x0002 | 0x0004; /* sparse_super, large_file, btree */
	if ((incompat & ~ext3_incompat) || (ro & ~ext3_ro))
		return BLKDEV_SIG_EXT4;
	return (compat & 0x0004) ? BLKDEV_SIG_EXT3 : BLKDEV_SIG_EXT2; /* has_journal */
}

static bool has_lvm2(const uint8_t *head, size_t len)
{
	for (size_t sector = 0; sector < 4; sector++)
		if (has(head, len, sector * 512, "LABELONE", 8) &&
		    has(head, len, sector * 512 + 24, "LVM2 001", 8))
			return true;
	return false;
}

static bool has_swap(const uint8_t *head, size_t len)
{
	/* The signature ends the first page; arm64 kernels may use 64 KiB. */
	static const size_t pages[] = { 4096, 8192, 16384, 65536 };
	for (size_t i = 0; i < sizeof(pages) / sizeof(pages[0]); i++)
		if (has(head, len, pages[i] - 10, "SWAPSPACE2", 10) ||
		    has(head, len, pages[i] - 10, "SWAP-SPACE", 10))
			return true;
	return false;
}

unsigned blkdev_probe(const uint8_t *head, size_t head_len, const uint8_t *tail, size_t tail_len)
{
	unsigned mask = 0;
	if (!head)
		head_len = 0;
	if (!tail)
		tail_len = 0;
	if (has_gpt(head, head_len, tail, tail_len))
		mask |= BLKDEV_SIG_GPT;
	if (has_mbr(head, head_len))
		mask |= BLKDEV_SIG_MBR;
	mask |= ext_variant(head, head_len);
	if (has(head, head_len, 0, "XFSB", 4))
		mask |= BLKDEV_SIG_XFS;
	if (has(head, head_len, BTRFS_MAGIC_AT, "_BHRfS_M", 8))
		mask |= BLKDEV_SIG_BTRFS;
	if (has_lvm2(head, head_len))
		mask |= BLKDEV_SIG_LVM2;
	if (has_swap(head, head_len))
		mask |= BLKDEV_SIG_SWAP;
	if (has(head, head_len, 0, "LUKS\xba\xbe", 6))
		mask |= BLKDEV_SIG_LUKS;
	return mask;
}

struct signature_text {
	unsigned bit;
	const char *name, *what;
};

static const struct signature_text signature_texts[] = {
	{ BLKDEV_SIG_GPT, "GPT", "a GPT partition table" },
	{ BLKDEV_SIG_MBR, "MBR", "an MBR partition table" },
	{ BLKDEV_SIG_EXT2, "ext2", "an ext2 filesystem" },
	{ BLKDEV_SIG_EXT3, "ext3", "an ext3 filesystem" },
	{ BLKDEV_SIG_EXT4, "ext4", "an ext4 filesystem" },
	{ BLKDEV_SIG_XFS, "xfs", "an XFS filesystem" },
	{ BLKDEV_SIG_BTRFS, "btrfs", "a Btrfs filesystem" },
	{ BLKDEV_SIG_LVM2, "LVM2", "an LVM2 physical volume" },
	{ BLKDEV_SIG_SWAP, "swap", "swap space" },
	{ BLKDEV_SIG_LUKS, "LUKS", "a LUKS encrypted volume" },
};

static const struct signature_text *signature_text(unsigned bit)
{
	for (size_t i = 0; i < sizeof(signature_texts) / sizeof(signature_texts[0]); i++)
		if (signature_texts[i].bit == bit)
			return &signature_texts[i];
	return NULL;
}

const char *blkdev_signature_name(unsigned bit)
{
	const struct signature_text *t = signature_text(bit);
	return t ? t->name : "unknown";
}

const char *blkdev_signature_what(unsigned bit)
{
	const struct signature_text *t = signature_text(bit);
	return t ? t->what : "an unknown signature";
}

size_t blkdev_signatures_format(unsigned mask, char *buf, size_t len)
{
	size_t used = 0;
	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < sizeof(signature_texts) / sizeof(signature_texts[0]); i++) {
		if (!(mask & signature_texts[i].bit))
			continue;
		int n = snprintf(used < len ? buf + used : NULL, used < len ? len - used : 0,
				 "%s%s", used ? ", " : "", signature_texts[i].name);
		used += n > 0 ? (size_t)n : 0;
	}
	return used;
}

static int device_size(int fd, uint64_t *size)
{
	struct stat st;
	if (fstat(fd, &st))
		return -errno;
	if (S_ISREG(st.st_mode)) {
		*size = (uint64_t)st.st_size;
		return 0;
	}
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	return ioctl(fd, BLKGETSIZE64, size) ? -errno : 0;
}

static int read_full(int fd, uint8_t *buf, size_t len, uint64_t off)
{
	size_t done = 0;
	while (done < len) {
		ssize_t n = pread(fd, buf + done, len - done, (off_t)(off + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO; /* shrank under us */
		done += (size_t)n;
	}
	return 0;
}

static int read_span(int fd, uint64_t off, size_t len, uint8_t **out)
{
	void *buf;
	if (len == 0)
		return 0;
	if (posix_memalign(&buf, 4096, len))
		return -ENOMEM;
	*out = buf;
	return read_full(fd, buf, len, off);
}

int blkdev_ends_read(int fd, struct blkdev_ends *ends)
{
	memset(ends, 0, sizeof(*ends));
	int rc = device_size(fd, &ends->size);
	if (rc)
		return rc;
	size_t span = ends->size < BLKDEV_PROBE_SPAN ? (size_t)ends->size : BLKDEV_PROBE_SPAN;
	ends->head_len = ends->tail_len = span;
	rc = read_span(fd, 0, span, &ends->head);
	if (rc == 0)
		rc = read_span(fd, ends->size - span, span, &ends->tail);
	return rc;
}

void blkdev_ends_free(struct blkdev_ends *ends)
{
	free(ends->head);
	free(ends->tail);
	ends->head = ends->tail = NULL;
	ends->head_len = ends->tail_len = 0;
}
