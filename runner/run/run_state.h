/* run_state.h - one run as it executes: its config, the devices chosen,
 * the plan, results.json as it grows, where the files go, when each
 * device last ran and the uploader (inner header of run/; run_exec.h
 * drives it). */
#ifndef EBSBENCH_RUN_STATE_H
#define EBSBENCH_RUN_STATE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "device/device.h"
#include "run/config.h"
#include "run/plan.h"
#include "upload/upload.h"

struct run_state {
	struct run_config cfg;
	struct discover_list found;
	struct run_device devices[CONFIG_MAX_DEVICES];
	size_t device_count;
	struct plan plan;
	json_t *results;
	const char *out_dir;
	uint64_t last_end_ns[CONFIG_MAX_DEVICES]; /* monotonic; 0: no phase yet */
	struct uploader up;
};

#endif
