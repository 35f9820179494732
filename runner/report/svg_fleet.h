/* svg_fleet.h - fleet.svg (inner header of report/), drawn for the file
 * and inline in the fleet's report.html. */
#ifndef EBSBENCH_SVG_FLEET_H
#define EBSBENCH_SVG_FLEET_H

#include <stdio.h>

#include "analysis/analysis.h"
#include "decide/decide.h"

/* The fleet chart: a panel per figure, a row per class, a dot per volume,
 * the median and interquartile range marked, the outliers labelled. */
int svg_fleet(FILE *out, const struct fleet *f);

#endif
