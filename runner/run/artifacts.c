/* artifacts.c - the names of the files a run writes (see artifacts.h). */
#include "run/artifacts.h"
#include "run/internal.h"
#include "lib/lib.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Indexed by enum artifact: the order is the upload order. */
static const char *const run_files[ARTIFACT_COUNT] = {
	[ARTIFACT_RESULTS] = RESULTS_FILE,
	[ARTIFACT_SUMMARY] = "summary.md",
	[ARTIFACT_IOPS_SVG] = "iops_timeline.svg",
	[ARTIFACT_LATENCY_SVG] = "latency_percentiles.svg",
	[ARTIFACT_HEATMAP_SVG] = "latency_heatmap.svg",
	[ARTIFACT_LOAD_SVG] = "latency_vs_load.svg",
	[ARTIFACT_RECOMMEND] = "recommend.md",
	[ARTIFACT_SWEEP_SVG] = "throughput_vs_block_size.svg",
	[ARTIFACT_HTML] = "report.html",
};

/* What each file is, as its upload's Content-Type says. */
static const char *const content_types[ARTIFACT_COUNT] = {
	[ARTIFACT_RESULTS] = "application/json",
	[ARTIFACT_SUMMARY] = "text/markdown; charset=utf-8",
	[ARTIFACT_IOPS_SVG] = "image/svg+xml",
	[ARTIFACT_LATENCY_SVG] = "image/svg+xml",
	[ARTIFACT_HEATMAP_SVG] = "image/svg+xml",
	[ARTIFACT_LOAD_SVG] = "image/svg+xml",
	[ARTIFACT_RECOMMEND] = "text/markdown; charset=utf-8",
	[ARTIFACT_SWEEP_SVG] = "image/svg+xml",
	[ARTIFACT_HTML] = "text/html; charset=utf-8",
};

/* The phases a file draws, any of which it needs (see artifacts_needs_phase):
 * the heatmap's are also the phases the plan keeps histogram logs for. */
static const char *const load_phases[] = { RESULTS_PHASE_LOADCURVE, NULL };
static const char *const sweep_phases[] = { RESULTS_PHASE_SWEEP, NULL };
static const char *const heatmap_phases[] = { "randread", "lat", NULL };
static const char *const *const needed_phases[ARTIFACT_COUNT] = {
	[ARTIFACT_HEATMAP_SVG] = heatmap_phases,
	[ARTIFACT_LOAD_SVG] = load_phases,
	[ARTIFACT_SWEEP_SVG] = sweep_phases,
};

/* fio's name for write_iops_log=P: P_iops.1.log (job 1 of one). */
static const char iops_log_suffix[] = "_iops.1.log";
/* fio's name for write_hist_log=P: P_clat_hist.1.log. */
static const char hist_log_suffix[] = "_clat_hist.1.log";
/* fio's name for write_lat_log=P's completion latencies: P_clat.1.log. */
static const char lat_log_suffix[] = "_clat.1.log";

const char *artifacts_name(enum artifact a)
{
	return a < ARTIFACT_COUNT ? run_files[a] : NULL;
}

const char *const *artifacts_needs_phase(enum artifact a)
{
	return a < ARTIFACT_COUNT ? needed_phases[a] : NULL;
}

bool artifacts_draws_phase(enum artifact a, const char *phase)
{
	const char *const *needs = artifacts_needs_phase(a);
	for (size_t i = 0; needs && needs[i]; i++)
		if (!strcmp(needs[i], phase))
			return true;
	return false;
}

/* Whether name ends with suffix. */
static bool ends_with(const char *name, const char *suffix)
{
	size_t n = strlen(name), k = strlen(suffix);
	return n > k && !strcmp(name + n - k, suffix);
}

const char *artifacts_content_type(const char *name)
{
	for (size_t i = 0; name && i < ARTIFACT_COUNT; i++) {
		if (!strcmp(name, run_files[i]))
			return content_types[i];
	}
	if (name && (ends_with(name, iops_log_suffix) || ends_with(name, hist_log_suffix)))
		return "text/plain";
	return "application/octet-stream";
}

const char *const *artifacts_run_files(void)
{
	return run_files;
}

const char *const *artifacts_report_files(void)
{
	return run_files + ARTIFACT_FIRST_REPORT;
}

/* LABEL_SHORT then a log's suffix; -1 with a reason when it does not fit. */
static int log_name(char *name, size_t cap, const char *device_label, const char *phase_short,
		    const char *suffix, char *err, size_t errlen)
{
	int n = snprintf(name, cap, "%s_%s%s", device_label, phase_short, suffix);
	if (n < 0 || (size_t)n >= cap)
		return error_set(err, errlen, "the log name %s_%s%s is too long", device_label,
				 phase_short, suffix);
	return 0;
}

int artifacts_iops_log(char *name, size_t cap, const char *device_label, const char *phase_short,
		       char *err, size_t errlen)
{
	return log_name(name, cap, device_label, phase_short, iops_log_suffix, err, errlen);
}

int artifacts_hist_log(char *name, size_t cap, const char *device_label, const char *phase_short,
		       char *err, size_t errlen)
{
	return log_name(name, cap, device_label, phase_short, hist_log_suffix, err, errlen);
}

int artifacts_lat_log(char *name, size_t cap, const char *device_label, const char *phase_short,
		      char *err, size_t errlen)
{
	return log_name(name, cap, device_label, phase_short, lat_log_suffix, err, errlen);
}
