/* internal.h - what device/'s files share among themselves and nothing
 * outside device/ calls: the contents probe and its phrases, the mark's
 * check, one device's JSON, and the Identify Controller parser and ioctl
 * that discovery uses. */
#ifndef EBSBENCH_DEVICE_INTERNAL_H
#define EBSBENCH_DEVICE_INTERNAL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device/blkdev_probe.h"
#include "device/discover.h"
#include "device/nvme_identify.h"

/* blkdev_probe.c: the probe, what it found in words, and where it reads. */
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

/* The areas the scan reads on a device of size bytes: the two ends, then
 * the samples between them, as (offset, length) pairs in off[] and len[];
 * returns how many (at most 2 + BLKDEV_PROBE_SAMPLES). */
size_t blkdev_scan_areas(uint64_t size, uint64_t *off, size_t *len);

/* data_mark.c: the mark checked. */
/* Whether the sector at byte offset (DATA_MARK_SECTOR bytes at sector)
 * starts with the mark ebsbench writes there. */
bool data_mark_valid(const uint8_t *sector, uint64_t offset);

/* discover_show.c: one device of `discover --json`. */
/* One device as `discover --json` shows it: identity, size, what makes it
 * unsafe to write ("blockers") and what it holds ("contents", null when
 * unreadable). */
json_t *discover_device_json(const struct discovered_device *d);

/* nvme_identify.c: the page parsed, and the ioctl that reads it. */
/* Parse results; negative so they never collide with a field count. */
enum nvme_identify_status {
	NVME_IDENTIFY_OK = 0,
	NVME_IDENTIFY_SHORT = -1,   /* fewer than NVME_IDENTIFY_PAGE_BYTES */
	NVME_IDENTIFY_GARBAGE = -2, /* serial/model/firmware are not padded ASCII */
};

/* Fills out from an Identify Controller page of len bytes.  Returns
 * NVME_IDENTIFY_OK or a negative nvme_identify_status; out is zeroed on
 * error, never half filled. */
int nvme_identify_parse(const uint8_t *page, size_t len, struct nvme_controller_id *out);

/* The kind a model string names (padding already stripped). */
enum nvme_ctrl_kind nvme_identify_kind_from_model(const char *model);

/* "vol0abc..." or "vol-0abc..." -> "vol-0abc...".  Returns 0, or -1 (and
 * out = "") when serial is not an EBS volume id. */
int nvme_identify_volume_id_from_serial(const char *serial, char *out, size_t len);

/* Issues Identify Controller (admin opcode 0x06, CNS 1) on fd, an NVMe
 * namespace or controller node.  Returns 0, -errno from the ioctl, or -EIO
 * when the controller completed the command with an error status.  Needs
 * CAP_SYS_ADMIN. */
int nvme_identify_controller(int fd, uint8_t page[NVME_IDENTIFY_PAGE_BYTES]);

#endif
