/* histlog.h - fio's histogram log (--write_hist_log): for each window of
 * log_hist_msec and each direction the job does, how many completions of
 * that window fell in each of fio's latency bins.
 *
 * A row is "time_ms, ddir, bs, bin 0, bin 1, ...", exactly what fio 3.33
 * writes and tools/hist/fiologparser_hist.py reads.  fio has
 * FIO_IO_U_PLAT_NR = 29 x 64 = 1856 bins; our histogram has fio's layout
 * for those 29 groups and 11 more, which all land in fio's last bin (fio
 * saturates there too).  log_hist_coarseness c sums 2^c neighbouring bins,
 * so a row has 1856 >> c of them.  Like fio, each row is the difference of
 * the cumulative histogram between two window closes; unlike fio, windows
 * end at exact multiples of log_hist_msec and an idle one is a row of
 * zeros, not a gap. */
#ifndef EBSBENCH_HISTLOG_H
#define EBSBENCH_HISTLOG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "stats/stats.h"

#define HISTLOG_FIO_GROUPS 29 /* fio 3.33's FIO_IO_U_PLAT_GROUP_NR */
#define HISTLOG_FIO_BINS (HISTLOG_FIO_GROUPS * HISTOGRAM_PER_GROUP)
#define HISTLOG_MAX_COARSENESS 6 /* fio's limit: 1856 >> 6 = 29 bins */

struct histlog {
	unsigned coarseness;
	uint32_t bs;			     /* the job's block size, fio's "block size" column */
	bool dirs[DDIR_COUNT];		     /* the directions the job does: a row each */
	struct histogram before[DDIR_COUNT]; /* the cumulative histograms at the last close */
	uint64_t fine[HISTLOG_FIO_BINS];     /* scratch: one window's counts in fio's bins */
	uint64_t coarse[HISTLOG_FIO_BINS];   /* scratch: the same, coarsened */
};

/* Starts a log for a job of block size bs doing the directions dirs. */
void histlog_init(struct histlog *h, unsigned coarseness, uint32_t bs, const bool dirs[DDIR_COUNT]);

/* The fio bin that holds every value of our bucket index. */
unsigned histlog_fio_bin(unsigned index);

/* What happened between the snapshots before and now, in fio's bins. */
void histlog_fio_counts(const struct histogram *now, const struct histogram *before,
			uint64_t fine[HISTLOG_FIO_BINS]);

/* Sums each 2^coarseness neighbouring bins of fine into coarse, as fio's
 * hist_sum does; returns how many coarse bins there are. */
unsigned histlog_coarsen(const uint64_t fine[HISTLOG_FIO_BINS], unsigned coarseness,
			 uint64_t *coarse);

/* Writes one row in fio's format: "ms, ddir, bs, b0, b1, ..., bn-1". */
void histlog_put_row(FILE *f, uint64_t ms, int ddir, uint32_t bs, const uint64_t *bins, unsigned n);

/* Writes the rows of a window that closed at ms (one per direction the job
 * does) from the job's cumulative clat histograms, then remembers them. */
void histlog_window(struct histlog *h, FILE *f, uint64_t ms,
		    const struct direction_stats dir[DDIR_COUNT]);

#endif
