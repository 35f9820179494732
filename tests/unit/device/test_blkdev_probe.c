/* test_blkdev_probe.c - ebsbench's own mark, the scan for unrecognised
 * data, the areas it reads, and libblkid on files made by real tools. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/blkdev_probe.h"
#include "check.h"
#include "device/data_mark.h"
#include "device/internal.h"

#define SECTOR DATA_MARK_SECTOR

static void test_mark(struct checks *checks)
{
	uint8_t buf[4 * SECTOR];
	memset(buf, 0xA5, sizeof(buf));
	data_mark_stamp(buf, sizeof(buf), 8192);
	for (unsigned i = 0; i < 4; i++)
		CHECK(data_mark_valid(buf + i * SECTOR, 8192 + i * SECTOR));
	/* A header names its own place: elsewhere it does not verify. */
	CHECK(!data_mark_valid(buf, 8192 + SECTOR));
	CHECK(!data_mark_valid(buf + SECTOR, 8192));
	/* The payload after the header is the job's, untouched. */
	CHECK_EQ_U64(buf[DATA_MARK_LEN], 0xA5);
	CHECK_EQ_U64(buf[SECTOR - 1], 0xA5);
	/* A changed check word or magic is not the mark. */
	buf[24] ^= 1;
	CHECK(!data_mark_valid(buf, 8192));
	buf[24] ^= 1;
	buf[3] ^= 1;
	CHECK(!data_mark_valid(buf, 8192));
	/* Off a sector boundary only whole sectors are stamped. */
	uint8_t odd[2 * SECTOR];
	memset(odd, 0, sizeof(odd));
	data_mark_stamp(odd, sizeof(odd), 100);
	CHECK_EQ_U64(odd[0], 0);
	CHECK(data_mark_valid(odd + SECTOR - 100, SECTOR));
}

static void test_scan_area(struct checks *checks)
{
	uint8_t buf[8 * SECTOR];
	struct blkdev_contents c;
	memset(buf, 0, sizeof(buf));
	memset(&c, 0, sizeof(c));
	blkdev_scan_area(buf, sizeof(buf), 0, &c);
	CHECK(!c.unrecognised && !c.ebsbench_data);

	data_mark_stamp(buf, 4 * SECTOR, 1 << 20);
	blkdev_scan_area(buf, sizeof(buf), 1 << 20, &c);
	CHECK(c.ebsbench_data && !c.unrecognised);
	CHECK(!blkdev_contents_found(&c));

	/* The same sectors read from another offset are not ebsbench's. */
	memset(&c, 0, sizeof(c));
	blkdev_scan_area(buf, sizeof(buf), 2 << 20, &c);
	CHECK(c.unrecognised);
	CHECK_EQ_U64(c.unrecognised_at, 2 << 20);

	/* One stray byte in a zero sector: the first one is reported. */
	memset(&c, 0, sizeof(c));
	buf[6 * SECTOR + 17] = 1;
	buf[7 * SECTOR] = 1;
	blkdev_scan_area(buf, sizeof(buf), 1 << 20, &c);
	CHECK(c.unrecognised && c.ebsbench_data);
	CHECK_EQ_U64(c.unrecognised_at, (1 << 20) + 6 * SECTOR);
	CHECK(blkdev_contents_found(&c));

	/* Areas scanned out of order (reads in flight complete so): the
	 * lowest offset is kept, not the first scanned. */
	memset(&c, 0, sizeof(c));
	blkdev_scan_area(buf, sizeof(buf), 3 << 20, &c); /* unmarked there */
	blkdev_scan_area(buf, sizeof(buf), 1 << 20, &c);
	CHECK_EQ_U64(c.unrecognised_at, (1 << 20) + 6 * SECTOR);
	blkdev_scan_area(buf, sizeof(buf), 2 << 20, &c);
	CHECK_EQ_U64(c.unrecognised_at, (1 << 20) + 6 * SECTOR);

	/* A short tail past the last whole sector counts too. */
	memset(&c, 0, sizeof(c));
	uint8_t tail[SECTOR + 10] = { 0 };
	tail[SECTOR + 9] = 7;
	blkdev_scan_area(tail, sizeof(tail), 0, &c);
	CHECK(c.unrecognised);
	CHECK_EQ_U64(c.unrecognised_at, SECTOR);
}

static void test_scan_areas(struct checks *checks)
{
	uint64_t off[2 + BLKDEV_PROBE_SAMPLES];
	size_t len[2 + BLKDEV_PROBE_SAMPLES];
	CHECK_EQ_U64(blkdev_scan_areas(8192, off, len), 1);
	CHECK_EQ_U64(off[0], 0);
	CHECK_EQ_U64(len[0], 8192);
	/* Two ends that overlap, no room for samples. */
	CHECK_EQ_U64(blkdev_scan_areas(3 << 19, off, len), 2);
	CHECK_EQ_U64(off[1], 1 << 19);
	CHECK_EQ_U64(len[1], BLKDEV_PROBE_SPAN);

	uint64_t size = 100ull << 30;
	size_t n = blkdev_scan_areas(size, off, len);
	CHECK_EQ_U64(n, 2 + BLKDEV_PROBE_SAMPLES);
	CHECK_EQ_U64(off[1] + len[1], size);
	uint64_t prev = BLKDEV_PROBE_SPAN;
	for (size_t i = 2; i < n; i++) {
		CHECK_EQ_U64(off[i] % BLKDEV_PROBE_SAMPLE, 0);
		CHECK_EQ_U64(len[i], BLKDEV_PROBE_SAMPLE);
		CHECK(off[i] >= prev && off[i] + len[i] <= size - BLKDEV_PROBE_SPAN);
		prev = off[i] + len[i];
	}
	/* Spread over the device, not bunched at one end. */
	CHECK(off[2] < size / 32 && off[n - 1] > size - size / 32);
}

/* A temp file of size bytes (zeros), its path in path. */
static int temp_file(char *path, size_t size)
{
	int fd = mkstemp(path);
	if (fd >= 0 && ftruncate(fd, (off_t)size)) {
		close(fd);
		return -1;
	}
	return fd;
}

static int probe_path(const char *path, struct blkdev_contents *c)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int rc = fd < 0 ? -errno : blkdev_contents_probe(fd, c);
	if (fd >= 0)
		close(fd);
	return rc;
}

static void test_probe_files(struct checks *checks)
{
	char path[] = "/tmp/ebsbench-probe-XXXXXX";
	struct blkdev_contents c;
	int fd = temp_file(path, 8 << 20);
	if (!CHECK(fd >= 0))
		return;
	CHECK_EQ_U64(probe_path(path, &c), 0);
	CHECK(!blkdev_contents_found(&c) && !c.ebsbench_data);
	CHECK_EQ_U64(c.bytes_read, 2 * BLKDEV_PROBE_SPAN + BLKDEV_PROBE_SAMPLES * 4096);

	/* What ebsbench wrote at the start is its own. */
	static uint8_t block[1 << 16];
	memset(block, 0x5A, sizeof(block));
	data_mark_stamp(block, sizeof(block), 0);
	CHECK_EQ_U64(pwrite(fd, block, sizeof(block), 0), sizeof(block));
	CHECK_EQ_U64(probe_path(path, &c), 0);
	CHECK(!blkdev_contents_found(&c) && c.ebsbench_data);

	/* Data of someone else in the middle, where only a sample looks. */
	uint64_t off[2 + BLKDEV_PROBE_SAMPLES];
	size_t len[2 + BLKDEV_PROBE_SAMPLES];
	blkdev_scan_areas(8 << 20, off, len);
	CHECK_EQ_U64(pwrite(fd, "x", 1, (off_t)off[40] + 700), 1);
	CHECK_EQ_U64(probe_path(path, &c), 0);
	CHECK(blkdev_contents_found(&c) && c.unrecognised);
	CHECK_EQ_U64(c.unrecognised_at, off[40] + 512);
	char what[256];
	blkdev_contents_describe(&c, what, sizeof(what));
	CHECK(strstr(what, "unrecognised data (non-zero bytes at byte ") == what);
	close(fd);

	/* A real filesystem, by its own tool: libblkid names it. */
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "mkfs.ext4 -q -F %s 2>/dev/null", path);
	if (CHECK(system(cmd) == 0)) {
		CHECK_EQ_U64(probe_path(path, &c), 0);
		CHECK(strcmp(c.type, "ext4") == 0 && strcmp(c.usage, "filesystem") == 0);
		CHECK(!c.unrecognised); /* the bytes are the filesystem's */
		blkdev_contents_describe(&c, what, sizeof(what));
		CHECK(strcmp(what, "an ext4 filesystem") == 0);
	}
	unlink(path);
	CHECK_EQ_U64(probe_path("/dev/null", &c), (uint64_t)-ENOTBLK);
}

static void test_describe(struct checks *checks)
{
	struct blkdev_contents c = { .type = "vfat", .usage = "filesystem", .pttype = "gpt" };
	char buf[256];
	blkdev_contents_describe(&c, buf, sizeof(buf));
	CHECK(strcmp(buf, "a GPT partition table and a vfat filesystem") == 0);
	blkdev_contents_short(&c, buf, sizeof(buf));
	CHECK(strcmp(buf, "vfat, gpt") == 0);

	struct blkdev_contents raid = { .type = "linux_raid_member", .usage = "raid" };
	blkdev_contents_describe(&raid, buf, sizeof(buf));
	CHECK(strcmp(buf, "a linux_raid_member RAID member") == 0);
	struct blkdev_contents dos = { .pttype = "dos" };
	blkdev_contents_describe(&dos, buf, sizeof(buf));
	CHECK(strcmp(buf, "an MBR partition table") == 0);
	struct blkdev_contents two = { .type = "ext4,swap", .ambivalent = true };
	blkdev_contents_describe(&two, buf, sizeof(buf));
	CHECK(strcmp(buf, "signatures that disagree (ext4,swap)") == 0);
	struct blkdev_contents junk = { .unrecognised = true, .unrecognised_at = 4096 };
	blkdev_contents_short(&junk, buf, sizeof(buf));
	CHECK(strcmp(buf, "unrecognised data") == 0);
	struct blkdev_contents none = { .ebsbench_data = true };
	blkdev_contents_describe(&none, buf, sizeof(buf));
	CHECK_EQ_U64(strlen(buf), 0);
	/* A tiny buffer is cut, never overrun. */
	blkdev_contents_describe(&c, buf, 8);
	CHECK_EQ_U64(strlen(buf), 7);
}

CHECK_MAIN(test_mark, test_scan_area, test_scan_areas, test_probe_files, test_describe)
