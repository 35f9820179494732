/* internal.h - what demand/'s files share among themselves and nothing
 * outside demand/ calls: reading text in memory, the time parser, the CSV
 * writer and observe's one sample. */
#ifndef EBSBENCH_DEMAND_INTERNAL_H
#define EBSBENCH_DEMAND_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "demand/demand.h"

/* demand.c: a trace's file read from memory. */
/* demand_read_file's work on text in memory; name stands for the file in
 * errors. */
int demand_read_text(const char *name, const char *text, size_t len, struct demand_set *set,
		     char *err, size_t errlen);

/* demand_build.c: the times the readers take. */
/* ISO 8601 ("2026-11-20T10:00:00Z", "...+00:00", fractional seconds) or
 * plain Unix seconds into Unix seconds.  Returns 0, or -1. */
int demand_parse_time(const char *text, double *out);

/* demand_csv.c: the CSV written, a trace at once or a row at a time. */
/* Writes a trace as the CSV that demand_read_* reads back. */
int demand_write_csv(FILE *out, const struct demand_trace *tr);
/* The same a row at a time, as `ebsbench observe` samples: the comment
 * and header once, then any volumes' rows in any order. */
void demand_csv_header(FILE *out);
void demand_csv_row(FILE *out, const char *volume, double interval_s, const struct demand_point *p);

/* observe.c: one sample of one device. */
/* The counters now, less the last sample's, as the point of an interval
 * that began at t (Unix seconds), times scale (the nominal interval over
 * the one measured: a wake-up late by 20 ms must not read as 2 % more
 * I/O); the sample becomes the last.  false when the counters could not
 * be read (the device went away). */
bool observe_device_sample(struct observe_device *d, double t, double scale,
			   struct demand_point *out);

#endif
