/* job.c - the engine loop: offsets -> submit -> reap -> stats and windows. */
#include "job/job.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>

#include "lib/lib.h"
#include "device/device.h"
#include "stats/stats.h"
#include "engine/engine.h"
#include "job/offsets.h"
#include "job/progress.h"
#include "job/rate.h"
#include "job/window.h"

struct job_loop {
	const struct job_options *o;
	const struct target *t;
	struct job_stats *s;
	struct iolog *logs;
	struct engine engine;
	struct io_unit *units;
	struct io_unit **done;
	struct io_unit **batch; /* queued this turn, awaiting their issue time */
	struct io_unit *free_list;
	void *buffers;
	unsigned depth;
	unsigned inflight;
	struct offset_gen offsets;
	struct rng mix;
	struct window_tracker windows;
	struct window_tracker hist_windows; /* log_hist_msec's, for the histogram log */
	struct progress progress;
	struct rate_schedule rate; /* a rated job's issue times */
	bool rated;
	uint64_t seed;
	uint64_t start_ns;    /* job start, ramp included */
	uint64_t measure_ns;  /* end of ramp: stats count from here */
	uint64_t deadline_ns; /* stop issuing here; 0 = none */
	bool measuring;
	bool stopping;
	bool deadline_reached;
	struct rusage usage_start;
	struct disk_sample disk_start;
	char *err;
	size_t errlen;
};

/* Starts the job's engine, or the registry's stand-in for it, on the
 * loop's buffers. */
static int loop_engine_start(struct job_loop *L, int fd)
{
	struct job_stats *s = L->s;
	if (engine_start(&L->engine, L->o->ioengine, fd, L->depth, s->engine_note,
			 sizeof(s->engine_note), L->err, L->errlen))
		return -1;
	snprintf(s->engine_ran, sizeof(s->engine_ran), "%s", L->engine.ops->name);
	engine_register_buffers(&L->engine, L->buffers, L->o->bs, L->depth);
	return 0;
}

static int units_alloc(struct job_loop *L)
{
	size_t align = L->t->logical_block > 4096 ? L->t->logical_block : 4096;
	uint32_t unit_bytes = options_max_bs(L->o);
	size_t bytes = (size_t)L->depth * unit_bytes;
	L->units = calloc(L->depth, sizeof(*L->units));
	L->done = calloc(L->depth, sizeof(*L->done));
	L->batch = calloc(L->depth, sizeof(*L->batch));
	if (!L->units || !L->done || !L->batch || posix_memalign(&L->buffers, align, bytes)) {
		snprintf(L->err, L->errlen, "out of memory for %u buffers of %" PRIu32 " bytes",
			 L->depth, unit_bytes);
		return -1;
	}
	/* Random contents, as fio writes, so nothing downstream can compress
	 * or deduplicate the data away. */
	uint64_t *words = L->buffers;
	for (size_t i = 0; i < bytes / sizeof(*words); i++)
		words[i] = rng_next(&L->mix);
	for (unsigned i = 0; i < L->depth; i++) {
		struct io_unit *u = &L->units[i];
		u->index = i;
		u->buf = (char *)L->buffers + (size_t)i * unit_bytes;
		u->next = L->free_list;
		L->free_list = u;
	}
	return 0;
}

static enum ddir choose_ddir(struct job_loop *L)
{
	enum rw_pattern rw = L->o->rw;
	if (rw == RW_RANDRW || rw == RW_READWRITE)
		return rng_below(&L->mix, 100) < L->o->rwmixread ? DDIR_READ : DDIR_WRITE;
	return options_rw_writes(rw) ? DDIR_WRITE : DDIR_READ;
}

/* fio's bssplit: each I/O's size drawn by the shares; bs without it. */
static uint32_t choose_bs(struct job_loop *L)
{
	const struct job_options *o = L->o;
	if (!o->bssplit_count)
		return o->bs;
	unsigned draw = rng_below(&L->mix, 100), below = 0;
	for (unsigned i = 0; i + 1 < o->bssplit_count; i++) {
		below += o->bssplit[i].percent;
		if (draw < below)
			return o->bssplit[i].bs;
	}
	return o->bssplit[o->bssplit_count - 1].bs;
}

/* fio's cmdprio options: cmdprio_bssplit's shares of I/Os of this size,
 * or cmdprio_percentage of all, drawn at random, carry their priority; the
 * rest the default (0). */
static uint16_t choose_ioprio(struct job_loop *L, uint32_t bs)
{
	const struct job_options *o = L->o;
	if (!options_cmdprio(o))
		return 0;
	unsigned draw = rng_below(&L->mix, 100), below = 0;
	if (!o->cmdprio_bssplit_count)
		return draw < o->cmdprio_percentage ? options_cmdprio_ioprio(o) : 0;
	for (unsigned i = 0; i < o->cmdprio_bssplit_count; i++) {
		const struct bs_share *share = &o->cmdprio_bssplit[i];
		below += share->bs == bs ? share->percent : 0;
		if (share->bs == bs && draw < below)
			return options_share_ioprio(o, share);
	}
	return 0;
}

/* An offset for an I/O of length bytes that ends inside the region (with
 * bssplit the offsets come in steps of the smallest size). */
static uint64_t fit_in_region(const struct job_loop *L, uint64_t offset, uint32_t length)
{
	uint64_t base = L->t->region_offset, end = base + L->t->region_size;
	uint32_t step = options_min_bs(L->o);
	if (offset + length <= end)
		return offset;
	return base + (end - length - base) / step * step;
}

/* Takes a free unit for the next offset in direction ddir, its latency
 * counted from start_ns, and queues it; NULL when the region's one pass is
 * done or the engine takes no more. */
static struct io_unit *queue_io(struct job_loop *L, enum ddir ddir, uint64_t start_ns, uint64_t now)
{
	bool wrapped;
	uint64_t offset = offsets_next(&L->offsets, &wrapped);
	if (wrapped && !L->o->time_based) {
		L->stopping = true; /* one pass over the region is the job */
		return NULL;
	}
	struct io_unit *u = L->free_list;
	L->free_list = u->next;
	u->length = choose_bs(L);
	u->offset = fit_in_region(L, offset, u->length);
	u->ddir = ddir;
	if (u->ddir == DDIR_WRITE) /* so a later run knows the data as its own */
		data_mark_stamp(u->buf, u->length, u->offset);
	u->ioprio = choose_ioprio(L, u->length);
	u->start_ns = start_ns;
	u->issue_ns = now;
	if (L->engine.ops->queue(&L->engine, u) < 0) {
		u->next = L->free_list;
		L->free_list = u;
		return NULL;
	}
	return u;
}

/* As fio: the whole batch counts at the depth it brings the queue to. */
static void count_depth(struct job_loop *L, unsigned queued)
{
	if (L->measuring && queued)
		L->s->depth_level[stats_depth_level_index(L->inflight + queued)] += queued;
}

/* Fills the queue back up to depth; returns how many were queued. */
static unsigned fill_queue(struct job_loop *L, uint64_t now)
{
	unsigned queued = 0;
	while (!L->stopping && L->free_list) {
		struct io_unit *u = queue_io(L, choose_ddir(L), now, now);
		if (!u)
			break;
		L->batch[queued++] = u;
	}
	count_depth(L, queued);
	return queued;
}

/* A rated job's fill: every I/O the schedule has due by now, while a unit
 * is free, each counted from its due time (so a wait for a free unit is
 * in its latency); returns how many were queued. */
static unsigned fill_due(struct job_loop *L, uint64_t now)
{
	unsigned queued = 0;
	while (!L->stopping && L->free_list) {
		uint64_t due;
		enum ddir d = rate_next(&L->rate, &due);
		if (due > now)
			break;
		struct io_unit *u = queue_io(L, d, due, now);
		if (!u)
			break;
		rate_take(&L->rate, d);
		L->batch[queued++] = u;
	}
	count_depth(L, queued);
	return queued;
}

static void record_error(struct job_loop *L, const struct io_unit *u)
{
	if (L->s->error)
		return;
	L->s->error = (int)-u->result;
	snprintf(L->err, L->errlen, "%s error on %s at offset %" PRIu64 " (%" PRIu32 " bytes): %s",
		 u->ddir == DDIR_READ ? "read" : "write", L->o->filename, u->offset, u->length,
		 strerror((int)-u->result));
	L->stopping = true;
}

/* One completion's slat, clat and lat into the direction's statistics and
 * histograms (not clat's: it waits for the histogram log's windows).  As
 * fio, a synchronous engine has no submission latency at all. */
static void account_latencies(struct job_loop *L, struct direction_stats *d,
			      const struct io_unit *u, uint64_t slat, uint64_t clat, uint64_t lat)
{
	if (!L->engine.ops->synchronous) {
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

static void account(struct job_loop *L, struct io_unit *u, uint64_t now)
{
	if (u->result < 0)
		return record_error(L, u);
	if (!L->measuring)
		return;
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

static void on_window(void *ctx, uint64_t end_ns, uint64_t span_ns, const struct window_totals *t)
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
static void on_hist_window(void *ctx, uint64_t end_ns, uint64_t span_ns,
			   const struct window_totals *t)
{
	struct job_loop *L = ctx;
	(void)span_ns;
	(void)t;
	iolog_hist_window(L->logs, end_ns, L->s->dir);
}

static void start_measuring(struct job_loop *L, uint64_t now)
{
	L->measuring = true;
	L->measure_ns = now;
	if (L->o->runtime_ns)
		L->deadline_ns = now + L->o->runtime_ns;
	getrusage(RUSAGE_SELF, &L->usage_start);
	disk_sample_take(L->t->disk, &L->disk_start);
}

static void update_progress(struct job_loop *L, uint64_t now)
{
	const struct job_options *o = L->o;
	uint64_t ios = L->s->dir[0].ios + L->s->dir[1].ios;
	uint64_t bytes = L->s->dir[0].bytes + L->s->dir[1].bytes;
	double done = (double)bytes / (double)L->t->region_size;
	uint64_t elapsed = now - L->start_ns, total = o->ramp_ns + o->runtime_ns;
	if (o->time_based || (o->runtime_ns && (double)elapsed / (double)total > done))
		done = (double)elapsed / (double)total;
	if (done > 1)
		done = 1;
	uint64_t eta = done > 0 ? (uint64_t)((double)elapsed * (1 - done) / done) : 0;
	progress_update(&L->progress, now, ios, bytes, done, eta);
}

/* Checks the clock-driven transitions once per loop turn. */
static void check_time(struct job_loop *L, uint64_t now, const volatile sig_atomic_t *stop)
{
	if (!L->measuring && now >= L->start_ns + L->o->ramp_ns)
		start_measuring(L, now);
	if (L->measuring && L->deadline_ns && now >= L->deadline_ns && !L->deadline_reached) {
		L->deadline_reached = true;
		L->stopping = true;
	}
	if (stop && *stop)
		L->stopping = true;
	update_progress(L, now);
}

/* Hands the queued batch to the kernel; the batch's clat starts now. */
static int submit_batch(struct job_loop *L, unsigned queued)
{
	int ret = L->engine.ops->commit(&L->engine);
	if (ret < 0) {
		snprintf(L->err, L->errlen, "submitting I/O to %s failed: %s", L->o->filename,
			 strerror(-ret));
		return -1;
	}
	if (!L->engine.ops->synchronous) {
		uint64_t issued = clock_now_ns();
		for (unsigned i = 0; i < queued; i++)
			L->batch[i]->issue_ns = issued;
	}
	L->inflight += queued;
	return 0;
}

/* Accounts the got completions in done[] at now and frees their units. */
static void retire(struct job_loop *L, int got, uint64_t now)
{
	for (int i = 0; i < got; i++) {
		struct io_unit *u = L->done[i];
		account(L, u, now);
		u->next = L->free_list;
		L->free_list = u;
	}
	L->inflight -= (unsigned)got;
}

static int reap_failed(struct job_loop *L, int got)
{
	snprintf(L->err, L->errlen, "waiting for I/O on %s failed: %s", L->o->filename,
		 strerror(-got));
	return -1;
}

/* The unthrottled loop: keep the queue full, no clock read but one per
 * submission and one per reap. */
static int run_loop(struct job_loop *L, const volatile sig_atomic_t *stop)
{
	uint64_t now = clock_now_ns();
	for (;;) {
		check_time(L, now, stop);
		unsigned queued = fill_queue(L, now);
		if (queued && submit_batch(L, queued))
			return -1;
		if (L->inflight == 0)
			return 0;
		int got = L->engine.ops->reap(&L->engine, 1, L->done, L->depth);
		if (got < 0)
			return reap_failed(L, got);
		now = clock_now_ns();
		retire(L, got, now);
	}
}

/* Longest a rated job sleeps without looking at the stop flag and the
 * progress line, whatever its rate. */
#define RATE_MAX_WAIT_NS 100000000ull

/* When a rated job must look again: the next I/O's due time, or sooner the
 * end of the ramp, the deadline, or RATE_MAX_WAIT_NS from now. */
static uint64_t rate_wake_ns(const struct job_loop *L, uint64_t now)
{
	uint64_t wake = now + RATE_MAX_WAIT_NS, due;
	rate_next(&L->rate, &due);
	if (due < wake)
		wake = due;
	if (!L->measuring && L->start_ns + L->o->ramp_ns < wake)
		wake = L->start_ns + L->o->ramp_ns;
	if (L->measuring && L->deadline_ns && L->deadline_ns < wake)
		wake = L->deadline_ns;
	return wake;
}

/* A rated job's wait: for a completion when the queue is full (the next
 * I/O waits for a unit) or draining; otherwise for a completion or the
 * wake time, whichever comes first, asleep when nothing is in flight.
 * Returns the completions in done[], or -errno. */
static int rate_wait(struct job_loop *L, uint64_t now)
{
	struct engine *e = &L->engine;
	if (L->inflight && (!L->free_list || L->stopping || e->ops->synchronous))
		return e->ops->reap(e, 1, L->done, L->depth);
	uint64_t wake = rate_wake_ns(L, now);
	if (wake <= now)
		return 0;
	if (L->inflight)
		return e->ops->reap_timed(e, L->done, L->depth, wake - now);
	struct timespec ts = { .tv_sec = (time_t)(wake / 1000000000u),
			       .tv_nsec = (long)(wake % 1000000000u) };
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL); /* EINTR: look again */
	return 0;
}

/* The rated loop: issue each I/O at its due time, at most depth in flight.
 * The timer slack drops to 1 ns meanwhile, so sleeps end on time rather
 * than up to 50 us late (the default), and restored after. */
static int run_rate_loop(struct job_loop *L, const volatile sig_atomic_t *stop)
{
	int slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0), ret = 0;
	prctl(PR_SET_TIMERSLACK, 1, 0, 0, 0);
	uint64_t now = clock_now_ns();
	rate_init(&L->rate, L->o, L->seed, now);
	for (;;) {
		check_time(L, now, stop);
		unsigned queued = fill_due(L, now);
		if (queued && submit_batch(L, queued)) {
			ret = -1;
			break;
		}
		if (L->stopping && L->inflight == 0)
			break;
		int got = rate_wait(L, now);
		if (got < 0) {
			ret = reap_failed(L, got);
			break;
		}
		now = clock_now_ns();
		retire(L, got, now);
	}
	if (slack > 0)
		prctl(PR_SET_TIMERSLACK, (unsigned long)slack, 0, 0, 0);
	return ret;
}

static void finish_windows(struct job_loop *L, uint64_t end)
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

static void finish_stats(struct job_loop *L, uint64_t end)
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

static void loop_free(struct job_loop *L)
{
	if (L->engine.ops)
		L->engine.ops->teardown(&L->engine);
	free(L->units);
	free(L->done);
	free(L->batch);
	free(L->buffers);
}

/* Each priority the cmdprio options give gets its slot of every
 * direction's prio[], after the default's (slot 0), in the order given. */
static void preset_prios(const struct job_options *o, struct job_stats *s)
{
	uint16_t prios[STATS_PRIOS - 1];
	unsigned n = options_ioprios(o, prios, STATS_PRIOS - 1);
	for (int d = 0; d < DDIR_COUNT; d++)
		for (unsigned i = 0; i < n && i + 1 < STATS_PRIOS; i++)
			s->dir[d].prio[1 + i].ioprio = prios[i];
}

int job_run(const struct job_options *o, const struct target *t, struct iolog *logs,
	    struct job_stats *s, const struct job_context *ctx, char *err, size_t errlen)
{
	struct job_loop L = { .o = o, .t = t, .s = s, .logs = logs, .err = err, .errlen = errlen };
	struct timespec wall;
	uint64_t seed = o->randrepeat ? o->randseed : clock_now_ns();

	/* Sync engines complete inside submit: more depth would only queue. */
	L.depth = o->ioengine->synchronous ? 1 : o->iodepth;
	L.seed = seed;
	L.rated = options_rated(o);
	rng_init(&L.mix, seed ^ 0x5bd1e995u);
	offsets_init(&L.offsets, t->region_offset, t->region_size, options_min_bs(o),
		     options_rw_is_random(o->rw), o->norandommap, seed);
	window_init(&L.windows, (o->log_avg_msec ? o->log_avg_msec : 500) * 1000000ull, on_window,
		    &L);
	window_init(&L.hist_windows, (o->log_hist_msec ? o->log_hist_msec : 1000) * 1000000ull,
		    on_hist_window, &L);
	preset_prios(o, s);
	clock_gettime(CLOCK_REALTIME, &wall);
	s->start_unix_ms = (int64_t)wall.tv_sec * 1000 + wall.tv_nsec / 1000000;
	int ret = -1;
	if (units_alloc(&L) == 0 && loop_engine_start(&L, t->fd) == 0) {
		char label[192];
		snprintf(label, sizeof(label), "%.40s on %.100s (%s)", o->name, o->filename,
			 s->engine_ran);
		L.start_ns = clock_now_ns();
		progress_init(&L.progress, stderr, ctx->label ? ctx->label : label, L.start_ns);
		L.progress.remaining_after_ns = ctx->remaining_after_ns;
		ret = L.rated ? run_rate_loop(&L, ctx->stop) : run_loop(&L, ctx->stop);
		uint64_t end = clock_now_ns();
		finish_windows(&L, end);
		finish_stats(&L, end);
		progress_finish(&L.progress);
	}
	loop_free(&L);
	return ret;
}
