/* disk_sample.h - /sys/block/DEV/stat before and after a job, as fio's
 * disk_util: what the kernel saw, to hold against what the engine counted. */
#ifndef EBSBENCH_DISK_SAMPLE_H
#define EBSBENCH_DISK_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* What the kernel counted for the device over a job, as fio prints it. */
struct disk_util {
	char name[64];
	bool valid;
	uint64_t read_ios, write_ios, read_merges, write_merges;
	uint64_t read_sectors, write_sectors; /* 512-byte units, whatever the device */
	uint64_t read_ticks, write_ticks, in_queue, io_ticks;
	double util; /* percent of the run the device was busy */
};

struct disk_sample {
	char name[64];
	bool valid;
	uint64_t read_ios, read_merges, read_ticks;
	uint64_t write_ios, write_merges, write_ticks;
	uint64_t read_sectors, write_sectors;
	uint64_t io_ticks, in_queue;
};

/* Samples the whole disk behind dev (a partition counts as its disk);
 * valid stays false where there is none, as for a file on tmpfs. */
void disk_sample_take(dev_t dev, struct disk_sample *out);
void disk_sample_delta(const struct disk_sample *before, const struct disk_sample *after,
		       uint64_t elapsed_ns, struct disk_util *out);

#endif
