/* artifacts.c - the names of the files a run writes (see artifacts.h). */
#include "run/artifacts.h"

#include <stdio.h>

/* Indexed by enum artifact: the order is the upload order. */
static const char *const run_files[ARTIFACT_COUNT] = {
	[ARTIFACT_RESULTS] = RESULTS_FILE,
	[ARTIFACT_SUMMARY] = "summary.md",
	[ARTIFACT_IOPS_SVG] = "iops_timeline.svg",
	[ARTIFACT_LATENCY_SVG] = "latency_percentiles.svg",
	[ARTIFACT_LOAD_SVG] = "latency_vs_load.svg",
};

/* fio's name for write_iops_log=P: P_iops.1.log (job 1 of one). */
static const char iops_log_suffix[] = "_iops.1.log";

const char *artifacts_name(enum artifact a)
{
	return a < ARTIFACT_COUNT ? run_files[a] : NULL;
}

const char *const *artifacts_run_files(void)
{
	return run_files;
}

const char *const *artifacts_report_files(void)
{
	return run_files + ARTIFACT_FIRST_REPORT;
}

int artifacts_iops_log(char *name, size_t cap, const char *device_label, const char *phase_short,
		       char *err, size_t errlen)
{
	int n = snprintf(name, cap, "%s_%s%s", device_label, phase_short, iops_log_suffix);
	if (n < 0 || (size_t)n >= cap) {
		snprintf(err, errlen, "the IOPS log name for %s/%s is too long", device_label,
			 phase_short);
		return -1;
	}
	return 0;
}
