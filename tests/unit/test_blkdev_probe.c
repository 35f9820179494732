/* test_blkdev_probe.c - each signature on crafted buffers, zeros, short
 * buffers, the name list, and reading the two ends of a file. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blkdev_probe.h"
#include "check.h"

#define SPAN BLKDEV_PROBE_SPAN

struct ends {
	uint8_t *head, *tail;
};

static struct ends zeroed(void)
{
	struct ends e = { calloc(1, SPAN), calloc(1, SPAN) };
	return e;
}

static void release(struct ends *e)
{
	free(e->head);
	free(e->tail);
}

static unsigned probe(const struct ends *e)
{
	return blkdev_probe(e->head, SPAN, e->tail, SPAN);
}

static void put(uint8_t *buf, size_t off, const void *bytes, size_t len)
{
	memcpy(buf + off, bytes, len);
}

static void put_gpt_header(uint8_t *buf, size_t off)
{
	put(buf, off, "EFI PART\x00\x00\x01\x00\x5c\x00\x00\x00", 16);
}

static void put_mbr_entry(uint8_t *head, int slot, uint8_t boot, uint8_t type)
{
	head[446 + slot * 16] = boot;
	head[446 + slot * 16 + 4] = type;
	put(head, 510, "\x55\xaa", 2);
}

static void test_zeros(struct checks *checks)
{
	struct ends e = zeroed();
	CHECK_EQ_U64(probe(&e), 0);
	/* A boot signature with an empty table is no partition table. */
	put(e.head, 510, "\x55\xaa", 2);
	CHECK_EQ_U64(probe(&e), 0);
	release(&e);
}

static void test_gpt(struct checks *checks)
{
	struct ends e = zeroed();
	put_mbr_entry(e.head, 0, 0, 0xEE);
	put_gpt_header(e.head, 512);
	CHECK_EQ_U64(probe(&e), BLKDEV_SIG_GPT); /* and not MBR */
	release(&e);

	e = zeroed();
	put_mbr_entry(e.head, 0, 0, 0xEE);
	put_gpt_header(e.head, 4096); /* 4K-sector disk */
	CHECK_EQ_U64(probe(&e), BLKDEV_SIG_GPT);
	release(&e);

	/* First MiB wiped: the backup header in the last sector remains. */
	e = zeroed();
	put_gpt_header(e.tail, SPAN - 512);
	CHECK_EQ_U64(probe(&e), BLKDEV_SIG_GPT);
	release(&e);
	e = zeroed();
	put_gpt_header(e.tail, SPAN - 4096);
	CHECK_EQ_U64(probe(&e), BLKDEV_SIG_GPT);
	release(&e);

	/* The protective MBR alone still says GPT. */
	e = zeroed();
	put_mbr_entry(e.head, 0, 0, 0xEE);
	CHECK_EQ_U64(probe(&e), BLKDEV_SIG_GPT);
	release(&e);

	/* "EFI PART" without revision 1.0 is not a header. */
	e = zeroed();
	put(e.head, 512, "EFI PART", 8);
	CHECK_EQ_U64(probe(&e), 0);
	release(&e);
}

static void test_mbr(struct checks *checks)
{
	struct ends e = zeroed();
	put_mbr_entry(e.head, 1, 0x80, 0x83);
	CHECK_EQ_U64(probe(&e), BLKDEV_SIG_MBR);
	/* Boot flags other than 0/0x80: boot code, e.g. a FAT boot sector. */
	e.head[446] = 0x33;
	CHECK_EQ_U64(probe(&e), 0);
	release(&e);
}

static void put_ext(uint8_t *head, uint32_t compat, uint32_t incompat, uint32_t ro)
{
	uint8_t *sb = head + 1024;
	sb[24] = 2; /* 4 KiB blocks */
	sb[56] = 0x53;
	sb[57] = 0xEF;
	memcpy(sb + 0x5C, &compat, 4); /* the test host is little-endian too */
	memcpy(sb + 0x60, &incompat, 4);
	memcpy(sb + 0x64, &ro, 4);
}

static void test_ext(struct checks *checks)
{
	struct ends e = zeroed();
	put_ext(e.head, 0, 0x2, 0x3);
	CHECK_EQ_U64(probe(&e), BLKDEV_SIG_EXT2);
	put_ext(e.head, 0x4, 0x2, 0x3);
	CHECK_EQ_U64(probe(&e), BLKDEV_SIG_EXT3);
	/* mkfs.ext4's defaults: extents, 64bit, flex_bg, metadata_csum... */
	put_ext(e.head, 0x3c, 0x2c2, 0x46b);
	CHECK_EQ_U64(probe(&e), BLKDEV_SIG_EXT4);
	e.head[1024 + 24] = 40; /* absurd block size: not a superblock */
	CHECK_EQ_U64(probe(&e), 0);
	release(&e);
}

static void test_filesystems_and_volumes(struct checks *checks)
{
	struct ends e = zeroed();
	put(e.head, 0, "XFSB", 4);
	CHECK_EQ_U64(probe(&e), BLKDEV_SIG_XFS);
	release(&e);

	e = zeroed();
	put(e.head, 65536 + 64, "_BHRfS_M", 8);
	CHECK_EQ_U64(probe(&e), BLKDEV_SIG_BTRFS);
	release(&e);

	e = zeroed();
	put(e.head, 512, "LABELONE", 8);
	put(e.head, 512 + 24, "LVM2 001", 8);
	CHECK_EQ_U64(probe(&e), BLKDEV_SIG_LVM2);
	put(e.head, 512 + 24, "LVM1 001", 8);
	CHECK_EQ_U64(probe(&e), 0);
	release(&e);

	e = zeroed();
	put(e.head, 0, "LUKS\xba\xbe", 6);
	CHECK_EQ_U64(probe(&e), BLKDEV_SIG_LUKS);
	release(&e);
}

static void test_swap(struct checks *checks)
{
	struct ends e = zeroed();
	put(e.head, 4096 - 10, "SWAPSPACE2", 10);
	CHECK_EQ_U64(probe(&e), BLKDEV_SIG_SWAP);
	release(&e);
	e = zeroed();
	put(e.head, 4096 - 10, "SWAP-SPACE", 10);
	CHECK_EQ_U64(probe(&e), BLKDEV_SIG_SWAP);
	release(&e);
	e = zeroed();
	put(e.head, 65536 - 10, "SWAPSPACE2", 10); /* arm64 64 KiB pages */
	CHECK_EQ_U64(probe(&e), BLKDEV_SIG_SWAP);
	release(&e);
}

static void test_short_buffers(struct checks *checks)
{
	uint8_t small[600];
	memset(small, 0, sizeof(small));
	put(small, 0, "XFSB", 4);
	CHECK_EQ_U64(blkdev_probe(small, sizeof(small), small, sizeof(small)), BLKDEV_SIG_XFS);
	CHECK_EQ_U64(blkdev_probe(small, 3, NULL, 0), 0);
	CHECK_EQ_U64(blkdev_probe(NULL, 4096, NULL, 4096), 0);
	/* The ext magic's two bytes fit, the superblock does not. */
	uint8_t part[1082];
	memset(part, 0, sizeof(part));
	part[1080] = 0x53;
	part[1081] = 0xEF;
	CHECK_EQ_U64(blkdev_probe(part, sizeof(part), NULL, 0), 0);
}

static void test_format(struct checks *checks)
{
	char buf[64];
	CHECK_EQ_U64(blkdev_signatures_format(0, buf, sizeof(buf)), 0);
	CHECK(strcmp(buf, "") == 0);
	blkdev_signatures_format(BLKDEV_SIG_GPT | BLKDEV_SIG_EXT4, buf, sizeof(buf));
	CHECK(strcmp(buf, "GPT, ext4") == 0);
	size_t need = blkdev_signatures_format(BLKDEV_SIG_ALL, buf, 8);
	CHECK(strlen(buf) == 7);
	CHECK_EQ_U64(need, strlen("GPT, MBR, ext2, ext3, ext4, xfs, btrfs, LVM2, swap, LUKS"));
	CHECK(strcmp(blkdev_signature_what(BLKDEV_SIG_EXT4), "an ext4 filesystem") == 0);
	CHECK(strcmp(blkdev_signature_name(BLKDEV_SIG_LVM2), "LVM2") == 0);
	CHECK(strcmp(blkdev_signature_name(1u << 30), "unknown") == 0);
}

static int temp_file(char *path, size_t size, size_t marker_at)
{
	int fd = mkstemp(path);
	if (fd < 0)
		return -1;
	unlink(path);
	if (ftruncate(fd, (off_t)size) || pwrite(fd, "XFSB", 4, 0) != 4 ||
	    pwrite(fd, "EFI PART\x00\x00\x01\x00", 12, (off_t)marker_at) != 12) {
		close(fd);
		return -1;
	}
	return fd;
}

static void test_read_ends(struct checks *checks)
{
	char path[] = "/tmp/ebsbench-probe-XXXXXX";
	struct blkdev_ends ends;
	/* 3 MiB with a backup GPT header in its last 512-byte sector. */
	int fd = temp_file(path, 3 * SPAN, 3 * SPAN - 512);
	if (!CHECK(fd >= 0))
		return;
	CHECK_EQ_U64(blkdev_ends_read(fd, &ends), 0);
	CHECK_EQ_U64(ends.size, 3 * SPAN);
	CHECK_EQ_U64(ends.head_len, SPAN);
	CHECK_EQ_U64(ends.tail_len, SPAN);
	CHECK_EQ_U64(blkdev_probe(ends.head, ends.head_len, ends.tail, ends.tail_len),
		     BLKDEV_SIG_XFS | BLKDEV_SIG_GPT);
	blkdev_ends_free(&ends);
	close(fd);

	/* Smaller than one span: both ends are the whole file. */
	char small[] = "/tmp/ebsbench-probe-XXXXXX";
	fd = temp_file(small, 8192, 8192 - 512);
	if (!CHECK(fd >= 0))
		return;
	CHECK_EQ_U64(blkdev_ends_read(fd, &ends), 0);
	CHECK_EQ_U64(ends.head_len, 8192);
	CHECK_EQ_U64(ends.tail_len, 8192);
	CHECK(memcmp(ends.head, ends.tail, 8192) == 0);
	CHECK_EQ_U64(blkdev_probe(ends.head, ends.head_len, ends.tail, ends.tail_len),
		     BLKDEV_SIG_XFS | BLKDEV_SIG_GPT);
	blkdev_ends_free(&ends);
	close(fd);
}

static void test_read_ends_errors(struct checks *checks)
{
	struct blkdev_ends ends;
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (!CHECK(fd >= 0))
		return;
	CHECK_EQ_U64(blkdev_ends_read(fd, &ends), (uint64_t)-ENOTBLK);
	blkdev_ends_free(&ends);
	close(fd);
	CHECK_EQ_U64(blkdev_ends_read(-1, &ends), (uint64_t)-EBADF);
	blkdev_ends_free(&ends);

	/* An empty file: nothing to read, nothing found. */
	char path[] = "/tmp/ebsbench-probe-XXXXXX";
	fd = mkstemp(path);
	if (!CHECK(fd >= 0))
		return;
	unlink(path);
	CHECK_EQ_U64(blkdev_ends_read(fd, &ends), 0);
	CHECK_EQ_U64(blkdev_probe(ends.head, ends.head_len, ends.tail, ends.tail_len), 0);
	blkdev_ends_free(&ends);
	close(fd);
}

CHECK_MAIN(test_zeros, test_gpt, test_mbr, test_ext, test_filesystems_and_volumes, test_swap,
	   test_short_buffers, test_format, test_read_ends, test_read_ends_errors)
