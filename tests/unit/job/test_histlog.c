/* test_histlog.c - fio's histogram log: each of our buckets lands in the
 * fio bin whose range holds it, coarseness sums neighbouring bins as fio's
 * hist_sum does, a row is fio's "ms, ddir, bs, bins...", and each window's
 * row holds only that window's completions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "job/histlog.h"
#include "job/iolog.h"
#include "job/options_json.h"
#include "job/internal.h"
#include "lib/lib.h"
#include "stats/internal.h"

#define FIO_BITS 6
#define FIO_VAL (1u << FIO_BITS)
#define FIO_NR (29u * FIO_VAL) /* fio 3.33's FIO_IO_U_PLAT_NR */

/* fio's bin for a value, written from stat.h's description of the layout
 * (below 2^7 a bin per value; then 64 bins per power of two; saturating). */
static unsigned fio_val_to_idx(uint64_t val)
{
	unsigned msb = val ? 63 - (unsigned)__builtin_clzll(val) : 0;
	if (msb <= FIO_BITS)
		return (unsigned)val;
	unsigned error_bits = msb - FIO_BITS;
	uint64_t idx =
		((uint64_t)(error_bits + 1) << FIO_BITS) + ((val >> error_bits) & (FIO_VAL - 1));
	return idx < FIO_NR - 1 ? (unsigned)idx : FIO_NR - 1;
}

/* The lowest value of fio bin idx (fiologparser_hist.py's edge 0.0). */
static uint64_t fio_bin_low(unsigned idx)
{
	if (idx < 2 * FIO_VAL)
		return idx;
	unsigned error_bits = (idx >> FIO_BITS) - 1;
	return ((uint64_t)1 << (error_bits + FIO_BITS)) + ((uint64_t)(idx % FIO_VAL) << error_bits);
}

/* The highest value of fio bin idx; the last takes everything above. */
static uint64_t fio_bin_high(unsigned idx)
{
	return idx == FIO_NR - 1 ? UINT64_MAX : fio_bin_low(idx + 1) - 1;
}

static void test_fio_layout_constants(struct checks *checks)
{
	CHECK_EQ_U64(HISTLOG_FIO_BINS, 1856);
	CHECK_EQ_U64(HISTLOG_FIO_BINS, FIO_NR);
}

static void test_each_bucket_lands_in_the_fio_bin_holding_it(struct checks *checks)
{
	unsigned bad = 0;
	for (unsigned i = 0; i < HISTOGRAM_BUCKETS; i++) {
		unsigned b = histlog_fio_bin(i);
		uint64_t low = histogram_bucket_low(i), high = histogram_bucket_high(i);
		if (b >= FIO_NR || fio_bin_low(b) > low || high > fio_bin_high(b))
			bad++;
		/* And fio itself would put both edges of our bucket there. */
		if (fio_val_to_idx(low) != b || (high != UINT64_MAX && fio_val_to_idx(high) != b))
			bad++;
	}
	CHECK_EQ_U64(bad, 0);
	/* The first 29 groups are fio's bins one for one; past 2^34 ns all saturate. */
	CHECK_EQ_U64(histlog_fio_bin(histogram_index(1000)), fio_val_to_idx(1000));
	CHECK_EQ_U64(histlog_fio_bin(histogram_index(1ull << 34)), FIO_NR - 1);
	CHECK_EQ_U64(histlog_fio_bin(histogram_index(1ull << 33)), 28 * 64);
	CHECK_EQ_U64(histlog_fio_bin(histogram_index(3600000000000ull)), FIO_NR - 1);
	CHECK_EQ_U64(histlog_fio_bin(HISTOGRAM_BUCKETS - 1), FIO_NR - 1);
}

static void test_counts_are_the_difference_of_snapshots(struct checks *checks)
{
	static struct histogram before, now;
	static uint64_t fine[HISTLOG_FIO_BINS];
	histogram_init(&before);
	histogram_add(&before, 100);
	histogram_add(&before, 5000);
	now = before;
	histogram_add(&now, 5000);
	histogram_add(&now, 5001);
	histogram_add(&now, 40000000000ull); /* 40 s: beyond fio's range */
	histlog_fio_counts(&now, &before, fine);
	uint64_t total = 0;
	for (unsigned j = 0; j < HISTLOG_FIO_BINS; j++)
		total += fine[j];
	CHECK_EQ_U64(total, 3);
	CHECK_EQ_U64(fine[100], 0);
	CHECK_EQ_U64(fine[fio_val_to_idx(5000)], 2); /* 5000 and 5001 share a 64 ns bin */
	CHECK_EQ_U64(fine[FIO_NR - 1], 1);
}

static void test_coarseness_sums_neighbours(struct checks *checks)
{
	static uint64_t fine[HISTLOG_FIO_BINS], coarse[HISTLOG_FIO_BINS];
	for (unsigned j = 0; j < HISTLOG_FIO_BINS; j++)
		fine[j] = j;
	CHECK_EQ_U64(histlog_coarsen(fine, 0, coarse), 1856);
	CHECK_EQ_U64(coarse[1855], 1855);
	CHECK_EQ_U64(histlog_coarsen(fine, 1, coarse), 928);
	CHECK_EQ_U64(coarse[0], 0 + 1);
	CHECK_EQ_U64(coarse[927], 1854 + 1855);
	CHECK_EQ_U64(histlog_coarsen(fine, 6, coarse), 29);
	/* Column j sums fine bins 64j .. 64j+63: 64 * 64j + 63 * 64 / 2. */
	for (unsigned j = 0; j < 29; j++)
		CHECK_EQ_U64(coarse[j], 64ull * 64 * j + 2016);
	for (unsigned c = 0; c <= HISTLOG_MAX_COARSENESS; c++)
		CHECK_EQ_U64(histlog_coarsen(fine, c, coarse), 1856u >> c);
}

/* Writes rows into memory and returns them (the caller frees). */
static char *rows_of(void (*write)(FILE *f, void *ctx), void *ctx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	write(f, ctx);
	fclose(f);
	return buf;
}

static void write_small_row(FILE *f, void *ctx)
{
	const uint64_t bins[] = { 7, 0, 12 };
	(void)ctx;
	histlog_put_row(f, 1000, 1, 4096, bins, 3);
}

static void test_row_format(struct checks *checks)
{
	char *text = rows_of(write_small_row, NULL);
	CHECK(strcmp(text, "1000, 1, 4096, 7, 0, 12\n") == 0);
	free(text);
}

struct two_windows {
	struct histlog log;
	struct direction_stats dir[DDIR_COUNT];
};

/* A read-only job: 3 I/Os in the first window, none in the second, one in the third. */
static void write_three_windows(FILE *f, void *ctx)
{
	struct two_windows *w = ctx;
	const bool dirs[DDIR_COUNT] = { true, false };
	histlog_init(&w->log, 2, 4096, dirs);
	histogram_add(&w->dir[DDIR_READ].clat_hist, 100);
	histogram_add(&w->dir[DDIR_READ].clat_hist, 101);
	histogram_add(&w->dir[DDIR_READ].clat_hist, 900);
	histlog_window(&w->log, f, 100, w->dir);
	histlog_window(&w->log, f, 200, w->dir);
	histogram_add(&w->dir[DDIR_READ].clat_hist, 900);
	histlog_window(&w->log, f, 300, w->dir);
}

/* Splits a row into its numbers; returns how many. */
static unsigned row_numbers(const char *row, uint64_t *out, unsigned cap)
{
	unsigned n = 0;
	char *end;
	while (n < cap) {
		out[n++] = strtoull(row, &end, 10);
		if (strncmp(end, ", ", 2) != 0)
			break;
		row = end + 2;
	}
	return n;
}

static void test_windows_hold_only_their_own(struct checks *checks)
{
	static struct two_windows w;
	static uint64_t nums[HISTLOG_FIO_BINS + 3];
	memset(&w, 0, sizeof(w));
	char *text = rows_of(write_three_windows, &w);
	char *row[3] = { text, NULL, NULL };
	for (int r = 1; r < 3 && row[r - 1]; r++)
		row[r] = strchr(row[r - 1], '\n') ? strchr(row[r - 1], '\n') + 1 : NULL;
	uint64_t expect_time[3] = { 100, 200, 300 }, expect_total[3] = { 3, 0, 1 };
	for (int r = 0; r < 3; r++) {
		CHECK(row[r] != NULL);
		if (!row[r])
			continue;
		unsigned n = row_numbers(row[r], nums, HISTLOG_FIO_BINS + 3);
		CHECK_EQ_U64(n, 3 + 1856 / 4);
		CHECK_EQ_U64(nums[0], expect_time[r]);
		CHECK_EQ_U64(nums[1], 0);
		CHECK_EQ_U64(nums[2], 4096);
		uint64_t total = 0;
		for (unsigned j = 3; j < n; j++)
			total += nums[j];
		CHECK_EQ_U64(total, expect_total[r]);
	}
	/* 100 and 101 are fio bins 100 and 101: coarse column 25 at coarseness 2. */
	unsigned n = row_numbers(row[0], nums, HISTLOG_FIO_BINS + 3);
	CHECK(n > 3 + 25);
	CHECK_EQ_U64(nums[3 + 25], 2);
	CHECK_EQ_U64(nums[3 + fio_val_to_idx(900) / 4], 1);
	CHECK(strchr(row[2], '\n') != NULL && strchr(row[2], '\n')[1] == '\0');
	free(text);
}

/* The three options on the command line and in JSON, through the one table. */
static void test_options_cli_and_json(struct checks *checks)
{
	char *argv[] = { "--name=h", "--filename=/dev/null", "--write_hist_log=out/p",
			 "--log_hist_msec=250", "--log_hist_coarseness=3" };
	struct job_options o;
	struct iolog_paths paths;
	char err[256] = "";
	options_defaults(&o);
	CHECK_EQ_U64(o.log_hist_msec, 0); /* fio's default: no histogram log */
	CHECK(options_parse_argv(&o, 5, argv, err, sizeof(err)) == 0);
	CHECK(options_validate(&o, err, sizeof(err)) == 0);
	CHECK_EQ_U64(o.log_hist_msec, 250);
	CHECK_EQ_U64(o.log_hist_coarseness, 3);
	iolog_paths_fio(&paths, &o);
	CHECK(strcmp(paths.path[IOLOG_HIST], "out/p_clat_hist.1.log") == 0);

	json_error_t jerr;
	json_t *obj = json_loads("{\"name\": \"j\", \"filename\": \"/dev/null\", "
				 "\"write_hist_log\": \"q\", \"log_hist_msec\": 100, "
				 "\"log_hist_coarseness\": 6}",
				 0, &jerr);
	options_defaults(&o);
	CHECK(obj != NULL);
	CHECK(options_apply_json(&o, obj, err, sizeof(err)) == 0);
	CHECK(strcmp(o.hist_log, "q") == 0);
	CHECK_EQ_U64(o.log_hist_msec, 100);
	CHECK_EQ_U64(o.log_hist_coarseness, 6);
	json_decref(obj);
}

/* Bad values fail with one line naming the option. */
static void test_bad_values_name_the_option(struct checks *checks)
{
	static const char *const bad[][2] = {
		{ "log_hist_coarseness", "7" }, { "log_hist_coarseness", "-1" },
		{ "log_hist_coarseness", "x" }, { "log_hist_msec", "abc" },
		{ "log_hist_msec", "1.5" },	{ "log_hist_msec", "90000000" },
		{ "write_hist_log", "" }
	};
	struct job_options o;
	char err[256];
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		options_defaults(&o);
		err[0] = '\0';
		CHECK(options_set(&o, bad[i][0], bad[i][1], err, sizeof(err)) < 0);
		CHECK(strstr(err, bad[i][0]) != NULL && !strchr(err, '\n'));
	}
	options_defaults(&o);
	options_set(&o, "name", "x", err, sizeof(err));
	options_set(&o, "filename", "/dev/null", err, sizeof(err));
	options_set(&o, "write_hist_log", "p", err, sizeof(err));
	CHECK(options_validate(&o, err, sizeof(err)) < 0);
	CHECK(strstr(err, "write_hist_log") != NULL && strstr(err, "log_hist_msec") != NULL);
	options_set(&o, "log_hist_msec", "0", err, sizeof(err));
	CHECK(options_validate(&o, err, sizeof(err)) < 0);
	options_set(&o, "log_hist_msec", "1000", err, sizeof(err));
	CHECK(options_validate(&o, err, sizeof(err)) == 0);
}

CHECK_MAIN(test_fio_layout_constants, test_each_bucket_lands_in_the_fio_bin_holding_it,
	   test_counts_are_the_difference_of_snapshots, test_coarseness_sums_neighbours,
	   test_row_format, test_windows_hold_only_their_own, test_options_cli_and_json,
	   test_bad_values_name_the_option)
