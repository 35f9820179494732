/* disk_sample.c - a disk's /sys/block/DEV/stat counters, sampled and differenced. */
#include "stats/disk_sample.h"

#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* /sys/dev/block/M:m links to .../block/sda/sda1 for a partition. */
static int disk_dir(dev_t dev, char *dir, size_t len, char *name, size_t name_len)
{
	char link[64], real[PATH_MAX], probe[PATH_MAX + 16];
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!realpath(link, real))
		return -1;
	snprintf(probe, sizeof(probe), "%s/partition", real);
	if (access(probe, F_OK) == 0)
		*strrchr(real, '/') = '\0';
	snprintf(dir, len, "%s", real);
	snprintf(name, name_len, "%s", strrchr(real, '/') + 1);
	return 0;
}

void disk_sample_take(dev_t dev, struct disk_sample *out)
{
	char dir[PATH_MAX], path[PATH_MAX + 8];
	memset(out, 0, sizeof(*out));
	if (disk_dir(dev, dir, sizeof(dir), out->name, sizeof(out->name)))
		return;
	snprintf(path, sizeof(path), "%s/stat", dir);
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	uint64_t in_flight;
	int n = fscanf(f,
		       "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		       " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64,
		       &out->read_ios, &out->read_merges, &out->read_sectors, &out->read_ticks,
		       &out->write_ios, &out->write_merges, &out->write_sectors, &out->write_ticks,
		       &in_flight, &out->io_ticks, &out->in_queue);
	fclose(f);
	out->valid = n == 11;
}

void disk_sample_delta(const struct disk_sample *before, const struct disk_sample *after,
		       uint64_t elapsed_ns, struct disk_util *out)
{
	memset(out, 0, sizeof(*out));
	if (!before->valid || !after->valid)
		return;
	out->valid = true;
	snprintf(out->name, sizeof(out->name), "%s", after->name);
	out->read_ios = after->read_ios - before->read_ios;
	out->write_ios = after->write_ios - before->write_ios;
	out->read_merges = after->read_merges - before->read_merges;
	out->write_merges = after->write_merges - before->write_merges;
	out->read_sectors = after->read_sectors - before->read_sectors;
	out->write_sectors = after->write_sectors - before->write_sectors;
	out->read_ticks = after->read_ticks - before->read_ticks;
	out->write_ticks = after->write_ticks - before->write_ticks;
	out->in_queue = after->in_queue - before->in_queue;
	out->io_ticks = after->io_ticks - before->io_ticks;
	double elapsed_ms = (double)elapsed_ns / 1e6;
	out->util = elapsed_ms > 0 ? 100.0 * (double)out->io_ticks / elapsed_ms : 0;
	if (out->util > 100.0)
		out->util = 100.0;
}
