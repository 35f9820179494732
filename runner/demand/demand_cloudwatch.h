/* demand_cloudwatch.h - the AWS CLI's CloudWatch output (inner header of
 * demand/). */
#ifndef EBSBENCH_DEMAND_CLOUDWATCH_H
#define EBSBENCH_DEMAND_CLOUDWATCH_H

#include <jansson.h>

#include "demand/demand_build.h"

/* `aws cloudwatch get-metric-data` output: each MetricDataResults entry
 * one metric of one volume, told apart by the vol- ID in its Label or Id
 * (else the Label without the metric's name).  Entries of other metrics
 * (BurstBalance) are skipped.  Values are read as the Sum per period. */
int demand_read_metric_data(const char *name, const json_t *doc, struct demand_builder *b,
			    char *err, size_t errlen);
/* `aws cloudwatch get-metric-statistics` output: one metric (its Label),
 * of the volume whose vol- ID the file name carries (else "volume"); each
 * Datapoint's Sum (or Average x SampleCount). */
int demand_read_metric_statistics(const char *name, const json_t *doc, struct demand_builder *b,
				  char *err, size_t errlen);

#endif
