/* report_data.h - reading results.json (results.h) for the report: safe
 * lookups and the number formats summary.md and the SVG charts share, so
 * both say the same thing the same way.
 *
 * Every lookup tolerates a missing key, a wrong type or a NULL document:
 * a run stopped early, or one from an older ebsbench, must still render,
 * with REPORT_MISSING where a value is absent. */
#ifndef EBSBENCH_REPORT_DATA_H
#define EBSBENCH_REPORT_DATA_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* What a missing value renders as. */
#define REPORT_MISSING "\xe2\x80\x94" /* U+2014 em dash */
#define REPORT_NUM_LEN 48	      /* fits any formatted number */

/* root[keys[0]][keys[1]]... up to a NULL key; NULL when a step is missing. */
const json_t *report_path(const json_t *root, const char *const *keys);
/* REPORT_GET(root, "job", "read"): the same with the keys listed. */
#define REPORT_GET(root, ...) report_path((root), (const char *const[]){ __VA_ARGS__, NULL })
/* A JSON number as a double; NaN for anything else (NULL included). */
double report_num(const json_t *value);
bool report_str_is(const json_t *value, const char *want);
/* The device's "label", or "?". */
const char *report_label(const json_t *device);

/* The first phase named `phase` that ran on `device`; NULL if none. */
const json_t *report_phase(const json_t *run, const char *phase, const char *device);
/* The job direction ("read" or "write" object) that moved the most bytes,
 * i.e. the one the phase measures; NULL without a job. */
const json_t *report_direction(const json_t *phase);
/* A clat percentile in ns, key as fio writes it ("99.000000"); NaN if absent. */
double report_clat_pct_ns(const json_t *direction, const char *pct);
/* Seconds one iops_series sample covers: window_ms, 1 s by default. */
double report_window_s(const json_t *phase);
/* The analysis.devices[] entry for `device`; NULL if none. */
const json_t *report_analysis_device(const json_t *run, const char *device);
/* The device's analysis cliff when one was found, else NULL. */
const json_t *report_cliff_found(const json_t *run, const char *device);
/* The devices to show: devices[], or, when that is empty, one {"label"}
 * per device the phases name.  A new reference. */
json_t *report_devices(const json_t *run);

/* The IOPS series without its first sample: fio's first window runs at
 * about twice the rate while the queue fills (the seed's 5,997). */
struct report_series {
	size_t samples; /* all of them, the first included */
	size_t used;
	double mean, min, max; /* NaN when used is 0 */
};
struct report_series report_series_stats(const json_t *series);

/* 3001.4 -> "3,001". */
const char *report_count(char *buf, size_t len, double value);
/* ns -> "109.6 ms", "1.65 ms", "0.564 ms": about three figures, as the seed. */
const char *report_ms(char *buf, size_t len, double ns);
/* bytes/s -> "127.3 MiB/s". */
const char *report_mibs(char *buf, size_t len, double bytes_per_s);
/* "$11.40". */
const char *report_usd(char *buf, size_t len, double usd);
/* "gp2 (gp2, 100 GiB)": label, volume type (or device kind), size. */
const char *report_device_title(char *buf, size_t len, const json_t *device);

#endif
