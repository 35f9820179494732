/* test_discover.c - discovery on a fake machine built in a temp dir: a
 * sysfs tree, a mountinfo file and regular files standing in for device
 * nodes (the identify ioctl fails on them, as on any non-NVMe node). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "device/blkdev_probe.h"
#include "check.h"
#include "device/discover.h"
#include "device/internal.h"

struct machine {
	char root[64];
	struct discover_options opts;
	char sys[128], dev[128], mountinfo[128];
};

__attribute__((format(printf, 2, 3))) static void path_of(char *out, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(out, 512, fmt, ap);
	va_end(ap);
}

static int mkdir_p(const char *path)
{
	char buf[512];
	path_of(buf, "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, 0755) && errno != EEXIST ? -1 : 0;
}

/* Writes text to dir/rel, making dir/rel's directories. */
static int put_file(const char *dir, const char *rel, const char *text)
{
	char path[512], parent[512];
	path_of(path, "%s/%s", dir, rel);
	path_of(parent, "%s", path);
	*strrchr(parent, '/') = '\0';
	if (mkdir_p(parent))
		return -1;
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static int add_disk(struct machine *m, const char *name, const char *dev, const char *sectors,
		    const char *model, const char *serial)
{
	char dir[512];
	path_of(dir, "%s/block/%s", m->sys, name);
	int rc = put_file(dir, "dev", dev) | put_file(dir, "size", sectors) |
		 put_file(dir, "queue/logical_block_size", "4096\n") |
		 mkdir_p(strcat(dir, "/holders"));
	path_of(dir, "%s/block/%s", m->sys, name);
	if (model)
		rc |= put_file(dir, "device/model", model) | put_file(dir, "device/serial", serial);
	return rc;
}

static int add_partition(struct machine *m, const char *disk, const char *part, const char *dev)
{
	char dir[512];
	path_of(dir, "%s/block/%s/%s", m->sys, disk, part);
	return put_file(dir, "partition", "1\n") | put_file(dir, "dev", dev) |
	       mkdir_p(strcat(dir, "/holders"));
}

/* A stand-in device node: 2 MiB of zeros, or an ext4 filesystem made by
 * Debian's mkfs.ext4 (what libblkid must recognise) if asked. */
static int add_node(struct machine *m, const char *name, bool ext4)
{
	char path[512], cmd[600];
	path_of(path, "%s/%s", m->dev, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	int rc = ftruncate(fd, 2 << 20);
	close(fd);
	path_of(cmd, "mkfs.ext4 -q -F '%s' 2>/dev/null", path);
	if (rc == 0 && ext4 && system(cmd) != 0)
		rc = -1;
	return rc;
}

static const char mountinfo_text[] =
	"21 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw\n"
	"22 21 259:1 / /boot/efi rw,relatime shared:2 - vfat /dev/nvme0n1p1 rw\n"
	"23 21 0:22 / /proc rw,nosuid - proc proc rw\n"
	"30 21 259:11 / /data rw,noatime shared:5 - xfs /dev/nvme2n1p1 rw\n"
	/* btrfs: anonymous 0:N numbers; only the source names the disk. */
	"31 21 0:45 / /mnt/my\\040btrfs rw - btrfs /dev/sda rw\n";

static int build_tree(struct machine *m)
{
	char block[512];
	path_of(block, "%s/block", m->sys);
	const char *ebs = "Amazon Elastic Block Store\n";
	int rc = mkdir_p(block) | mkdir_p(m->dev) | put_file(m->root, "mountinfo", mountinfo_text);
	/* The root disk: EFI system partition and /. */
	rc |= add_disk(m, "nvme0n1", "259:0\n", "16777216\n", ebs, "vol0aaaaaaaaaaaaaaaaa\n");
	rc |= add_partition(m, "nvme0n1", "nvme0n1p1", "259:1\n");
	rc |= add_partition(m, "nvme0n1", "nvme0n1p2", "259:2\n");
	/* A fresh EBS volume: the one to benchmark. */
	rc |= add_disk(m, "nvme1n1", "259:3\n", "2097152\n", ebs, "vol0bbbbbbbbbbbbbbbbb\n");
	rc |= add_node(m, "nvme1n1", false);
	/* A data volume with a mounted partition. */
	rc |= add_disk(m, "nvme2n1", "259:10\n", "2097152\n", ebs, "vol0ccccccccccccccccc\n");
	rc |= add_partition(m, "nvme2n1", "nvme2n1p1", "259:11\n");
	rc |= add_node(m, "nvme2n1", false);
	/* An LVM physical volume in use. */
	rc |= add_disk(m, "nvme3n1", "259:20\n", "2097152\n", ebs, "vol0ddddddddddddddddd\n");
	rc |= put_file(block, "nvme3n1/holders/dm-0", "");
	rc |= add_node(m, "nvme3n1", false);
	/* QEMU's emulated EBS volume, left with an ext4 filesystem. */
	rc |= add_disk(m, "nvme4n1", "259:30\n", "4096\n", "QEMU NVMe Ctrl      \n",
		       "vol0123456789abcdef0\n");
	rc |= add_node(m, "nvme4n1", true);
	/* No node to open: cannot be checked. */
	rc |= add_disk(m, "nvme10n1", "259:40\n", "2097152\n", ebs, "vol0eeeeeeeeeeeeeeeee\n");
	/* Not namespaces: a hidden multipath path and a stray partition. */
	rc |= add_disk(m, "nvme0c0n1", "259:50\n", "2097152\n", ebs, "x\n");
	rc |= add_disk(m, "nvme5n1p1", "259:51\n", "2097152\n", NULL, NULL);
	rc |= put_file(block, "nvme5n1p1/partition", "1\n");
	/* Only with all_block_devices: loop3 with a partition, an unbound
	 * loop0, sda carrying the btrfs mount. */
	rc |= add_disk(m, "loop3", "7:3\n", "8192\n", NULL, NULL);
	rc |= add_partition(m, "loop3", "loop3p1", "259:60\n");
	rc |= add_node(m, "loop3", false);
	rc |= add_disk(m, "loop0", "7:0\n", "0\n", NULL, NULL);
	rc |= add_disk(m, "sda", "8:0\n", "2097152\n", NULL, NULL);
	rc |= add_node(m, "sda", false);
	return rc;
}

static int machine_create(struct machine *m)
{
	memset(m, 0, sizeof(*m));
	if (!check_temp_dir(m->root, sizeof(m->root), "discover"))
		return -1;
	path_of(m->sys, "%s/sys", m->root);
	path_of(m->dev, "%s/dev", m->root);
	path_of(m->mountinfo, "%s/mountinfo", m->root);
	m->opts.sysfs_root = m->sys;
	m->opts.dev_root = m->dev;
	m->opts.mountinfo = m->mountinfo;
	return build_tree(m);
}

static void machine_destroy(const struct machine *m)
{
	check_remove_tree(m->root);
}

static const struct discovered_device *find(const struct discover_list *l, const char *name)
{
	for (size_t i = 0; i < l->count; i++)
		if (strcmp(l->devices[i].name, name) == 0)
			return &l->devices[i];
	return NULL;
}

static bool discover_ok(struct checks *checks, const struct machine *m, struct discover_list *l)
{
	char err[256] = "";
	int rc = discover_devices(&m->opts, l, err, sizeof(err));
	if (!CHECK(rc == 0))
		fprintf(stderr, "  discover: %s\n", err);
	return rc == 0;
}

static void test_enumeration(struct checks *checks)
{
	struct machine m;
	struct discover_list l;
	if (!CHECK(machine_create(&m) == 0) || !discover_ok(checks, &m, &l)) {
		machine_destroy(&m);
		return;
	}
	const char *want[] = { "nvme0n1", "nvme1n1", "nvme2n1", "nvme3n1", "nvme4n1", "nvme10n1" };
	CHECK_EQ_U64(l.count, 6);
	for (size_t i = 0; i < l.count && i < 6; i++)
		CHECK(strcmp(l.devices[i].name, want[i]) == 0);
	discover_list_free(&l);

	m.opts.all_block_devices = true;
	if (discover_ok(checks, &m, &l)) {
		CHECK_EQ_U64(l.count, 8); /* + loop3, sda; loop0 is unbound */
		CHECK(strcmp(l.devices[0].name, "loop3") == 0);
		CHECK(strcmp(l.devices[7].name, "sda") == 0);
		CHECK(find(&l, "loop0") == NULL);
		discover_list_free(&l);
	}
	machine_destroy(&m);
}

static void test_device_details(struct checks *checks)
{
	struct machine m;
	struct discover_list l;
	if (!CHECK(machine_create(&m) == 0) || !discover_ok(checks, &m, &l)) {
		machine_destroy(&m);
		return;
	}
	const struct discovered_device *d = find(&l, "nvme1n1");
	if (CHECK(d != NULL)) {
		char path[512];
		path_of(path, "%s/nvme1n1", m.dev);
		CHECK(strcmp(d->dev_path, path) == 0);
		CHECK_EQ_U64(d->major, 259);
		CHECK_EQ_U64(d->minor, 3);
		CHECK_EQ_U64(d->size_bytes, 2097152ull * 512);
		CHECK_EQ_U64(d->logical_block_size, 4096);
		CHECK(d->nvme && !d->identified && d->kind == NVME_CTRL_EBS && d->ebs_like);
		CHECK(strcmp(d->model, "Amazon Elastic Block Store") == 0);
		CHECK(strcmp(d->volume_id, "vol-0bbbbbbbbbbbbbbbbb") == 0);
		CHECK(!d->mounted && !d->held && !d->system && d->partitions == 0);
		CHECK_EQ_U64(d->probe_status, 0);
		CHECK(!blkdev_contents_found(&d->contents) && !d->contents.ebsbench_data);
	}
	d = find(&l, "nvme0n1");
	if (CHECK(d != NULL)) {
		CHECK_EQ_U64(d->partitions, 2);
		CHECK(d->system && strcmp(d->system_mount, "/") == 0);
		CHECK(d->mounted);
	}
	d = find(&l, "nvme2n1");
	if (CHECK(d != NULL)) {
		CHECK(d->mounted && !d->system);
		CHECK(strcmp(d->mounted_name, "nvme2n1p1") == 0);
		CHECK(strcmp(d->mount_point, "/data") == 0);
	}
	d = find(&l, "nvme3n1");
	if (CHECK(d != NULL))
		CHECK(d->held && strcmp(d->holder, "dm-0") == 0);
	d = find(&l, "nvme4n1");
	if (CHECK(d != NULL)) {
		CHECK(d->kind == NVME_CTRL_OTHER && !d->ebs_like && d->volume_id[0] == '\0');
		CHECK(strcmp(d->model, "QEMU NVMe Ctrl") == 0);
	}
	discover_list_free(&l);
	machine_destroy(&m);
}

static void test_accept_model(struct checks *checks)
{
	struct machine m;
	struct discover_list l;
	if (!CHECK(machine_create(&m) == 0)) {
		machine_destroy(&m);
		return;
	}
	m.opts.accept_model = "QEMU NVMe Ctrl";
	if (discover_ok(checks, &m, &l)) {
		const struct discovered_device *d = find(&l, "nvme4n1");
		if (CHECK(d != NULL)) {
			CHECK(d->ebs_like && d->kind == NVME_CTRL_OTHER);
			CHECK(strcmp(d->volume_id, "vol-0123456789abcdef0") == 0);
			CHECK(strcmp(d->contents.type, "ext4") == 0);
			CHECK(strcmp(d->contents.usage, "filesystem") == 0);
		}
		discover_list_free(&l);
	}
	machine_destroy(&m);
}

static int refusal(const struct discovered_device *d, const char *allow, char *why, size_t len)
{
	const char *list[] = { "vol-0ffffffffffffffff", allow };
	return discover_write_refusal(d, list, allow ? 2 : 1, why, len);
}

static void test_refusals(struct checks *checks)
{
	struct machine m;
	struct discover_list l;
	char why[512];
	if (!CHECK(machine_create(&m) == 0)) {
		machine_destroy(&m);
		return;
	}
	m.opts.all_block_devices = true;
	if (!discover_ok(checks, &m, &l)) {
		machine_destroy(&m);
		return;
	}
	const struct discovered_device *d = find(&l, "nvme1n1");
	CHECK_EQ_U64(refusal(d, NULL, why, sizeof(why)), DISCOVER_WRITE_OK);
	CHECK(why[0] == '\0');

	/* Listed or not, system, mounted and held disks are refused. */
	d = find(&l, "nvme0n1");
	CHECK_EQ_U64(refusal(d, "vol-0aaaaaaaaaaaaaaaaa", why, sizeof(why)),
		     DISCOVER_REFUSE_SYSTEM);
	CHECK(strstr(why, "nvme0n1 (vol-0aaaaaaaaaaaaaaaaa): holds the system filesystem /") !=
	      NULL);
	d = find(&l, "nvme2n1");
	CHECK_EQ_U64(refusal(d, d->dev_path, why, sizeof(why)), DISCOVER_REFUSE_MOUNTED);
	CHECK(strstr(why, "nvme2n1p1 is mounted on /data") != NULL);
	d = find(&l, "nvme3n1");
	CHECK_EQ_U64(refusal(d, "vol-0ddddddddddddddddd", why, sizeof(why)), DISCOVER_REFUSE_HELD);
	CHECK(strstr(why, "in use by dm-0") != NULL);
	d = find(&l, "sda");
	CHECK_EQ_U64(refusal(d, NULL, why, sizeof(why)), DISCOVER_REFUSE_MOUNTED);
	CHECK(strstr(why, "sda is mounted on /mnt/my btrfs") != NULL);
	d = find(&l, "nvme10n1");
	CHECK_EQ_U64(refusal(d, NULL, why, sizeof(why)), DISCOVER_REFUSE_UNREADABLE);
	CHECK(strstr(why, "No such file") != NULL);

	/* Partitions without a known signature are data too. */
	d = find(&l, "loop3");
	CHECK_EQ_U64(refusal(d, NULL, why, sizeof(why)), DISCOVER_REFUSE_HAS_DATA);
	CHECK(strstr(why, "holds 1 partition; list ") != NULL);
	CHECK_EQ_U64(refusal(d, d->dev_path, why, sizeof(why)), DISCOVER_WRITE_OK);
	discover_list_free(&l);
	machine_destroy(&m);
}

static void test_allow_destroy(struct checks *checks)
{
	struct machine m;
	struct discover_list l;
	char why[512], expect[512];
	if (!CHECK(machine_create(&m) == 0)) {
		machine_destroy(&m);
		return;
	}
	m.opts.accept_model = "QEMU NVMe Ctrl";
	if (!discover_ok(checks, &m, &l)) {
		machine_destroy(&m);
		return;
	}
	const struct discovered_device *d = find(&l, "nvme4n1");
	CHECK_EQ_U64(refusal(d, NULL, why, sizeof(why)), DISCOVER_REFUSE_HAS_DATA);
	path_of(expect,
		"%s (vol-0123456789abcdef0): holds an ext4 filesystem; list "
		"vol-0123456789abcdef0 or %s in allow_destroy to overwrite it",
		d->dev_path, d->dev_path);
	CHECK(strcmp(why, expect) == 0);
	CHECK_EQ_U64(refusal(d, "vol-0123456789abcdef1", why, sizeof(why)),
		     DISCOVER_REFUSE_HAS_DATA);
	CHECK_EQ_U64(refusal(d, "vol-0123456789abcdef0", why, sizeof(why)), DISCOVER_WRITE_OK);
	CHECK_EQ_U64(refusal(d, "vol0123456789abcdef0", why, sizeof(why)), DISCOVER_WRITE_OK);
	CHECK_EQ_U64(refusal(d, d->dev_path, why, sizeof(why)), DISCOVER_WRITE_OK);
	CHECK_EQ_U64(refusal(d, "/dev/nvme4n1", why, sizeof(why)), DISCOVER_REFUSE_HAS_DATA);
	/* A tiny buffer still gets the verdict. */
	CHECK_EQ_U64(discover_write_refusal(d, NULL, 0, why, 8), DISCOVER_REFUSE_HAS_DATA);
	CHECK_EQ_U64(strlen(why), 7);
	discover_list_free(&l);

	/* Without accept_model there is no volume id to list. */
	m.opts.accept_model = NULL;
	if (discover_ok(checks, &m, &l)) {
		d = find(&l, "nvme4n1");
		CHECK_EQ_U64(refusal(d, "vol-0123456789abcdef0", why, sizeof(why)),
			     DISCOVER_REFUSE_HAS_DATA);
		path_of(expect,
			"%s: holds an ext4 filesystem; list %s in allow_destroy to overwrite it",
			d->dev_path, d->dev_path);
		CHECK(strcmp(why, expect) == 0);
		discover_list_free(&l);
	}
	machine_destroy(&m);
}

static void test_unreadable_inputs(struct checks *checks)
{
	struct machine m;
	struct discover_list l;
	char err[256];
	if (!CHECK(machine_create(&m) == 0)) {
		machine_destroy(&m);
		return;
	}
	struct discover_options o = m.opts;
	o.mountinfo = "/nonexistent/mountinfo";
	CHECK(discover_devices(&o, &l, err, sizeof(err)) != 0);
	CHECK(strstr(err, "/nonexistent/mountinfo") != NULL);
	CHECK(l.count == 0 && l.devices == NULL);
	o = m.opts;
	o.sysfs_root = "/nonexistent";
	CHECK(discover_devices(&o, &l, err, sizeof(err)) != 0);
	CHECK(strstr(err, "/nonexistent/block") != NULL);
	machine_destroy(&m);
}

/* A Kubernetes Block-mode volume: the container has /dev/xvdb with the
 * disk's numbers and no /dev/nvme10n1; discovery must open the former. */
static void test_container_alias(struct checks *checks)
{
	struct machine m;
	struct discover_list l;
	char alias[512], decoy[512];
	if (!CHECK(machine_create(&m) == 0)) {
		machine_destroy(&m);
		return;
	}
	path_of(alias, "%s/xvdb", m.dev);
	path_of(decoy, "%s/xvdc", m.dev);
	/* mknod needs root (as the bats tests do); say so rather than pass. */
	if (mknod(decoy, S_IFBLK | 0600, makedev(259, 41)) ||
	    mknod(alias, S_IFBLK | 0600, makedev(259, 40))) {
		fprintf(stderr, "test_container_alias: mknod: %s (needs root): not run\n",
			strerror(errno));
		CHECK(errno == EPERM);
		machine_destroy(&m);
		return;
	}
	if (discover_ok(checks, &m, &l)) {
		const struct discovered_device *d = find(&l, "nvme10n1");
		CHECK(d && strcmp(d->dev_path, alias) == 0);
		/* A disk whose own node exists keeps it. */
		d = find(&l, "nvme1n1");
		path_of(alias, "%s/nvme1n1", m.dev);
		CHECK(d && strcmp(d->dev_path, alias) == 0);
		discover_list_free(&l);
	}
	machine_destroy(&m);
}

CHECK_MAIN(test_enumeration, test_container_alias, test_device_details, test_accept_model,
	   test_refusals, test_allow_destroy, test_unreadable_inputs)
