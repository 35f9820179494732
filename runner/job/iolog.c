/* iolog.c - fio-format log files, at the paths the caller gives. */
#include "job/iolog.h"
#include "job/internal.h"
#include "lib/lib.h"
#include "job/window.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* fio's name for the log of one kind under a write_*_log prefix. */
static void fio_path(char *out, const char *prefix, const char *kind)
{
	if (prefix[0])
		snprintf(out, IOLOG_PATH_MAX, "%s_%s.1.log", prefix, kind);
	else
		out[0] = '\0';
}

void iolog_paths_fio(struct iolog_paths *p, const struct job_options *o)
{
	fio_path(p->path[IOLOG_IOPS], o->iops_log, "iops");
	fio_path(p->path[IOLOG_BW], o->bw_log, "bw");
	fio_path(p->path[IOLOG_LAT], o->lat_log, "lat");
	fio_path(p->path[IOLOG_CLAT], o->lat_log, "clat");
	fio_path(p->path[IOLOG_SLAT], o->lat_log, "slat");
	fio_path(p->path[IOLOG_HIST], o->hist_log, "clat_hist");
	p->lat_per_io = false; /* fio windows every log at log_avg_msec */
	p->keep = NULL;
}

int iolog_open(struct iolog *l, const struct job_options *o, const struct iolog_paths *paths,
	       char *err, size_t errlen)
{
	memset(l, 0, sizeof(*l));
	l->windowed = o->log_avg_msec > 0 && !paths->lat_per_io;
	for (int d = 0; d < DDIR_COUNT; d++)
		l->dirs[d] = options_rw_does(o->rw, (enum ddir)d);
	if ((l->keep = paths->keep)) { /* the caller's from here, whatever fails */
		memset(l->keep, 0, sizeof(*l->keep));
		l->keep->iops = json_array();
	}
	for (int k = 0; k < IOLOG_KINDS; k++) {
		const char *path = paths->path[k];
		if (path[0] && !(l->file[k] = fopen(path, "w")))
			return error_set(err, errlen, "cannot create log %s: %s", path,
					 strerror(errno));
	}
	l->per_io =
		!l->windowed && (l->file[IOLOG_LAT] || l->file[IOLOG_CLAT] || l->file[IOLOG_SLAT]);
	if (l->file[IOLOG_HIST]) {
		if (!(l->hist = malloc(sizeof(*l->hist))))
			return error_set(err, errlen, "out of memory for the histogram log");
		histlog_init(l->hist, o->log_hist_coarseness, o->bs, l->dirs);
	}
	if (l->keep && l->hist)
		l->keep->hist = json_array();
	return 0;
}

/* A kept series' window w: a new one at its end, or the last one replaced
 * when w joins it; from the first new one past IOLOG_KEEP_WINDOWS on, the
 * series keeps nothing more (*full). */
static void keep_window(json_t *series, bool *full, bool joins, json_t *w)
{
	size_t n = json_array_size(series);
	if (!*full && joins && n)
		json_array_set_new(series, n - 1, w);
	else if (!*full && n < IOLOG_KEEP_WINDOWS)
		json_array_append_new(series, w);
	else {
		json_decref(w);
		*full = true;
	}
}

/* A window's end in whole ms, rounded, as every windowed row states it. */
static uint64_t window_ms(uint64_t end_ns)
{
	return (end_ns + 500000) / 1000000;
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

void iolog_window(struct iolog *l, uint64_t end_ns, uint64_t span_ns, const struct window_totals *t)
{
	uint64_t ms = window_ms(end_ns), total = 0;
	FILE *const *f = l->file;
	for (int d = 0; d < DDIR_COUNT; d++) {
		if (!l->dirs[d])
			continue;
		double per_second = 1e9 / (double)span_ns;
		uint64_t iops = (uint64_t)((double)t->ios[d] * per_second + 0.5);
		total += iops;
		put_row(f[IOLOG_IOPS], ms, iops, d, 0, 0);
		put_row(f[IOLOG_BW], ms, (uint64_t)((double)t->bytes[d] / 1024 * per_second + 0.5),
			d, 0, 0);
		if (l->windowed) {
			put_row(f[IOLOG_LAT], ms, mean_or_zero(t->lat_sum[d], t->ios[d]), d, 0, 0);
			put_row(f[IOLOG_CLAT], ms, mean_or_zero(t->clat_sum[d], t->ios[d]), d, 0,
				0);
			put_row(f[IOLOG_SLAT], ms, mean_or_zero(t->slat_sum[d], t->ios[d]), d, 0,
				0);
		}
	}
	/* Each window on disk as it closes (one small write a window): a run
	 * killed mid-step leaves its IOPS log up to its last window, and the
	 * log's time of last change dates the kill (run --resume). */
	if (f[IOLOG_IOPS])
		fflush(f[IOLOG_IOPS]);
	struct iolog_series *k = l->keep;
	if (k) {
		size_t n = json_array_size(k->iops);
		bool joins = n && ms == k->iops_ms;
		if (joins)
			total += (uint64_t)json_integer_value(json_array_get(k->iops, n - 1));
		keep_window(k->iops, &k->iops_full, joins, json_integer((json_int_t)total));
		k->iops_ms = ms;
	}
}

void iolog_hist_window(struct iolog *l, uint64_t end_ns,
		       const struct direction_stats dir[DDIR_COUNT])
{
	if (!l->hist)
		return;
	bool joins = histlog_window(l->hist, l->file[IOLOG_HIST], window_ms(end_ns), dir);
	if (l->keep)
		keep_window(l->keep->hist, &l->keep->hist_full, joins,
			    histlog_sparse(l->hist->sum, l->hist->bins));
}

void iolog_io(struct iolog *l, uint64_t time_ns, enum ddir d, uint32_t bs, uint64_t offset,
	      uint64_t slat, uint64_t clat, uint64_t lat)
{
	uint64_t ms = time_ns / 1000000;
	put_row(l->file[IOLOG_LAT], ms, lat, d, bs, offset);
	put_row(l->file[IOLOG_CLAT], ms, clat, d, bs, offset);
	put_row(l->file[IOLOG_SLAT], ms, slat, d, bs, offset);
}

int iolog_close(struct iolog *l, char *err, size_t errlen)
{
	int bad = 0;
	for (int k = 0; k < IOLOG_KINDS; k++) {
		if (l->file[k]) {
			bad |= ferror(l->file[k]) | fclose(l->file[k]);
			l->file[k] = NULL;
		}
	}
	free(l->hist);
	l->hist = NULL;
	if (bad)
		snprintf(err, errlen, "writing a log file failed: %s", strerror(errno));
	return bad ? -1 : 0;
}
