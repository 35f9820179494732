/* demand_cloudwatch.c - EBS demand from CloudWatch as the AWS CLI prints
 * it: get-metric-data's MetricDataResults (Timestamps newest first by
 * default, any order read) and get-metric-statistics' Datapoints (in no
 * order).  Errors name the file, the JSON place and the problem. */
#include "demand/demand_cloudwatch.h"

#include <math.h>
#include <string.h>

#include "demand/internal.h"
#include "lib/lib.h"

/* The volume an entry is for: a vol- ID in its Label, Id or the file
 * name, else the Label with the metric's name taken out, else "volume". */
static void volume_name(const char *label, const char *id, const char *file, char *out, size_t cap)
{
	if (demand_volume_id_in(label, out, cap) || demand_volume_id_in(id, out, cap) ||
	    demand_volume_id_in(file, out, cap))
		return;
	static const char *const metric_words[] = { "VolumeReadOps", "VolumeWriteOps",
						    "VolumeReadBytes", "VolumeWriteBytes" };
	char rest[DEMAND_NAME_LEN];
	snprintf(rest, sizeof(rest), "%s", label);
	for (size_t k = 0; k < ARRAY_SIZE(metric_words); k++) {
		char *at = strstr(rest, metric_words[k]);
		if (at)
			memmove(at, at + strlen(metric_words[k]),
				strlen(at + strlen(metric_words[k])) + 1);
	}
	char *s = rest, *e = rest + strlen(rest);
	while (*s == ' ' || *s == '_' || *s == '-' || *s == ':')
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '_' || e[-1] == '-' || e[-1] == ':'))
		*--e = '\0';
	snprintf(out, cap, "%s", *s ? s : "volume");
}

/* A finite, non-negative number, or false. */
static bool count_of(const json_t *v, double *out)
{
	if (!json_is_number(v))
		return false;
	*out = json_number_value(v);
	return isfinite(*out) && *out >= 0;
}

/* One MetricDataResults entry: 0 demand read, 1 skipped (another
 * metric), 2 a BurstBalance read, -1 bad. */
static int read_result(const char *name, size_t i, const json_t *r, struct demand_builder *b,
		       char *err, size_t errlen)
{
	const char *id = json_string_value(json_object_get(r, "Id"));
	const char *label = json_string_value(json_object_get(r, "Label"));
	const json_t *ts = json_object_get(r, "Timestamps"), *vs = json_object_get(r, "Values");
	const char *status = json_string_value(json_object_get(r, "StatusCode"));
	unsigned metric = demand_metric_in(label ? label : "");
	char vol[DEMAND_NAME_LEN];

	if (!metric)
		metric = demand_metric_in(id ? id : "");
	if (!metric)
		return 1; /* another metric: not demand */
	if (!json_is_array(ts) || !json_is_array(vs))
		return error_set(err, errlen,
				 "%s: MetricDataResults[%zu]: no Timestamps or Values array", name,
				 i);
	if (json_array_size(ts) != json_array_size(vs))
		return error_set(err, errlen,
				 "%s: MetricDataResults[%zu]: %zu Timestamps but %zu Values", name,
				 i, json_array_size(ts), json_array_size(vs));
	volume_name(label ? label : "", id ? id : "", name, vol, sizeof(vol));
	long v = demand_volume_index(b->set, vol);
	if (v < 0)
		return error_set(err, errlen, "%s: out of memory", name);
	if (metric != DEMAND_M_BURST_BALANCE)
		b->set->v[v].metrics |= metric;
	if (status && strcmp(status, "Complete"))
		b->set->v[v].partial = true;
	for (size_t k = 0; k < json_array_size(ts); k++) {
		const char *stamp = json_string_value(json_array_get(ts, k));
		double t, value;
		if (!stamp || demand_parse_time(stamp, &t))
			return error_set(
				err, errlen,
				"%s: MetricDataResults[%zu].Timestamps[%zu]: not an ISO 8601 time",
				name, i, k);
		if (!count_of(json_array_get(vs, k), &value))
			return error_set(err, errlen,
					 "%s: MetricDataResults[%zu].Values[%zu]: not a count (a "
					 "number, 0 or more)",
					 name, i, k);
		if (demand_builder_add(b, (size_t)v, metric, t, value))
			return error_set(err, errlen, "%s: out of memory", name);
	}
	return metric == DEMAND_M_BURST_BALANCE ? 2 : 0;
}

int demand_read_metric_data(const char *name, const json_t *doc, struct demand_builder *b,
			    char *err, size_t errlen)
{
	const json_t *results = json_object_get(doc, "MetricDataResults"), *r;
	size_t i, used = 0;

	if (!json_is_array(results))
		return error_set(err, errlen, "%s: MetricDataResults: not an array", name);
	json_array_foreach(results, i, r) used += json_array_size(json_object_get(r, "Values"));
	if (demand_builder_reserve(b, used))
		return error_set(err, errlen, "%s: out of memory", name);
	used = 0;
	json_array_foreach(results, i, r)
	{
		if (!json_is_object(r))
			return error_set(err, errlen, "%s: MetricDataResults[%zu]: not an object",
					 name, i);
		int rc = read_result(name, i, r, b, err, errlen);
		if (rc < 0)
			return -1;
		used += rc == 0;
	}
	if (!used)
		return error_set(err, errlen,
				 "%s: MetricDataResults: no VolumeReadOps, VolumeWriteOps, "
				 "VolumeReadBytes or VolumeWriteBytes in any Label or Id",
				 name);
	if (json_object_get(doc, "NextToken"))
		for (size_t k = 0; k < b->set->n; k++)
			b->set->v[k].partial = true;
	return 0;
}

/* A Datapoint's Sum, or Average x SampleCount. */
static bool datapoint_sum(const json_t *d, double *out)
{
	double avg, n;
	if (json_object_get(d, "Sum"))
		return count_of(json_object_get(d, "Sum"), out);
	if (!count_of(json_object_get(d, "Average"), &avg) ||
	    !count_of(json_object_get(d, "SampleCount"), &n))
		return false;
	*out = avg * n;
	return true;
}

/* A BurstBalance Datapoint's percent: its Average, else its Minimum. */
static bool datapoint_balance(const json_t *d, double *out)
{
	return count_of(json_object_get(d, "Average"), out) ||
	       count_of(json_object_get(d, "Minimum"), out);
}

int demand_read_metric_statistics(const char *name, const json_t *doc, struct demand_builder *b,
				  char *err, size_t errlen)
{
	const char *label = json_string_value(json_object_get(doc, "Label"));
	const json_t *points = json_object_get(doc, "Datapoints"), *d;
	unsigned metric = demand_metric_in(label ? label : "");
	char vol[DEMAND_NAME_LEN];
	size_t i;

	if (!metric)
		return error_set(err, errlen,
				 "%s: Label: '%s' is not VolumeReadOps, VolumeWriteOps, "
				 "VolumeReadBytes, VolumeWriteBytes or BurstBalance",
				 name, label ? label : "");
	if (!json_is_array(points))
		return error_set(err, errlen, "%s: Datapoints: not an array", name);
	volume_name("", "", name, vol, sizeof(vol));
	long v = demand_volume_index(b->set, vol);
	if (v < 0)
		return error_set(err, errlen, "%s: out of memory", name);
	if (metric != DEMAND_M_BURST_BALANCE)
		b->set->v[v].metrics |= metric;
	json_array_foreach(points, i, d)
	{
		const char *stamp = json_string_value(json_object_get(d, "Timestamp"));
		double t, value;
		if (!stamp || demand_parse_time(stamp, &t))
			return error_set(err, errlen,
					 "%s: Datapoints[%zu].Timestamp: not an ISO 8601 time",
					 name, i);
		if (metric == DEMAND_M_BURST_BALANCE ? !datapoint_balance(d, &value)
						     : !datapoint_sum(d, &value))
			return error_set(err, errlen, "%s: Datapoints[%zu]: %s", name, i,
					 metric == DEMAND_M_BURST_BALANCE
						 ? "no Average or Minimum, 0 or more"
						 : "no Sum, 0 or more (ask --statistics Sum)");
		if (demand_builder_add(b, (size_t)v, metric, t, value))
			return error_set(err, errlen, "%s: out of memory", name);
	}
	return 0;
}
