/* observe.h - `ebsbench observe`: a device's demand sampled from the
 * kernel's counters (/sys/block/DEV/stat, through stats/disk_sample.h),
 * never opening the device: safe on a volume in use, no I/O of its own.
 * The samples are a demand trace (demand/demand.h), written as its CSV. */
#ifndef EBSBENCH_OBSERVE_H
#define EBSBENCH_OBSERVE_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "stats/stats.h"

struct observe_device {
	char path[128];
	dev_t dev;
	struct disk_sample last;
};

/* path must be a block device (stat(2), nothing opened) whose counters
 * the kernel shows.  Returns 0, or -1 with a reason naming path. */
int observe_device_open(const char *path, struct observe_device *d, char *err, size_t errlen);

/* Samples the n devices every interval_ns for duration_ns (0: until *stop),
 * writing the CSV to out as it goes (flushed each interval) and a line a
 * second at most to progress.  Returns 0, or 1 when a device's counters
 * could no longer be read. */
int observe_run(struct observe_device *d, size_t n, uint64_t interval_ns, uint64_t duration_ns,
		FILE *out, FILE *progress, const volatile sig_atomic_t *stop);

#endif
