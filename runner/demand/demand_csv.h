/* demand_csv.h - the plain CSV form of a trace (inner header of demand/;
 * the format is in docs/demand.md). */
#ifndef EBSBENCH_DEMAND_CSV_H
#define EBSBENCH_DEMAND_CSV_H

#include "demand/demand_build.h"

/* Reads the CSV text (len bytes) into the builder; the interval the rows
 * give (interval_s), else 0, in *interval.  Errors: "NAME:LINE: ...". */
int demand_read_csv(const char *name, const char *text, size_t len, struct demand_builder *b,
		    double *interval, char *err, size_t errlen);

#endif
