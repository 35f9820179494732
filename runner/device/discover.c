/* discover.c - block device enumeration from sysfs and mountinfo (the
 * write-safety verdict on what it finds: discover_guard.c). */
#include "device/discover.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "device/blkdev_probe.h"
#include "device/discover_text.h"
#include "device/internal.h"
#include "lib/lib.h"

#define SYSFS_PATH 512

struct mount_table {
	struct mount_entry *entries;
	size_t count;
};

/* One whole disk or one of its partitions: what mounts and holders match. */
struct blockdev_node {
	const char *name;
	unsigned major, minor;
};

/* snprintf that says whether it all fit: a cut path names another file.
 * Where a cut is harmless (text for people) the result is ignored. */
__attribute__((format(printf, 3, 4))) static bool fmt_fits(char *out, size_t len, const char *fmt,
							   ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(out, len, fmt, ap);
	va_end(ap);
	return n >= 0 && (size_t)n < len;
}

/* ---- small sysfs readers ---- */

/* Reads the first line of dir/rel, trimmed.  Returns 0 or -1. */
static int read_attr(const char *dir, const char *rel, char *buf, size_t len)
{
	char path[SYSFS_PATH];
	if (!fmt_fits(path, sizeof(path), "%s/%s", dir, rel))
		return -1;
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char *got = fgets(buf, (int)len, f);
	fclose(f);
	if (!got)
		return -1;
	discover_sysfs_trim(buf);
	return 0;
}

static uint64_t read_attr_u64(const char *dir, const char *rel)
{
	char buf[32];
	uint64_t v = 0;
	if (read_attr(dir, rel, buf, sizeof(buf)) || discover_sysfs_parse_u64(buf, &v))
		v = 0;
	return v;
}

static int read_dev_numbers(const char *dir, unsigned *major, unsigned *minor)
{
	char buf[32];
	return read_attr(dir, "dev", buf, sizeof(buf))
		       ? -1
		       : discover_sysfs_parse_dev(buf, major, minor);
}

static bool file_exists(const char *dir, const char *a, const char *b)
{
	char path[SYSFS_PATH];
	return fmt_fits(path, sizeof(path), "%s/%s/%s", dir, a, b) && access(path, F_OK) == 0;
}

/* First entry of dir/holders, or "" when none: a dm, md or bcache device
 * built on top. */
static void first_holder(const char *dir, char *out, size_t len)
{
	char path[SYSFS_PATH];
	out[0] = '\0';
	DIR *d = fmt_fits(path, sizeof(path), "%s/holders", dir) ? opendir(path) : NULL;
	if (!d)
		return;
	const struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] != '.') {
			(void)fmt_fits(out, len, "%s", e->d_name);
			break;
		}
	}
	closedir(d);
}

/* ---- names ---- */

/* ---- mountinfo ---- */

static int mount_table_add(struct mount_table *t, const struct mount_entry *m)
{
	struct mount_entry *grown = realloc(t->entries, (t->count + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	t->entries = grown;
	t->entries[t->count++] = *m;
	return 0;
}

static int mount_table_load(const char *path, struct mount_table *t, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return error_set(err, errlen, "cannot read %s: %s", path, strerror(errno));
	char *line = NULL;
	size_t cap = 0;
	int rc = 0;
	while (rc == 0 && getline(&line, &cap, f) > 0) {
		struct mount_entry m;
		if (discover_mountinfo_parse_line(line, &m) == 0 && mount_table_add(t, &m))
			rc = -1;
	}
	free(line);
	fclose(f);
	if (rc)
		snprintf(err, errlen, "out of memory reading %s", path);
	return rc;
}

/* By major:minor, or by source path: btrfs reports an anonymous 0:N
 * device in mountinfo, with the real one only as its source. */
static bool mount_is_on(const struct mount_entry *m, const struct blockdev_node *n)
{
	if (m->major == n->major && m->minor == n->minor && m->major != 0)
		return true;
	return strncmp(m->source, "/dev/", 5) == 0 && strcmp(m->source + 5, n->name) == 0;
}

/* The system mounts, most important first: a disk holding both / and
 * /boot/efi is reported as holding /, whatever order partitions list in. */
static const char *const system_mounts[] = { "/", "/boot", "/boot/efi" };
#define SYSTEM_MOUNTS (ARRAY_SIZE(system_mounts))

static size_t system_rank(const char *point)
{
	size_t r = 0;
	while (r < SYSTEM_MOUNTS && strcmp(point, system_mounts[r]) != 0)
		r++;
	return r; /* SYSTEM_MOUNTS: not a system mount */
}

static void note_mounts(struct discovered_device *d, const struct blockdev_node *n,
			const struct mount_table *t)
{
	for (size_t i = 0; i < t->count; i++) {
		const struct mount_entry *m = &t->entries[i];
		if (!mount_is_on(m, n))
			continue;
		if (!d->mounted) {
			d->mounted = true;
			(void)fmt_fits(d->mounted_name, sizeof(d->mounted_name), "%s", n->name);
			(void)fmt_fits(d->mount_point, sizeof(d->mount_point), "%s", m->point);
		}
		size_t rank = system_rank(m->point);
		if (rank < SYSTEM_MOUNTS && (!d->system || rank < system_rank(d->system_mount))) {
			d->system = true;
			(void)fmt_fits(d->system_mount, sizeof(d->system_mount), "%s",
				       system_mounts[rank]);
		}
	}
}

/* The disk itself, then each partition directory (one with a "partition"
 * file): holders and mounts of either count against the disk. */
static void note_node(struct discovered_device *d, const char *dir, const struct blockdev_node *n,
		      const struct mount_table *t)
{
	if (!d->held) {
		first_holder(dir, d->holder, sizeof(d->holder));
		d->held = d->holder[0] != '\0';
	}
	note_mounts(d, n, t);
}

static void scan_partitions(struct discovered_device *d, const char *dir,
			    const struct mount_table *t)
{
	DIR *dd = opendir(dir);
	if (!dd)
		return;
	const struct dirent *e;
	while ((e = readdir(dd)) != NULL) {
		if (e->d_name[0] == '.' || !file_exists(dir, e->d_name, "partition"))
			continue;
		char part_dir[SYSFS_PATH];
		struct blockdev_node n = { e->d_name, 0, 0 };
		d->partitions++;
		if (fmt_fits(part_dir, sizeof(part_dir), "%s/%s", dir, e->d_name) &&
		    read_dev_numbers(part_dir, &n.major, &n.minor) == 0)
			note_node(d, part_dir, &n, t);
	}
	closedir(dd);
}

/* ---- identity: identify ioctl, sysfs, accept_model ---- */

static void identify_device(struct discovered_device *d, int fd, const char *dir,
			    const struct discover_options *o)
{
	uint8_t page[NVME_IDENTIFY_PAGE_BYTES];
	/* Failures are normal here (not NVMe, no CAP_SYS_ADMIN): sysfs is
	 * the fallback. */
	if (fd >= 0 && nvme_identify_controller(fd, page) == 0 &&
	    nvme_identify_parse(page, sizeof(page), &d->id) == NVME_IDENTIFY_OK)
		d->identified = true;
	if (d->identified) {
		(void)fmt_fits(d->model, sizeof(d->model), "%s", d->id.model);
		(void)fmt_fits(d->serial, sizeof(d->serial), "%s", d->id.serial);
		d->kind = d->id.kind;
	} else {
		if (read_attr(dir, "device/model", d->model, sizeof(d->model)))
			d->model[0] = '\0';
		if (read_attr(dir, "device/serial", d->serial, sizeof(d->serial)))
			d->serial[0] = '\0';
		d->kind = nvme_identify_kind_from_model(d->model);
	}
	bool accepted = o->accept_model && d->model[0] && strcmp(d->model, o->accept_model) == 0;
	d->ebs_like = d->kind == NVME_CTRL_EBS || accepted;
	if (d->ebs_like)
		nvme_identify_volume_id_from_serial(d->serial, d->volume_id, sizeof(d->volume_id));
}

static void probe_contents(struct discovered_device *d, int fd, int open_errno)
{
	d->probe_status = fd < 0 ? -open_errno : blkdev_contents_probe(fd, &d->contents);
}

static void open_and_inspect(struct discovered_device *d, const char *dir,
			     const struct discover_options *o)
{
	int fd = open(d->dev_path, O_RDONLY | O_CLOEXEC);
	int open_errno = errno;
	if (d->nvme)
		identify_device(d, fd, dir, o);
	probe_contents(d, fd, open_errno);
	if (fd >= 0)
		close(fd);
}

/* In a container the disk may go by another name: Kubernetes hands a
 * Block-mode volume to the container as the node its volumeDevices entry
 * names (/dev/xvdb), with the disk's numbers, and there is no /dev/nvme1n1.
 * When dev_root has no node by the kernel's name, the block node in
 * dev_root with the disk's numbers stands for it. */
static void find_alias(struct discovered_device *d, const char *dev_root)
{
	struct stat st;
	if (lstat(d->dev_path, &st) == 0 || errno != ENOENT)
		return;
	DIR *dir = opendir(dev_root);
	if (!dir)
		return;
	const struct dirent *e;
	while ((e = readdir(dir)) != NULL) {
		char path[sizeof(d->dev_path)];
		if (e->d_name[0] == '.' ||
		    !fmt_fits(path, sizeof(path), "%s/%s", dev_root, e->d_name))
			continue;
		if (stat(path, &st) == 0 && S_ISBLK(st.st_mode) && major(st.st_rdev) == d->major &&
		    minor(st.st_rdev) == d->minor) {
			memcpy(d->dev_path, path, sizeof(path));
			break;
		}
	}
	closedir(dir);
}

/* ---- one disk ---- */

/* Fills d from sysfs_root/block/name.  Returns 0, or -1 when the entry is
 * not a disk worth listing (a partition, no dev numbers, zero size). */
static int inspect_disk(struct discovered_device *d, const char *name,
			const struct discover_options *o, const char *sysfs_root,
			const char *dev_root, const struct mount_table *t)
{
	char dir[SYSFS_PATH];
	memset(d, 0, sizeof(*d));
	/* Names too long for our buffers are no disk we know to look for. */
	if (!fmt_fits(d->name, sizeof(d->name), "%s", name) ||
	    !fmt_fits(d->dev_path, sizeof(d->dev_path), "%s/%s", dev_root, name) ||
	    !fmt_fits(dir, sizeof(dir), "%s/block/%s", sysfs_root, name))
		return -1;
	if (file_exists(dir, ".", "partition") || read_dev_numbers(dir, &d->major, &d->minor))
		return -1;
	/* sysfs counts 512-byte sectors whatever the logical block size. */
	d->size_bytes = read_attr_u64(dir, "size") * 512;
	if (d->size_bytes == 0)
		return -1; /* an unbound loop device or an empty drive */
	d->nvme = discover_is_nvme_namespace(name);
	d->logical_block_size = (unsigned)read_attr_u64(dir, "queue/logical_block_size");
	if (!d->logical_block_size)
		d->logical_block_size = 512;
	struct blockdev_node disk = { d->name, d->major, d->minor };
	note_node(d, dir, &disk, t);
	scan_partitions(d, dir, t);
	find_alias(d, dev_root);
	open_and_inspect(d, dir, o);
	return 0;
}

/* ---- enumeration ---- */

static int list_add(struct discover_list *l, const struct discovered_device *d)
{
	struct discovered_device *grown = realloc(l->devices, (l->count + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	l->devices = grown;
	l->devices[l->count++] = *d;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	const struct discovered_device *x = a, *y = b;
	return strverscmp(x->name, y->name);
}

static int scan_block_dir(const struct discover_options *o, const char *sysfs_root,
			  const char *dev_root, const struct mount_table *t,
			  struct discover_list *list, char *err, size_t errlen)
{
	char path[SYSFS_PATH];
	DIR *dir = fmt_fits(path, sizeof(path), "%s/block", sysfs_root) ? opendir(path) : NULL;
	if (!dir)
		return error_set(err, errlen, "cannot list %s: %s", path, strerror(errno));
	struct discovered_device *d = malloc(sizeof(*d));
	int rc = d ? 0 : -1;
	const struct dirent *e;
	while (rc == 0 && (e = readdir(dir)) != NULL) {
		const char *name = e->d_name;
		if (!discover_is_nvme_namespace(name) &&
		    !(o->all_block_devices && discover_is_other_disk(name)))
			continue;
		if (inspect_disk(d, name, o, sysfs_root, dev_root, t) == 0)
			rc = list_add(list, d);
	}
	free(d);
	closedir(dir);
	if (rc)
		snprintf(err, errlen, "out of memory listing %s", path);
	return rc;
}

int discover_devices(const struct discover_options *o, struct discover_list *list, char *err,
		     size_t errlen)
{
	const char *sysfs_root = o->sysfs_root ? o->sysfs_root : "/sys";
	const char *mountinfo = o->mountinfo ? o->mountinfo : "/proc/self/mountinfo";
	const char *dev_root = o->dev_root ? o->dev_root : "/dev";
	struct mount_table mounts = { NULL, 0 };
	list->devices = NULL;
	list->count = 0;
	int rc = mount_table_load(mountinfo, &mounts, err, errlen);
	if (rc == 0)
		rc = scan_block_dir(o, sysfs_root, dev_root, &mounts, list, err, errlen);
	free(mounts.entries);
	if (rc) {
		discover_list_free(list);
		return -1;
	}
	if (list->count > 1)
		qsort(list->devices, list->count, sizeof(list->devices[0]), by_name);
	return 0;
}

void discover_list_free(struct discover_list *list)
{
	free(list->devices);
	list->devices = NULL;
	list->count = 0;
}
