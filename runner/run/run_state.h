/* run_state.h - one run as it executes: its config, the devices chosen,
 * the plan, results.json as it grows, where the files go, when each
 * device last ran and the uploader (inner header of run/; run_exec.c
 * drives it). */
#ifndef EBSBENCH_RUN_STATE_H
#define EBSBENCH_RUN_STATE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "device/device.h"
#include "run/config.h"
#include "run/plan.h"
#include "run/run_resume.h"
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
	/* A resumed run (resume.done non-NULL): the steps done before the stop
	 * are skipped, and a device's first phase after it counts its idle time
	 * from resume.device_end_ms, on the wall clock (another boot's or
	 * node's monotonic clock means nothing here). */
	struct run_resume resume;
	struct uploader up;
};

#endif
