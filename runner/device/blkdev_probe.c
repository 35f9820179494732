/* blkdev_probe.c - what a device holds: libblkid's verdict on superblocks
 * and partition tables, then a scan for bytes neither it nor ebsbench's
 * own mark explains. */
#include "device/blkdev_probe.h"
#include "device/data_mark.h"
#include "device/internal.h"

#include <blkid/blkid.h>
#include <errno.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

/* Copies libblkid's value name into out ("" when it has none). */
static void lookup(blkid_probe pr, const char *name, char *out, size_t len)
{
	const char *v = NULL;
	out[0] = '\0';
	if (blkid_probe_lookup_value(pr, name, &v, NULL) == 0 && v)
		snprintf(out, len, "%s", v);
}

/* Appends item to the comma-separated list in out, once. */
static void list_add(char *out, size_t len, const char *item)
{
	if (!item[0] || strstr(out, item))
		return;
	size_t used = strlen(out);
	snprintf(out + used, len - used, "%s%s", used ? "," : "", item);
}

/* Signatures disagree (libblkid's -2: say a FAT and an ext4 superblock both
 * valid): walk them one by one so the refusal can name them all. */
static void name_every_signature(blkid_probe pr, struct blkdev_contents *c)
{
	char v[64];
	c->ambivalent = true;
	blkid_reset_probe(pr);
	while (blkid_do_probe(pr) == 0) {
		lookup(pr, "TYPE", v, sizeof(v));
		list_add(c->type, sizeof(c->type), v);
		lookup(pr, "PTTYPE", v, sizeof(v));
		list_add(c->pttype, sizeof(c->pttype), v);
	}
}

/* Superblocks (with bad checksums too: a damaged filesystem is still
 * somebody's data) and partition tables, GPT even without its protective
 * MBR, so a backup header alone at the end is found. */
static int libblkid_probe(int fd, struct blkdev_contents *c)
{
	blkid_probe pr = blkid_new_probe();
	if (!pr || blkid_probe_set_device(pr, fd, 0, 0)) {
		blkid_free_probe(pr);
		return -EIO;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE |
						      BLKID_SUBLKS_BADCSUM);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC | BLKID_PARTS_FORCE_GPT);
	int rc = blkid_do_safeprobe(pr);
	if (rc == 0) {
		lookup(pr, "TYPE", c->type, sizeof(c->type));
		lookup(pr, "USAGE", c->usage, sizeof(c->usage));
		lookup(pr, "PTTYPE", c->pttype, sizeof(c->pttype));
	} else if (rc == -2) {
		name_every_signature(pr, c);
	}
	blkid_free_probe(pr);
	return rc == -1 ? -EIO : 0;
}

/* Words OR-ed together with no early exit, which compilers vectorise: a
 * region read scans gigabytes, and a byte loop (musl's memcmp is one)
 * would cost seconds of CPU for each. */
static bool zeros(const uint8_t *p, size_t len)
{
	uint64_t any = 0, word;
	size_t i = 0;
	for (; i + sizeof(word) <= len; i += sizeof(word)) {
		memcpy(&word, p + i, sizeof(word));
		any |= word;
	}
	for (; i < len; i++)
		any |= p[i];
	return any == 0;
}

/* Areas may come in any order (a region read keeps several reads in
 * flight): c keeps the lowest offset. */
static void note_unrecognised(struct blkdev_contents *c, uint64_t at)
{
	if (!c->unrecognised || at < c->unrecognised_at)
		c->unrecognised_at = at;
	c->unrecognised = true;
}

void blkdev_scan_area(const uint8_t *buf, size_t len, uint64_t at, struct blkdev_contents *c)
{
	for (size_t i = 0; i + DATA_MARK_SECTOR <= len; i += DATA_MARK_SECTOR) {
		const uint8_t *s = buf + i;
		if (zeros(s, DATA_MARK_SECTOR))
			continue;
		if (data_mark_valid(s, at + i)) {
			c->ebsbench_data = true;
			continue;
		}
		note_unrecognised(c, at + i);
	}
	/* A tail shorter than a sector (odd-sized image files). */
	size_t whole = len - len % DATA_MARK_SECTOR;
	if (!zeros(buf + whole, len - whole))
		note_unrecognised(c, at + whole);
}

size_t blkdev_scan_areas(uint64_t size, uint64_t *off, size_t *len)
{
	size_t span = size < BLKDEV_PROBE_SPAN ? (size_t)size : BLKDEV_PROBE_SPAN, n = 0;
	off[n] = 0, len[n++] = span;
	if (size <= BLKDEV_PROBE_SPAN)
		return n;
	off[n] = size - span, len[n++] = span;
	/* Samples evenly spaced through what lies between, block aligned. */
	if (size < 2 * (uint64_t)span + (uint64_t)BLKDEV_PROBE_SAMPLES * BLKDEV_PROBE_SAMPLE)
		return n;
	uint64_t inner = size - 2 * (uint64_t)span;
	for (uint64_t i = 0; i < BLKDEV_PROBE_SAMPLES; i++) {
		uint64_t at = span + inner / (BLKDEV_PROBE_SAMPLES + 1) * (i + 1);
		off[n] = at - at % BLKDEV_PROBE_SAMPLE, len[n++] = BLKDEV_PROBE_SAMPLE;
	}
	return n;
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

/* Reads and scans every area; 0 or -errno. */
static int scan_device(int fd, struct blkdev_contents *c)
{
	uint64_t size, off[2 + BLKDEV_PROBE_SAMPLES];
	size_t len[2 + BLKDEV_PROBE_SAMPLES];
	int rc = device_size(fd, &size);
	if (rc)
		return rc;
	size_t n = blkdev_scan_areas(size, off, len);
	uint8_t *buf = malloc(BLKDEV_PROBE_SPAN);
	if (!buf)
		return -ENOMEM;
	for (size_t i = 0; i < n && rc == 0; i++) {
		rc = read_full(fd, buf, len[i], off[i]);
		if (rc == 0)
			blkdev_scan_area(buf, len[i], off[i], c);
		c->bytes_read += len[i];
	}
	free(buf);
	return rc;
}

int blkdev_contents_probe(int fd, struct blkdev_contents *c)
{
	memset(c, 0, sizeof(*c));
	int rc = scan_device(fd, c);
	rc = rc ? rc : libblkid_probe(fd, c);
	if (c->type[0] || c->pttype[0])
		c->unrecognised = false; /* the non-zero bytes are that format's */
	return rc;
}

bool blkdev_contents_found(const struct blkdev_contents *c)
{
	return c->type[0] || c->pttype[0] || c->unrecognised;
}

void blkdev_contents_short(const struct blkdev_contents *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s", c->type, c->type[0] && c->pttype[0] ? ", " : "", c->pttype,
		 !c->type[0] && !c->pttype[0] && c->unrecognised ? "unrecognised data" : "");
}

/* "a" or "an" before word. */
static const char *article(const char *word)
{
	return strchr("aeiouAEIOU", word[0]) ? "an" : "a";
}

/* "a GPT partition table", "an MBR partition table", "a sun partition table". */
static int describe_table(const char *pttype, char *buf, size_t len)
{
	if (strcmp(pttype, "gpt") == 0)
		return snprintf(buf, len, "a GPT partition table");
	if (strcmp(pttype, "dos") == 0)
		return snprintf(buf, len, "an MBR partition table");
	return snprintf(buf, len, "%s %s partition table", article(pttype), pttype);
}

/* "a vfat filesystem", "a linux_raid_member RAID member", "a crypto_LUKS
 * encrypted volume", "a swap signature". */
static void describe_type(const struct blkdev_contents *c, char *buf, size_t len)
{
	const char *what = strcmp(c->usage, "filesystem") == 0 ? "filesystem"
			   : strcmp(c->usage, "raid") == 0     ? "RAID member"
			   : strcmp(c->usage, "crypto") == 0   ? "encrypted volume"
							       : "signature";
	snprintf(buf, len, "%s %s %s", article(c->type), c->type, what);
}

void blkdev_contents_describe(const struct blkdev_contents *c, char *buf, size_t len)
{
	int n = 0;
	buf[0] = '\0';
	if (c->ambivalent)
		n = snprintf(buf, len, "signatures that disagree (%s%s%s)", c->type,
			     c->type[0] && c->pttype[0] ? "," : "", c->pttype);
	else if (c->pttype[0])
		n = describe_table(c->pttype, buf, len);
	if (!c->ambivalent && c->type[0] && n >= 0 && (size_t)n < len) {
		n += snprintf(buf + n, len - (size_t)n, "%s", n ? " and " : "");
		if ((size_t)n < len)
			describe_type(c, buf + n, len - (size_t)n);
	}
	if (!c->type[0] && !c->pttype[0] && c->unrecognised)
		snprintf(buf, len,
			 "unrecognised data (non-zero bytes at byte %" PRIu64
			 " that no known format explains)",
			 c->unrecognised_at);
}
