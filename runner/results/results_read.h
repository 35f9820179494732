/* results_read.h - reading results.json (results.h): safe lookups that
 * the analysis, summary.md and the SVG charts share, so all three find a
 * phase, a device or a number the same way.
 *
 * Every lookup tolerates a missing key, a wrong type or a NULL document:
 * a run stopped early, or one from an older ebsbench, must still render,
 * so a lookup gives NULL or NaN where a value is absent. */
#ifndef EBSBENCH_RESULTS_READ_H
#define EBSBENCH_RESULTS_READ_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* root[keys[0]][keys[1]]... up to a NULL key; NULL when a step is missing. */
const json_t *results_path(const json_t *root, const char *const *keys);
/* RESULTS_GET(root, "job", "read"): the same with the keys listed. */
#define RESULTS_GET(root, ...) results_path((root), (const char *const[]){ __VA_ARGS__, NULL })
/* A JSON number as a double; NaN for anything else (NULL included). */
double results_num(const json_t *value);
/* obj[key] as a double, or fallback when it is not a number. */
double results_num_or(const json_t *obj, const char *key, double fallback);
bool results_str_is(const json_t *value, const char *want);
/* The device's "label", or "?". */
const char *results_label(const json_t *device);

/* The first phase named `phase` that ran on `device`; NULL if none. */
const json_t *results_phase(const json_t *run, const char *phase, const char *device);
/* The job direction ("read" or "write" object) that moved the most bytes,
 * i.e. the one the phase measures; NULL without a job. */
const json_t *results_direction(const json_t *phase);
/* A clat percentile in ns, key as fio writes it ("99.000000"); NaN if absent. */
double results_clat_pct_ns(const json_t *direction, const char *pct);
/* The latency a load is quoted by: from each I/O's scheduled issue time
 * (lat_ns, which a rated step records: what waiting for a slot costs is
 * in it) when the phase has it, else the completion latency (clat_ns).
 * In ns, key as fio writes it; NaN if neither is there. */
double results_lat_pct_ns(const json_t *direction, const char *pct);
/* Seconds one iops_series sample covers: window_ms, 1 s by default. */
double results_window_s(const json_t *phase);
/* The phase's IOPS series as means over real seconds (its time-scaled
 * windows merged; a last, partial second left out), without the first:
 * a device's start-up burst lasts about a real second whatever the time
 * scale.  Writes at most cap to out and returns how many there are. */
size_t results_second_windows(const json_t *phase, double *out, size_t cap);
/* The devices[] record labelled `label`; NULL if none. */
const json_t *results_device(const json_t *run, const char *label);
/* The analysis.devices[] entry for `device`; NULL if none. */
const json_t *results_analysis_device(const json_t *run, const char *device);
/* The device's analysis cliff when one was found, else NULL. */
const json_t *results_cliff_found(const json_t *run, const char *device);
/* The devices to show: devices[], or, when that is empty, one {"label"}
 * per device the phases name.  A new reference. */
json_t *results_devices(const json_t *run);

/* The IOPS series without its first sample: fio's first window runs at
 * about twice the rate while the queue fills (the reference benchmark's 5,997). */
struct results_series {
	size_t samples; /* all of them, the first included */
	size_t used;
	double mean, min, max; /* NaN when used is 0 */
};
struct results_series results_series_stats(const json_t *series);

/* Adds one window of a phase's "clat_hist" ("FIRST:C C C", see
 * job/histlog.h) into counts[bins]; returns its I/Os, or -1 when it is
 * not such a window or does not fit in bins. */
int64_t results_hist_window(const json_t *window, uint64_t *counts, unsigned bins);

/* One device of one run: a column of summary.md's tables, a line or row
 * of the charts. */
struct results_column {
	const json_t *run;
	const json_t *device;
	size_t run_index; /* from 1 */
};

/* Every device (results_devices) of every run, in order; the device
 * arrays stay referenced until results_columns_free. */
struct results_columns {
	struct results_column *col;
	size_t count;
	json_t **devices; /* one reference per run */
	size_t nruns;
};

/* Fills c from runs; returns 0, or -1 out of memory (c still freeable). */
int results_columns_build(struct results_columns *c, json_t *const *runs, size_t nruns);
void results_columns_free(struct results_columns *c);

#endif
