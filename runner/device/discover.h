/* discover.h - which block devices are here, what they are (EBS volume,
 * instance store, other), and whether a write plan may touch them.
 *
 * Everything is read from a sysfs tree, a mountinfo file and a directory of
 * device nodes, all parameters, so tests build a fake machine in a temp dir.
 * Nothing here writes to a device. */
#ifndef EBSBENCH_DISCOVER_H
#define EBSBENCH_DISCOVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device/blkdev_probe.h"
#include "device/nvme_identify.h"

struct discover_options {
	const char *sysfs_root; /* NULL: "/sys" */
	const char *mountinfo;	/* NULL: "/proc/self/mountinfo" */
	const char *dev_root;	/* NULL: "/dev"; nodes opened read-only for identify/probe */
	/* Also list loop*, vd*, sd* and xvd* disks, not only NVMe namespaces
	 * (tests and non-Nitro hosts). */
	bool all_block_devices;
	/* A model treated as an EBS volume, for emulators that cannot claim
	 * Amazon's: QEMU's NVMe is always "QEMU NVMe Ctrl", so a guest started
	 * with -device nvme,serial=vol0123456789abcdef0 becomes volume
	 * vol-0123456789abcdef0.  NULL: only real EBS volumes. */
	const char *accept_model;
};

struct discovered_device {
	char name[32];	    /* "nvme1n1" */
	char dev_path[160]; /* dev_root + name: "/dev/nvme1n1", or when that is
			     * missing the node in dev_root with the disk's
			     * numbers (a container's "/dev/xvdb") */
	unsigned major, minor;
	uint64_t size_bytes;
	unsigned logical_block_size;
	bool nvme;
	char model[48];	 /* identify if it answered, else sysfs device/model */
	char serial[32]; /* likewise */
	bool identified; /* id holds a parsed Identify Controller page */
	struct nvme_controller_id id;
	/* From identify, else from the sysfs model (without the ioctl's
	 * vendor id check: sysfs is what an unprivileged pod can see). */
	enum nvme_ctrl_kind kind;
	bool ebs_like;	    /* an EBS volume, or accept_model matched */
	char volume_id[24]; /* "vol-..." when ebs_like and the serial is one */
	unsigned partitions;
	bool held; /* holders/ of the disk or a partition: dm, md, LVM */
	char holder[32];
	bool mounted; /* the disk or a partition, per mountinfo */
	char mounted_name[32];
	char mount_point[256];
	bool system; /* holds /, /boot or /boot/efi */
	char system_mount[16];
	int probe_status; /* 0: contents is valid; else -errno opening, -EIO probing */
	struct blkdev_contents contents;
};

struct discover_list {
	struct discovered_device *devices; /* sorted by name, nvme2n1 before nvme10n1 */
	size_t count;
};

/* Fills list.  Returns 0, or -1 with a one-line reason in err when sysfs
 * or mountinfo cannot be read (without mountinfo nothing is known safe). */
int discover_devices(const struct discover_options *o, struct discover_list *list, char *err,
		     size_t errlen);
void discover_list_free(struct discover_list *list);

enum discover_refusal {
	DISCOVER_WRITE_OK = 0,
	DISCOVER_REFUSE_SYSTEM,	    /* holds /, /boot or /boot/efi */
	DISCOVER_REFUSE_MOUNTED,    /* it or a partition is mounted */
	DISCOVER_REFUSE_HELD,	    /* dm/md/LVM sits on it */
	DISCOVER_REFUSE_UNREADABLE, /* could not check it for data */
	DISCOVER_REFUSE_HAS_DATA,   /* signatures, partitions or unrecognised
				     * data, not in allow_destroy */
};

/* d as messages name it: "/dev/nvme1n1 (vol-0abc...)" or "/dev/loop3". */
void discover_device_name(const struct discovered_device *d, char *out, size_t len);

/* What keeps d from being written, as a phrase without the device's name
 * or advice ("holds an ext4 filesystem", "nvme1n1p1 is mounted on /data"),
 * in what; the refusal code as discover_write_refusal returns it. */
int discover_blocker(const struct discovered_device *d, const char *const *allow_destroy, size_t n,
		     char *what, size_t len);

/* Whether allow_destroy (n entries: volume ids, "vol..." serials, /dev
 * paths) names d: its data may be overwritten. */
bool discover_allows_destroy(const struct discovered_device *d, const char *const *allow_destroy,
			     size_t n);

/* Whether a write plan may run on d.  allow_destroy lists volume ids
 * ("vol-..." or the serial form "vol...") and /dev paths whose data may be
 * overwritten; it never overrides SYSTEM, MOUNTED, HELD or UNREADABLE.
 * Returns DISCOVER_WRITE_OK, or a refusal with a one-line reason naming
 * the device and what was found in why. */
int discover_write_refusal(const struct discovered_device *d, const char *const *allow_destroy,
			   size_t n, char *why, size_t len);

#endif
