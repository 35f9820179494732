/* run_record.h - the pieces of results.json that `ebsbench run` measures:
 * devices, EBS statistics around a phase, the per-second IOPS series and
 * the kernel's view of the same I/O. */
#ifndef EBSBENCH_RUN_RECORD_H
#define EBSBENCH_RUN_RECORD_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "device/device.h"
#include "run/plan.h"
#include "stats/stats.h"
#include "run/config.h"
#include <stddef.h>

/* EBS statistics read around a phase (log page 0xD0), where offered. */
struct ebs_sample {
	bool ok;
	char reason[128]; /* why not, when !ok */
	struct ebs_stats stats;
};

void run_record_ebs_sample(const char *dev_path, struct ebs_sample *out);
/* {"available": false, "reason"} or the deltas and who throttled. */
json_t *run_record_ebs_stats(const struct ebs_sample *before, const struct ebs_sample *after,
			     uint64_t phase_us);

/* Total IOPS per window, summed over directions, from a fio iops log. */
json_t *run_record_iops_series(const char *log_path, char *err, size_t errlen);

/* The kernel's count of the same I/O (/sys/block/DEV/stat), to check the
 * engine against: I/Os and bytes of each, and whether the bytes agree. */
json_t *run_record_disk_check(const struct job_stats *s);

json_t *run_record_device(const struct run_device *d);

/* "ebsbench" and "environment" objects: version, build id (FNV-1a of the
 * binary), kernel, host, and what the config says about the instance. */
json_t *run_record_ebsbench(const struct run_config *c);
json_t *run_record_environment(const struct run_config *c);
/* The price table the costs were computed with, with its date and source. */
json_t *run_record_prices(const struct ebs_prices *p, bool overridden);
/* The wall clock in ms since 1970: a phase's started_ms and ended_ms. */
int64_t run_record_wall_ms(void);
/* "2026-11-29T21:35:59Z" */
void run_record_iso_utc(char *buf, size_t len, int64_t unix_ms);

#endif
