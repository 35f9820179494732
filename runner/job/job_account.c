/* job_account.c - what each completion adds: the direction's counts,
 * latencies and histograms, the windows and the logs; and, at the end, the
 * job's runtime, CPU and disk figures. */
#include "job/job_account.h"
#include "job/internal.h"
#include "job/window.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* The first failed I/O's error, named by what it was; the job stops. */
static void record_error(struct job_loop *L, const struct io_unit *u)
{
	static const char *const what[] = { "read", "write", "trim", "fsync", "fdatasync" };
	if (L->s->error)
		return;
	L->s->error = (int)-u->result;
	snprintf(L->err, L->errlen, "%s error on %s at offset %" PRIu64 " (%" PRIu32 " bytes): %s",
		 what[u->ddir], L->o->filename, u->offset, u->length, strerror((int)-u->result));
	L->stopping = true;
}

/* A sync's time from its issue to its completion into fio's "sync" block
 * (no data, no windows, no latency logs, as fio). */
static void account_sync(struct job_loop *L, const struct io_unit *u, uint64_t end)
{
	struct sync_stats *sync = &L->s->sync;
	sync->ios++;
	stats_running_add(&sync->lat, end - u->issue_ns);
	histogram_add(&sync->hist, end - u->issue_ns);
}

/* One completion's slat, clat and lat into the direction's statistics and
 * histograms (not clat's: it waits for the histogram log's windows).  As
 * fio, a synchronous engine has no submission latency at all, nor has an
 * I/O the engine completed itself (a trim). */
static void account_latencies(struct job_loop *L, struct direction_stats *d,
			      const struct io_unit *u, uint64_t slat, uint64_t clat, uint64_t lat)
{
	if (!L->engine.ops->synchronous && !u->done_ns) {
		stats_running_add(&d->slat, slat);
		histogram_add(&d->slat_hist, slat);
	}
	stats_running_add(&d->clat, clat);
	stats_running_add(&d->lat, lat);
	histogram_add(&d->lat_hist, lat);
	if (options_cmdprio(L->o)) {
		unsigned slot = 0;
		while (slot + 1 < STATS_PRIOS && d->prio[slot].ioprio != u->ioprio)
			slot++;
		uint64_t v = L->o->lat_percentiles ? lat : clat;
		stats_running_add(&d->prio[slot].lat, v);
		histogram_add(&d->prio[slot].hist, v);
	}
}

/* A read of a checked job (job_context.check_reads): its data scanned as
 * the write guard scans a device; the job stops at a sector that is
 * neither zeros nor ebsbench's. */
static void check_read(struct job_loop *L, const struct io_unit *u)
{
	blkdev_scan_area(u->buf, (size_t)u->result, u->offset, L->check_reads);
	if (L->check_reads->unrecognised)
		L->stopping = true;
}

void job_account(struct job_loop *L, struct io_unit *u, uint64_t reaped)
{
	/* An I/O the engine completed itself ended then, not at the reap. */
	uint64_t now = u->done_ns ? u->done_ns : reaped;
	if (u->ddir >= DDIR_COUNT)
		L->sync_inflight = false;
	if (u->result < 0)
		return record_error(L, u);
	if (L->check_reads && u->ddir == DDIR_READ)
		check_read(L, u);
	if (!L->measuring)
		return;
	if (u->ddir >= DDIR_COUNT)
		return account_sync(L, u, now);
	struct direction_stats *d = &L->s->dir[u->ddir];
	uint64_t slat = u->issue_ns - u->start_ns;
	uint64_t clat = now - u->issue_ns;
	uint64_t lat = now - u->start_ns;
	d->ios++;
	d->bytes += (uint64_t)u->result;
	if ((uint64_t)u->result != u->length)
		d->short_ios++;
	account_latencies(L, d, u, slat, clat, lat);
	uint64_t rel = now - L->measure_ns;
	/* I/Os completing past the runtime (the drain, or a reap that
	 * crossed the deadline before the loop noticed it) belong to the
	 * last window, not to a sliver of a window nobody asked for. */
	if (L->o->runtime_ns && rel >= L->o->runtime_ns)
		rel = L->o->runtime_ns - 1;
	/* Before this I/O enters clat_hist: the windows it closes are done. */
	if (L->logs->hist)
		window_advance(&L->hist_windows, rel);
	histogram_add(&d->clat_hist, clat);
	stats_count_latency(L->s, lat);
	window_advance(&L->windows, rel);
	window_add(&L->windows, u->ddir, (uint32_t)u->result, slat, clat, lat);
	if (L->logs->per_io)
		iolog_io(L->logs, rel, u->ddir, u->length, u->offset, slat, clat, lat);
}

void job_on_window(void *ctx, uint64_t end_ns, uint64_t span_ns, const struct window_totals *t)
{
	struct job_loop *L = ctx;
	double per_second = 1e9 / (double)span_ns;
	for (int d = 0; d < DDIR_COUNT; d++) {
		if (!L->logs->dirs[d])
			continue;
		stats_sample_add(&L->s->dir[d].iops_samples, (double)t->ios[d] * per_second);
		stats_sample_add(&L->s->dir[d].bw_samples, (double)t->bytes[d] / 1024 * per_second);
	}
	iolog_window(L->logs, end_ns, span_ns, t);
}

/* A histogram log window closed: its rows are the clat histograms' growth. */
void job_on_hist_window(void *ctx, uint64_t end_ns, uint64_t span_ns, const struct window_totals *t)
{
	struct job_loop *L = ctx;
	(void)span_ns;
	(void)t;
	iolog_hist_window(L->logs, end_ns, L->s->dir);
}

void job_finish_windows(struct job_loop *L, uint64_t end)
{
	if (!L->measuring)
		return;
	/* A run that reached its deadline ends exactly on it, whatever the
	 * drain took, so a 1800 s run has 1800 one-second rows. */
	uint64_t last = L->deadline_reached ? L->o->runtime_ns : end - L->measure_ns;
	window_finish(&L->windows, last);
	if (L->logs->hist)
		window_finish(&L->hist_windows, last);
}

void job_finish_stats(struct job_loop *L, uint64_t end)
{
	struct job_stats *s = L->s;
	struct rusage usage;
	struct disk_sample disk_end;
	s->elapsed_ns = end - L->start_ns;
	if (!L->measuring)
		return;
	s->runtime_ns = end - L->measure_ns;
	getrusage(RUSAGE_SELF, &usage);
	disk_sample_take(L->t->disk, &disk_end);
	disk_sample_delta(&L->disk_start, &disk_end, s->runtime_ns, &s->disk);
	s->usr_ns =
		(uint64_t)(usage.ru_utime.tv_sec - L->usage_start.ru_utime.tv_sec) * 1000000000ull +
		(uint64_t)(usage.ru_utime.tv_usec - L->usage_start.ru_utime.tv_usec) * 1000ull;
	s->sys_ns =
		(uint64_t)(usage.ru_stime.tv_sec - L->usage_start.ru_stime.tv_sec) * 1000000000ull +
		(uint64_t)(usage.ru_stime.tv_usec - L->usage_start.ru_stime.tv_usec) * 1000ull;
	if (s->runtime_ns) {
		s->usr_cpu = 100.0 * (double)s->usr_ns / (double)s->runtime_ns;
		s->sys_cpu = 100.0 * (double)s->sys_ns / (double)s->runtime_ns;
	}
	s->ctx = (uint64_t)(usage.ru_nvcsw + usage.ru_nivcsw - L->usage_start.ru_nvcsw -
			    L->usage_start.ru_nivcsw);
	s->majf = (uint64_t)(usage.ru_majflt - L->usage_start.ru_majflt);
	s->minf = (uint64_t)(usage.ru_minflt - L->usage_start.ru_minflt);
	s->max_rss_kib = (uint64_t)usage.ru_maxrss;
}
