/* demand_csv.c - a trace as plain CSV, read and written: a header naming
 * the columns (time and any of volume, interval_s, read_ops, write_ops,
 * read_bytes, write_bytes, in any order), then one row per interval;
 * blank lines and lines starting with '#' are skipped. */
#include "demand/demand_csv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "demand/internal.h"
#include "lib/lib.h"

enum column { C_TIME, C_VOLUME, C_INTERVAL, C_READ_OPS, C_WRITE_OPS, C_READ_BYTES, C_WRITE_BYTES };
static const char *const column_names[] = { "time",	 "volume",     "interval_s", "read_ops",
					    "write_ops", "read_bytes", "write_bytes" };
#define COLUMNS ARRAY_SIZE(column_names)
#define MAX_FIELDS 16
#define LINE_MAX_LEN 1024

/* Splits line in place on commas, trimming spaces; returns the count, or
 * MAX_FIELDS + 1 when there are more. */
static size_t split(char *line, char **fields)
{
	size_t n = 0;
	for (char *s = line;; s++) {
		char *end = s + strcspn(s, ",");
		bool last = !*end;
		if (n == MAX_FIELDS)
			return MAX_FIELDS + 1;
		*end = '\0';
		while (*s == ' ' || *s == '\t')
			s++;
		for (char *e = end; e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r');)
			*--e = '\0';
		fields[n++] = s;
		if (last)
			return n;
		s = end;
	}
}

/* The header: which column each field is.  Returns 0 or -1. */
static int read_header(const char *name, size_t lineno, char **fields, size_t n, int *col,
		       char *err, size_t errlen)
{
	bool seen[COLUMNS] = { false };
	bool any_metric = false;

	if (n > MAX_FIELDS)
		return error_set(err, errlen, "%s:%zu: more than %d columns", name, lineno,
				 MAX_FIELDS);
	for (size_t f = 0; f < n; f++) {
		size_t c = 0;
		while (c < COLUMNS && strcmp(fields[f], column_names[c]))
			c++;
		if (c == COLUMNS)
			return error_set(
				err, errlen,
				"%s:%zu: unknown column '%.40s' (time, volume, interval_s, "
				"read_ops, write_ops, read_bytes, write_bytes)",
				name, lineno, fields[f]);
		if (seen[c])
			return error_set(err, errlen, "%s:%zu: column '%s' twice", name, lineno,
					 column_names[c]);
		seen[c] = true;
		col[f] = (int)c;
		any_metric |= c >= C_READ_OPS;
	}
	if (!seen[C_TIME] || !any_metric)
		return error_set(err, errlen,
				 "%s:%zu: the header needs a time column and at least one of "
				 "read_ops, write_ops, read_bytes, write_bytes",
				 name, lineno);
	return 0;
}

/* One data row. */
static int read_row(const char *name, size_t lineno, char **fields, size_t n, const int *col,
		    size_t ncol, struct demand_builder *b, double *interval, char *err,
		    size_t errlen)
{
	static const unsigned bits[] = { [C_READ_OPS] = DEMAND_M_READ_OPS,
					 [C_WRITE_OPS] = DEMAND_M_WRITE_OPS,
					 [C_READ_BYTES] = DEMAND_M_READ_BYTES,
					 [C_WRITE_BYTES] = DEMAND_M_WRITE_BYTES };
	const char *vol = "volume";
	double t = NAN, v[COLUMNS] = { 0 };

	if (n != ncol)
		return error_set(err, errlen, "%s:%zu: %zu fields, the header has %zu", name,
				 lineno, n > MAX_FIELDS ? n - 1 : n, ncol);
	for (size_t f = 0; f < n; f++) {
		char *end;
		if (col[f] == C_VOLUME) {
			vol = fields[f][0] ? fields[f] : vol;
		} else if (col[f] == C_TIME) {
			if (demand_parse_time(fields[f], &t))
				return error_set(
					err, errlen,
					"%s:%zu: time '%.40s' is neither ISO 8601 nor Unix "
					"seconds",
					name, lineno, fields[f]);
		} else {
			v[col[f]] = strtod(fields[f], &end);
			if (end == fields[f] || *end || !isfinite(v[col[f]]) || v[col[f]] < 0 ||
			    (col[f] == C_INTERVAL && v[col[f]] <= 0))
				return error_set(err, errlen,
						 "%s:%zu: %s '%.40s' is not a number %s", name,
						 lineno, column_names[col[f]], fields[f],
						 col[f] == C_INTERVAL ? "above 0" : "0 or more");
		}
	}
	long vi = demand_volume_index(b->set, vol);
	if (vi < 0)
		return error_set(err, errlen, "%s: out of memory", name);
	for (size_t f = 0; f < n; f++) {
		if (col[f] == C_INTERVAL && *interval <= 0)
			*interval = v[C_INTERVAL];
		if (col[f] < C_READ_OPS)
			continue;
		b->set->v[vi].metrics |= bits[col[f]];
		if (demand_builder_add(b, (size_t)vi, bits[col[f]], t, v[col[f]]))
			return error_set(err, errlen, "%s: out of memory", name);
	}
	return 0;
}

int demand_read_csv(const char *name, const char *text, size_t len, struct demand_builder *b,
		    double *interval, char *err, size_t errlen)
{
	char line[LINE_MAX_LEN], *fields[MAX_FIELDS + 1];
	int col[MAX_FIELDS];
	size_t ncol = 0, lineno = 0, rows = 0;
	const char *s = text, *end = text + len;

	*interval = 0;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t l = (size_t)((nl ? nl : end) - s);
		lineno++;
		if (l >= sizeof(line))
			return error_set(err, errlen, "%s:%zu: line longer than %d bytes", name,
					 lineno, LINE_MAX_LEN - 1);
		memcpy(line, s, l);
		line[l] = '\0';
		s += l + (nl != NULL);
		if (strlen(line) != l)
			return error_set(err, errlen, "%s:%zu: a NUL byte", name, lineno);
		if (line[strspn(line, " \t\r")] == '\0' || line[0] == '#')
			continue;
		size_t n = split(line, fields);
		if (!ncol) {
			if (read_header(name, lineno, fields, n, col, err, errlen))
				return -1;
			ncol = n;
		} else if (read_row(name, lineno, fields, n, col, ncol, b, interval, err, errlen)) {
			return -1;
		} else {
			rows++;
		}
	}
	if (!rows)
		return error_set(err, errlen, "%s:%zu: %s", name, lineno,
				 ncol ? "no rows after the header"
				      : "empty: want a CSV header (time,read_ops,...), "
					"or CloudWatch JSON");
	return 0;
}

/* t as ISO 8601 UTC, with milliseconds when it has a fraction. */
static void iso_time(double t, char *out, size_t cap)
{
	time_t whole = (time_t)floor(t);
	long ms = lround((t - floor(t)) * 1000);
	struct tm tm;

	if (ms == 1000) {
		whole++;
		ms = 0;
	}
	gmtime_r(&whole, &tm);
	size_t n = strftime(out, cap, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out + n, cap - n, ms ? ".%03ldZ" : "Z", ms);
}

void demand_csv_header(FILE *out)
{
	fprintf(out, "# ebsbench demand trace (docs/demand.md)\n"
		     "time,volume,interval_s,read_ops,write_ops,read_bytes,write_bytes\n");
}

void demand_csv_row(FILE *out, const char *volume, double interval_s, const struct demand_point *p)
{
	char when[40];

	iso_time(p->t, when, sizeof(when));
	fprintf(out, "%s,%s,%.15g,%.15g,%.15g,%.15g,%.15g\n", when, volume, interval_s, p->read_ops,
		p->write_ops, p->read_bytes, p->write_bytes);
}

int demand_write_csv(FILE *out, const struct demand_trace *tr)
{
	demand_csv_header(out);
	for (size_t i = 0; i < tr->n; i++)
		demand_csv_row(out, tr->volume, tr->interval_s, &tr->p[i]);
	return fflush(out) ? -1 : 0;
}
