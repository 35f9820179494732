/* report_format.h - the number formats summary.md and the SVG charts
 * share, so both say the same thing the same way; a value that is not
 * there (NaN, NULL) renders as REPORT_MISSING. */
#ifndef EBSBENCH_REPORT_FORMAT_H
#define EBSBENCH_REPORT_FORMAT_H

#include <jansson.h>
#include <stddef.h>

/* What a missing value renders as. */
#define REPORT_MISSING "\xe2\x80\x94" /* U+2014 em dash */
#define REPORT_NUM_LEN 48	      /* fits any formatted number */

/* Writes REPORT_MISSING into buf; returns buf. */
const char *report_missing(char *buf, size_t len);

/* 3001.4 -> "3,001". */
const char *report_count(char *buf, size_t len, double value);
/* ns -> "109.6 ms", "1.65 ms", "0.564 ms": about three figures, as the
 * reference benchmark writes them. */
const char *report_ms(char *buf, size_t len, double ns);
/* bytes/s -> "127.3 MiB/s". */
const char *report_mibs(char *buf, size_t len, double bytes_per_s);
/* bytes -> "4k", "1 MiB", "512 B": a block size as the tables name it. */
const char *report_size(char *buf, size_t len, double bytes);
/* "$11.40". */
const char *report_usd(char *buf, size_t len, double usd);
/* "gp2 (gp2, 100 GiB)": label, volume type (or device kind), size. */
const char *report_device_title(char *buf, size_t len, const json_t *device);

#endif
