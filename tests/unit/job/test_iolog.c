/* test_iolog.c - the series a run keeps in memory (struct iolog_series)
 * are what a reader of its fio-format logs would get back: a randrw job's
 * IOPS per window with its directions summed, and its histogram windows in
 * results.json's compact form, directions summed, an idle window empty; a
 * last sliver of a window that rounds to the previous window's ms joins
 * it, in the files' reading as in memory.  The files are fio's rows. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "job/iolog.h"
#include "job/internal.h"
#include "lib/lib.h"
#include "results/results.h"
#include "stats/stats.h"
#include "stats/internal.h"

#define COARSENESS 4
#define BINS (HISTLOG_FIO_BINS >> COARSENESS)
#define WINDOWS 4
#define MS 1000000ull

/* Window w's I/Os: reads at (w + 1) x 100 us, a write at 2 ms for each
 * fourth read; window 2 idle.  Into the job's cumulative histograms, the
 * window's totals and the counts the window should show. */
static void window_ios(struct direction_stats *dir, size_t w, struct window_totals *t,
		       uint64_t want[BINS])
{
	memset(t, 0, sizeof(*t));
	for (int i = 0; w != 2 && i < 100; i++) {
		uint64_t read_ns = (w + 1) * 100000 + (uint64_t)i * 37;
		histogram_add(&dir[DDIR_READ].clat_hist, read_ns);
		want[histogram_index(read_ns) >> COARSENESS]++;
		t->ios[DDIR_READ]++;
		if (i % 4 == 0) {
			histogram_add(&dir[DDIR_WRITE].clat_hist, 2 * MS);
			want[histogram_index(2 * MS) >> COARSENESS]++;
			t->ios[DDIR_WRITE]++;
		}
	}
}

/* The IOPS log read back as a reader would: rows of one time summed. */
static size_t read_iops_log(const char *path, uint64_t *out, size_t max)
{
	FILE *f = fopen(path, "r");
	uint64_t ms, v, last = UINT64_MAX;
	size_t n = 0;
	int d;
	while (f && fscanf(f, "%" SCNu64 ", %" SCNu64 ", %d, %*u, %*u", &ms, &v, &d) == 3) {
		if (ms != last && n < max)
			out[n++] = 0;
		out[n - 1] += v;
		last = ms;
	}
	if (f)
		fclose(f);
	return n;
}

/* The histogram log read back: rows of one time summed into sums[n]. */
static size_t read_hist_log(const char *path, uint64_t (*sums)[BINS], size_t max)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *end;
	size_t cap = 0, n = 0;
	uint64_t last = UINT64_MAX;
	while (f && getline(&line, &cap, f) > 0) {
		uint64_t ms = strtoull(line, &end, 10);
		strtol(end + 1, &end, 10);  /* ddir */
		strtoul(end + 1, &end, 10); /* bs */
		if (ms != last && n < max)
			memset(sums[n++], 0, sizeof(sums[0]));
		for (unsigned j = 0; *end == ','; j++)
			sums[n - 1][j] += strtoull(end + 1, &end, 10);
		last = ms;
	}
	free(line);
	if (f)
		fclose(f);
	return n;
}

static void test_series_are_the_logs_read_back(struct checks *checks)
{
	static struct direction_stats dir[DDIR_COUNT];
	static uint64_t want[WINDOWS][BINS], from_log[WINDOWS + 2][BINS];
	static struct iolog_paths paths;
	struct job_options o;
	struct iolog l;
	struct iolog_series kept = { 0 };
	struct window_totals t;
	uint64_t iops[WINDOWS + 2];
	char iops_path[] = "/tmp/ebsbench-iolog-iops-XXXXXX";
	char hist_path[] = "/tmp/ebsbench-iolog-hist-XXXXXX", err[256] = "";
	char *argv[] = { "--name=t",
			 "--filename=none",
			 "--rw=randrw",
			 "--bs=4k",
			 "--log_avg_msec=10",
			 "--log_hist_msec=10",
			 "--log_hist_coarseness=4" };
	int fd1 = mkstemp(iops_path), fd2 = mkstemp(hist_path);

	CHECK(fd1 >= 0 && fd2 >= 0);
	close(fd1);
	close(fd2);
	options_defaults(&o);
	CHECK(options_parse_argv(&o, (int)ARRAY_SIZE(argv), argv, err, sizeof(err)) == 0);
	snprintf(paths.path[IOLOG_IOPS], IOLOG_PATH_MAX, "%s", iops_path);
	snprintf(paths.path[IOLOG_HIST], IOLOG_PATH_MAX, "%s", hist_path);
	paths.keep = &kept;
	for (int d = 0; d < DDIR_COUNT; d++)
		histogram_init(&dir[d].clat_hist);
	CHECK(iolog_open(&l, &o, &paths, err, sizeof(err)) == 0);
	for (size_t w = 0; w < WINDOWS; w++) {
		window_ios(dir, w, &t, want[w]);
		iolog_window(&l, (w + 1) * 10 * MS, 10 * MS, &t);
		iolog_hist_window(&l, (w + 1) * 10 * MS, dir);
	}
	/* A job stopped 0.3 ms after the last edge: its sliver rounds to 40 ms. */
	window_ios(dir, 0, &t, want[WINDOWS - 1]);
	iolog_window(&l, 40 * MS + 300000, 300000, &t);
	iolog_hist_window(&l, 40 * MS + 300000, dir);
	CHECK(iolog_close(&l, err, sizeof(err)) == 0);

	/* In memory: four windows, the sliver in the last; as the files read back. */
	size_t n = read_iops_log(iops_path, iops, ARRAY_SIZE(iops));
	CHECK_EQ_U64(n, WINDOWS);
	CHECK_EQ_U64(json_array_size(kept.iops), WINDOWS);
	for (size_t w = 0; w < n && w < json_array_size(kept.iops); w++)
		CHECK_EQ_U64((uint64_t)json_integer_value(json_array_get(kept.iops, w)), iops[w]);
	CHECK_EQ_U64((uint64_t)json_integer_value(json_array_get(kept.iops, 0)), 12500);
	CHECK_EQ_U64((uint64_t)json_integer_value(json_array_get(kept.iops, 2)), 0);
	/* 125 I/Os in 10 ms, then 125 in 0.3 ms: 12,500 + 416,667 IOPS. */
	CHECK_EQ_U64((uint64_t)json_integer_value(json_array_get(kept.iops, 3)),
		     12500 + 333333 + 83333);
	n = read_hist_log(hist_path, from_log, ARRAY_SIZE(from_log));
	CHECK_EQ_U64(n, WINDOWS);
	CHECK_EQ_U64(json_array_size(kept.hist), WINDOWS);
	for (size_t w = 0; w < n && w < json_array_size(kept.hist); w++) {
		uint64_t got[BINS] = { 0 };
		const json_t *window = json_array_get(kept.hist, w);
		CHECK_EQ_U64(results_hist_window(window, got, BINS), w == 2   ? 0
								     : w == 3 ? 250
									      : 125);
		CHECK(!memcmp(got, want[w], sizeof(got)));
		CHECK(!memcmp(got, from_log[w], sizeof(got)));
	}
	CHECK(results_str_is(json_array_get(kept.hist, 2), ""));
	CHECK(!kept.iops_full && !kept.hist_full);
	json_decref(kept.iops);
	json_decref(kept.hist);
	unlink(iops_path);
	unlink(hist_path);
}

/* No histogram log: no histogram series; the IOPS series still kept. */
static void test_no_hist_log_no_hist_series(struct checks *checks)
{
	static struct iolog_paths paths;
	struct job_options o;
	struct iolog l;
	struct iolog_series kept = { 0 };
	struct window_totals t = { .ios = { 7 } };
	char err[256] = "";
	char *argv[] = { "--name=t", "--filename=none", "--rw=randread", "--log_avg_msec=1000" };

	options_defaults(&o);
	CHECK(options_parse_argv(&o, (int)ARRAY_SIZE(argv), argv, err, sizeof(err)) == 0);
	paths.keep = &kept;
	CHECK(iolog_open(&l, &o, &paths, err, sizeof(err)) == 0);
	iolog_window(&l, 1000 * MS, 1000 * MS, &t);
	CHECK(iolog_close(&l, err, sizeof(err)) == 0);
	CHECK(kept.hist == NULL);
	CHECK_EQ_U64(json_array_size(kept.iops), 1);
	CHECK_EQ_U64((uint64_t)json_integer_value(json_array_get(kept.iops, 0)), 7);
	json_decref(kept.iops);
}

CHECK_MAIN(test_series_are_the_logs_read_back, test_no_hist_log_no_hist_series)
