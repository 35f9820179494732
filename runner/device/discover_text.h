/* discover_text.h - parsers for the text discovery reads from sysfs and
 * /proc/self/mountinfo, apart from the file reading around them. */
#ifndef EBSBENCH_DISCOVER_TEXT_H
#define EBSBENCH_DISCOVER_TEXT_H

#include <stdbool.h>
#include <stdint.h>

#include "device/discover.h"

/* One mountinfo line's device, mount point and source. */
struct mount_entry {
	unsigned major, minor;
	char point[256]; /* octal escapes (\040) undone */
	char source[64]; /* after the " - " separator: "/dev/sda1", or "" */
};

/* "36 35 98:0 /root /mnt rw - ext4 /dev/sda1 rw": fields 3 and 5, and the
 * source after the " - " separator.  Returns 0, or -1 when the line has no
 * MAJ:MIN or mount point. */
int discover_mountinfo_parse_line(const char *line, struct mount_entry *m);

/* A sysfs attribute's first line, trimmed in place: trailing whitespace
 * (the newline) and leading spaces go. */
void discover_sysfs_trim(char *buf);
/* "8388608" (size, queue/logical_block_size).  0, or -1 when no number. */
int discover_sysfs_parse_u64(const char *text, uint64_t *out);
/* "259:0" (dev).  0, or -1 when not MAJ:MIN. */
int discover_sysfs_parse_dev(const char *text, unsigned *major, unsigned *minor);

/* nvme<ctrl>n<ns>: a namespace.  Partitions (...p1) and hidden multipath
 * paths (nvme0c0n1) do not match. */
bool discover_is_nvme_namespace(const char *name);
/* loopN, vdX, sdX, xvdX: a whole disk other than NVMe. */
bool discover_is_other_disk(const char *name);

#endif
