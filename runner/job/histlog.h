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
 * zeros, not a gap.  Here: the log's sizes and its state; what writes it
 * is job/'s own (job/internal.h). */
#ifndef EBSBENCH_HISTLOG_H
#define EBSBENCH_HISTLOG_H

#include <stdbool.h>
#include <stdint.h>

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
	uint64_t sum[HISTLOG_FIO_BINS];	     /* the rows of the last time written, summed */
	uint64_t sum_ms;		     /* that time; UINT64_MAX before the first */
	unsigned bins;			     /* coarse bins in a row */
};

#endif
