/* discover_guard.c - the write-safety verdict on a discovered device: the
 * system disk, a mount, a holder or data not listed in allow_destroy each
 * refuse writing, with one line saying why and what to do about it. */
#include "device/discover.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "device/blkdev_probe.h"
#include "device/nvme_identify.h"
#include "device/internal.h"

static bool listed(const struct discovered_device *d, const char *entry)
{
	char vol[sizeof(d->volume_id)];
	if (strcmp(entry, d->dev_path) == 0)
		return true;
	if (!d->volume_id[0])
		return false;
	return nvme_identify_volume_id_from_serial(entry, vol, sizeof(vol)) == 0 &&
	       strcmp(vol, d->volume_id) == 0;
}

bool discover_allows_destroy(const struct discovered_device *d, const char *const *allow, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (allow[i] && listed(d, allow[i]))
			return true;
	return false;
}

/* "a GPT partition table and an ext4 filesystem", or "2 partitions". */
static void describe_data(const struct discovered_device *d, char *out, size_t len)
{
	if (blkdev_contents_found(&d->contents))
		blkdev_contents_describe(&d->contents, out, len);
	else
		snprintf(out, len, "%u partition%s", d->partitions, d->partitions == 1 ? "" : "s");
}

void discover_device_name(const struct discovered_device *d, char *out, size_t len)
{
	if (d->volume_id[0])
		snprintf(out, len, "%s (%s)", d->dev_path, d->volume_id);
	else
		snprintf(out, len, "%s", d->dev_path);
}

__attribute__((format(printf, 4, 5))) static int refuse(int why_code, char *why, size_t len,
							const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (len)
		vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return why_code;
}

int discover_blocker(const struct discovered_device *d, const char *const *allow_destroy, size_t n,
		     char *what, size_t len)
{
	if (len)
		what[0] = '\0';
	if (d->system)
		return refuse(DISCOVER_REFUSE_SYSTEM, what, len, "holds the system filesystem %s",
			      d->system_mount);
	if (d->mounted)
		return refuse(DISCOVER_REFUSE_MOUNTED, what, len, "%s is mounted on %s",
			      d->mounted_name, d->mount_point);
	if (d->held)
		return refuse(DISCOVER_REFUSE_HELD, what, len,
			      "in use by %s (device-mapper, md or LVM)", d->holder);
	if (d->probe_status)
		return refuse(DISCOVER_REFUSE_UNREADABLE, what, len,
			      "cannot read it to check for existing data: %s",
			      strerror(-d->probe_status));
	if ((blkdev_contents_found(&d->contents) || d->partitions) &&
	    !discover_allows_destroy(d, allow_destroy, n)) {
		char data[256];
		describe_data(d, data, sizeof(data));
		return refuse(DISCOVER_REFUSE_HAS_DATA, what, len, "holds %s", data);
	}
	return DISCOVER_WRITE_OK;
}

int discover_write_refusal(const struct discovered_device *d, const char *const *allow_destroy,
			   size_t n, char *why, size_t len)
{
	char label[sizeof(d->dev_path) + sizeof(d->volume_id) + 4], what[384], names[256];
	int code = discover_blocker(d, allow_destroy, n, what, sizeof(what));
	if (len)
		why[0] = '\0';
	if (code == DISCOVER_WRITE_OK)
		return code;
	discover_device_name(d, label, sizeof(label));
	/* What to do about it, after the reason. */
	if (d->volume_id[0])
		snprintf(names, sizeof(names), "%s or %s", d->volume_id, d->dev_path);
	else
		snprintf(names, sizeof(names), "%s", d->dev_path);
	switch (code) {
	case DISCOVER_REFUSE_SYSTEM:
		return refuse(code, why, len, "%s: %s; refusing to write it", label, what);
	case DISCOVER_REFUSE_MOUNTED:
		return refuse(code, why, len, "%s: %s; unmount it first", label, what);
	case DISCOVER_REFUSE_HELD:
		return refuse(code, why, len, "%s: %s; release it first", label, what);
	case DISCOVER_REFUSE_HAS_DATA:
		return refuse(code, why, len, "%s: %s; list %s in allow_destroy to overwrite it",
			      label, what, names);
	default:
		return refuse(code, why, len, "%s: %s", label, what);
	}
}
