/* run_hist.c - a histogram log read back into results.json's compact form. */
#include "run/run_hist.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/job.h"

/* One window's counts as results.json keeps them: "FIRST:C C C", the
 * bins before the first and after the last non-empty one left out; ""
 * when empty. */
static json_t *sparse_window(const uint64_t *bins, unsigned n)
{
	unsigned first = 0, last = n;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	while (first < n && !bins[first])
		first++;
	while (last > first && !bins[last - 1])
		last--;
	if (first == n || !(out = open_memstream(&text, &len)))
		return json_string("");
	fprintf(out, "%u:", first);
	for (unsigned j = first; j < last; j++)
		fprintf(out, j > first ? " %" PRIu64 : "%" PRIu64, bins[j]);
	fclose(out);
	json_t *w = json_string(text);
	free(text);
	return w;
}

/* Parses one row, "ms, ddir, bs, b0, ..., bn-1", adding its bins into sum;
 * -1 when it is not one, or has another number of bins than n. */
static int parse_row(const char *line, uint64_t *ms, uint64_t *sum, unsigned n)
{
	char *end;
	unsigned j = 0;

	*ms = strtoull(line, &end, 10);
	if (end == line || strtol(end + 1, &end, 10) < 0 || *end != ',')
		return -1;
	strtoul(end + 1, &end, 10);
	while (*end == ',') {
		const char *at = end + 1;
		uint64_t v = strtoull(at, &end, 10);
		if (end == at || j == n)
			return -1;
		sum[j++] += v;
	}
	return j == n && (*end == '\n' || *end == '\0') ? 0 : -1;
}

/* Every row of f, the rows of one window (one per direction) summed, as
 * sparse windows; sum and one are scratch of n bins.  Returns the rows
 * read, or -(the bad row's number). */
static int read_windows(FILE *f, json_t *windows, uint64_t *sum, uint64_t *one, unsigned n)
{
	uint64_t ms = 0, last = UINT64_MAX;
	char *line = NULL;
	size_t cap = 0;
	int rows = 0;

	while (getline(&line, &cap, f) > 0) {
		memset(one, 0, n * sizeof(*one));
		if (parse_row(line, &ms, one, n)) {
			free(line);
			return -(rows + 1);
		}
		if (ms != last && last != UINT64_MAX) {
			json_array_append_new(windows, sparse_window(sum, n));
			memset(sum, 0, n * sizeof(*sum));
		}
		for (unsigned j = 0; j < n; j++)
			sum[j] += one[j];
		last = ms;
		rows++;
	}
	if (last != UINT64_MAX)
		json_array_append_new(windows, sparse_window(sum, n));
	free(line);
	return rows;
}

json_t *run_hist_read(const char *path, const char *log, unsigned window_ms, unsigned coarseness,
		      char *err, size_t errlen)
{
	unsigned bins = HISTLOG_FIO_BINS >> coarseness;
	uint64_t *sum = calloc(bins, sizeof(*sum)), *one = calloc(bins, sizeof(*one));
	FILE *f = sum && one ? fopen(path, "r") : NULL;
	json_t *windows = json_array();
	int rows = 0;

	if (f) {
		rows = read_windows(f, windows, sum, one, bins);
		fclose(f);
		if (rows < 0)
			snprintf(err, errlen, "%s: row %d is not a histogram row of %u bins", path,
				 -rows, bins);
	} else {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
	}
	free(sum);
	free(one);
	if (!f || rows < 0) {
		json_decref(windows);
		return NULL;
	}
	return json_pack("{sssisisiso}", "log", log, "window_ms", (int)window_ms, "coarseness",
			 (int)coarseness, "bins", (int)bins, "windows", windows);
}
