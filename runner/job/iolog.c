/* iolog.c - fio-format log files. */
#include "job/iolog.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

static FILE *open_log(const char *prefix, const char *kind, char *err, size_t errlen)
{
	char path[OPTIONS_PATH_MAX + 32];
	snprintf(path, sizeof(path), "%s_%s.1.log", prefix, kind);
	FILE *f = fopen(path, "w");
	if (!f)
		snprintf(err, errlen, "cannot create log %s: %s", path, strerror(errno));
	return f;
}

int io_logs_open(struct io_logs *l, const struct job_options *o, char *err, size_t errlen)
{
	memset(l, 0, sizeof(*l));
	l->windowed = o->log_avg_msec > 0;
	l->dirs[DDIR_READ] = options_rw_reads(o->rw);
	l->dirs[DDIR_WRITE] = options_rw_writes(o->rw);
	if (o->iops_log[0] && !(l->iops = open_log(o->iops_log, "iops", err, errlen)))
		return -1;
	if (o->bw_log[0] && !(l->bw = open_log(o->bw_log, "bw", err, errlen)))
		return -1;
	if (o->lat_log[0] && (!(l->lat = open_log(o->lat_log, "lat", err, errlen)) ||
			      !(l->clat = open_log(o->lat_log, "clat", err, errlen)) ||
			      !(l->slat = open_log(o->lat_log, "slat", err, errlen))))
		return -1;
	return 0;
}

static void put_row(FILE *f, uint64_t ms, uint64_t value, int ddir, uint32_t bs, uint64_t offset)
{
	if (f)
		fprintf(f, "%" PRIu64 ", %" PRIu64 ", %d, %" PRIu32 ", %" PRIu64 "\n", ms, value,
			ddir, bs, offset);
}

static uint64_t mean_or_zero(uint64_t sum, uint64_t n)
{
	return n ? (sum + n / 2) / n : 0;
}

void io_logs_window(struct io_logs *l, uint64_t end_ns, uint64_t span_ns,
		    const struct window_totals *t)
{
	uint64_t ms = (end_ns + 500000) / 1000000;
	for (int d = 0; d < DDIR_COUNT; d++) {
		if (!l->dirs[d])
			continue;
		double per_second = 1e9 / (double)span_ns;
		put_row(l->iops, ms, (uint64_t)((double)t->ios[d] * per_second + 0.5), d, 0, 0);
		put_row(l->bw, ms, (uint64_t)((double)t->bytes[d] / 1024 * per_second + 0.5), d, 0,
			0);
		if (l->windowed) {
			put_row(l->lat, ms, mean_or_zero(t->lat_sum[d], t->ios[d]), d, 0, 0);
			put_row(l->clat, ms, mean_or_zero(t->clat_sum[d], t->ios[d]), d, 0, 0);
			put_row(l->slat, ms, mean_or_zero(t->slat_sum[d], t->ios[d]), d, 0, 0);
		}
	}
}

void io_logs_io(struct io_logs *l, uint64_t time_ns, enum ddir d, uint32_t bs, uint64_t offset,
		uint64_t slat, uint64_t clat, uint64_t lat)
{
	uint64_t ms = time_ns / 1000000;
	put_row(l->lat, ms, lat, d, bs, offset);
	put_row(l->clat, ms, clat, d, bs, offset);
	put_row(l->slat, ms, slat, d, bs, offset);
}

static int close_one(FILE **f)
{
	int bad = 0;
	if (*f) {
		bad = ferror(*f) | fclose(*f);
		*f = NULL;
	}
	return bad;
}

int io_logs_close(struct io_logs *l, char *err, size_t errlen)
{
	int bad = close_one(&l->iops) | close_one(&l->bw) | close_one(&l->lat) |
		  close_one(&l->clat) | close_one(&l->slat);
	if (bad)
		snprintf(err, errlen, "writing a log file failed: %s", strerror(errno));
	return bad ? -1 : 0;
}
