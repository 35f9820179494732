/* test_run_hist.c - a histogram log as the job writes it (both directions
 * of a randrw job, windows of cumulative histograms) read back into
 * results.json's compact form: each window's counts per bin survive, the
 * directions summed, an idle window empty; a bad row is named. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "job/job.h"
#include "lib/lib.h"
#include "results/results.h"
#include "run/run.h"
#include "run/run_hist.h"
#include "stats/stats.h"

#define COARSENESS PLAN_HIST_COARSENESS
#define BINS (HISTLOG_FIO_BINS >> COARSENESS)
#define WINDOWS 4

/* Window w's latencies: reads at (w + 1) x 100 us, writes at 2 ms; window
 * 2 idle. */
static void window_ios(struct direction_stats *dir, size_t w, uint64_t want[BINS])
{
	for (int i = 0; w != 2 && i < 100; i++) {
		uint64_t read_ns = (w + 1) * 100000 + (uint64_t)i * 37;
		histogram_add(&dir[DDIR_READ].clat_hist, read_ns);
		want[histogram_index(read_ns) >> COARSENESS]++;
		if (i % 4 == 0) {
			uint64_t write_ns = 2000000;
			histogram_add(&dir[DDIR_WRITE].clat_hist, write_ns);
			want[histogram_index(write_ns) >> COARSENESS]++;
		}
	}
}

static void test_log_round_trip(struct checks *checks)
{
	static struct direction_stats dir[DDIR_COUNT];
	static struct histlog h;
	static uint64_t want[WINDOWS][BINS];
	char path[] = "/tmp/ebsbench-run-hist-XXXXXX", err[256];
	const bool dirs[DDIR_COUNT] = { true, true };
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	json_t *hist;

	CHECK(f != NULL);
	if (!f)
		return;
	for (int d = 0; d < DDIR_COUNT; d++)
		histogram_init(&dir[d].clat_hist);
	histlog_init(&h, COARSENESS, 4096, dirs);
	for (size_t w = 0; w < WINDOWS; w++) {
		window_ios(dir, w, want[w]);
		histlog_window(&h, f, (w + 1) * 10, dir);
	}
	fclose(f);
	hist = run_hist_read(path, "v_rr_clat_hist.1.log", 10, COARSENESS, err, sizeof(err));
	CHECK(hist != NULL);
	CHECK(results_str_is(json_object_get(hist, "log"), "v_rr_clat_hist.1.log"));
	CHECK_EQ_U64((uint64_t)results_num(json_object_get(hist, "bins")), BINS);
	CHECK_EQ_U64((uint64_t)results_num(json_object_get(hist, "window_ms")), 10);
	CHECK_EQ_U64(json_array_size(json_object_get(hist, "windows")), WINDOWS);
	for (size_t w = 0; w < WINDOWS; w++) {
		uint64_t got[BINS] = { 0 };
		const json_t *window = json_array_get(json_object_get(hist, "windows"), w);
		CHECK_EQ_U64(results_hist_window(window, got, BINS), (w == 2 ? 0 : 125));
		CHECK(!memcmp(got, want[w], sizeof(got)));
	}
	CHECK(results_str_is(json_array_get(json_object_get(hist, "windows"), 2), ""));
	json_decref(hist);
	unlink(path);
}

static void test_bad_logs(struct checks *checks)
{
	char path[] = "/tmp/ebsbench-run-hist-XXXXXX", err[256] = "";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	uint64_t bins[BINS] = { 0 }, counts[BINS] = { 0 };

	CHECK(f != NULL);
	if (!f)
		return;
	histlog_put_row(f, 10, 0, 4096, bins, BINS);
	histlog_put_row(f, 20, 0, 4096, bins, BINS - 1); /* a row of another coarseness */
	fclose(f);
	CHECK(run_hist_read(path, "x", 10, COARSENESS, err, sizeof(err)) == NULL);
	CHECK(strstr(err, path) && strstr(err, "row 2 is not a histogram row of 116 bins"));
	unlink(path);
	CHECK(run_hist_read(path, "x", 10, COARSENESS, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "cannot read") != NULL);
	/* The reader refuses what is not a window, or does not fit. */
	json_t *bad[] = { json_string("3"),	  json_string("3:1 x"), json_string("3:-1"),
			  json_string("115:1 1"), json_string("3:1 "),	json_integer(3) };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		CHECK(results_hist_window(bad[i], counts, BINS) == -1);
		json_decref(bad[i]);
	}
}

CHECK_MAIN(test_log_round_trip, test_bad_logs)
