/* demand.c - a demand file read whatever its form (the form told from its
 * content), and what a trace's mean and peak are. */
#include "demand/demand.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "demand/demand_cloudwatch.h"
#include "demand/demand_csv.h"
#include "demand/internal.h"
#include "lib/lib.h"

/* A demand file bigger than this is not one: 15 days of per-minute
 * CloudWatch data for a dozen volumes is a few tens of MiB. */
#define DEMAND_FILE_MAX (512 * MIB)

/* The JSON document's kind: get-metric-data or get-metric-statistics. */
static int read_json(const char *name, const char *text, size_t len, struct demand_builder *b,
		     char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *doc = json_loadb(text, len, JSON_DECODE_INT_AS_REAL, &jerr);
	int rc;

	if (!doc)
		return error_set(err, errlen, "%s:%d:%d: not JSON: %s", name, jerr.line,
				 jerr.column, jerr.text);
	if (json_object_get(doc, "MetricDataResults"))
		rc = demand_read_metric_data(name, doc, b, err, errlen);
	else if (json_object_get(doc, "Datapoints"))
		rc = demand_read_metric_statistics(name, doc, b, err, errlen);
	else
		rc = error_set(err, errlen,
			       "%s: JSON without MetricDataResults (aws cloudwatch "
			       "get-metric-data) or Datapoints (get-metric-statistics)",
			       name);
	json_decref(doc);
	return rc;
}

int demand_read_text(const char *name, const char *text, size_t len, struct demand_set *set,
		     char *err, size_t errlen)
{
	struct demand_builder b = { .set = set };
	size_t lead = 0;
	double interval = 0;
	int rc;

	while (lead < len && (text[lead] == ' ' || text[lead] == '\t' || text[lead] == '\r' ||
			      text[lead] == '\n'))
		lead++;
	if (lead < len && text[lead] == '{')
		rc = read_json(name, text, len, &b, err, errlen);
	else
		rc = demand_read_csv(name, text, len, &b, &interval, err, errlen);
	if (!rc && demand_builder_finish(&b, interval))
		rc = error_set(err, errlen, "%s: out of memory", name);
	demand_builder_free(&b);
	return rc;
}

int demand_read_file(const char *path, struct demand_set *set, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	size_t len = 0, cap = 0;
	struct stat st;
	int rc;

	if (!f)
		return error_set(err, errlen, "%s: %s", path, strerror(errno));
	/* A regular file is read in one piece; a pipe grows by doubling. */
	if (!fstat(fileno(f), &st) && S_ISREG(st.st_mode) && st.st_size >= 0 &&
	    (unsigned long long)st.st_size < DEMAND_FILE_MAX)
		cap = (size_t)st.st_size + 1;
	for (;;) {
		if (len == cap || !text) {
			size_t want = !text && cap ? cap : cap ? cap * 2 : 65536;
			char *t = want <= DEMAND_FILE_MAX ? realloc(text, want) : NULL;
			if (!t) {
				free(text);
				fclose(f);
				return error_set(err, errlen, "%s: over %llu MiB, or out of memory",
						 path, DEMAND_FILE_MAX / MIB);
			}
			text = t;
			cap = want;
		}
		size_t got = fread(text + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	rc = ferror(f);
	fclose(f);
	if (rc) {
		free(text);
		return error_set(err, errlen, "%s: read error", path);
	}
	rc = demand_read_text(path, text, len, set, err, errlen);
	free(text);
	return rc;
}

/* One interval's operations and bytes. */
static double ops_of(const struct demand_point *p)
{
	return p->read_ops + p->write_ops;
}

static double bytes_of(const struct demand_point *p)
{
	return p->read_bytes + p->write_bytes;
}

struct demand_stats demand_stats_of(const struct demand_trace *tr)
{
	struct demand_stats s = { 0 };
	double ops = 0, bytes = 0;

	if (!tr->n || !(tr->interval_s > 0))
		return s;
	for (size_t i = 0; i < tr->n; i++) {
		const struct demand_point *p = &tr->p[i];
		ops += ops_of(p);
		bytes += bytes_of(p);
		if (ops_of(p) / tr->interval_s > s.peak_iops || i == 0) {
			s.peak_iops = ops_of(p) / tr->interval_s;
			s.peak_t = p->t;
		}
		s.peak_mibs = fmax(s.peak_mibs, bytes_of(p) / tr->interval_s / MIB);
	}
	s.seconds = tr->p[tr->n - 1].t - tr->p[0].t + tr->interval_s;
	s.mean_iops = ops / s.seconds;
	s.mean_mibs = bytes / s.seconds / MIB;
	return s;
}

double demand_peak_to_mean(const struct demand_trace *tr, double window_s)
{
	double worst = 1;
	size_t i = 0;

	if (!tr->n || !(tr->interval_s > 0) || tr->interval_s * 1.5 > window_s)
		return 1;
	while (i < tr->n) {
		double start = floor(tr->p[i].t / window_s) * window_s, ops = 0, peak = 0;
		for (; i < tr->n && tr->p[i].t < start + window_s; i++) {
			ops += ops_of(&tr->p[i]);
			peak = fmax(peak, ops_of(&tr->p[i]) / tr->interval_s);
		}
		if (ops > 0)
			worst = fmax(worst, peak / (ops / window_s));
	}
	return worst;
}
