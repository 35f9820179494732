/* job.c - the engine loop: start the engine, turn (fill, submit, reap,
 * retire) until the job is done, stop.  What to issue is job_issue.c's,
 * what a completion counts is job_account.c's. */
#include "job/job.h"
#include "job/internal.h"

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
#include "job/job_account.h"
#include "job/job_issue.h"
#include "job/job_steady.h"
#include "job/window.h"

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

static void start_measuring(struct job_loop *L, uint64_t now)
{
	L->measuring = true;
	L->measure_ns = now;
	/* number_ios counts as fio's: I/Os since the ramp, those then in
	 * flight included. */
	L->counted_ios = L->inflight;
	if (L->o->runtime_ns)
		L->deadline_ns = now + L->o->runtime_ns;
	getrusage(RUSAGE_SELF, &L->usage_start);
	disk_sample_take(L->t->disk, &L->disk_start);
}

static void update_progress(struct job_loop *L, uint64_t now)
{
	const struct job_options *o = L->o;
	uint64_t ios = stats_data_ios(L->s), bytes = 0;
	for (int d = 0; d < DDIR_COUNT; d++)
		bytes += L->s->dir[d].bytes;
	double done = (double)bytes /
		      (double)(o->io_size && !o->time_based ? o->io_size : L->t->region_size);
	uint64_t elapsed = now - L->start_ns, total = o->ramp_ns + o->runtime_ns;
	if (o->time_based || (o->runtime_ns && (double)elapsed / (double)total > done))
		done = (double)elapsed / (double)total;
	if (done > 1)
		done = 1;
	progress_update(&L->progress, now, ios, bytes, done, progress_eta_ns(elapsed, done));
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
	if (L->measuring && (L->ss || L->ss_group))
		job_steady_turn(L, now);
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
			if (!L->batch[i]->done_ns) /* a trim done in queue timed itself */
				L->batch[i]->issue_ns = issued;
	}
	L->inflight += queued;
	if (L->measuring)
		L->s->submit_batch[stats_batch_index(queued)]++;
	return 0;
}

/* Accounts the got completions in done[] at now and frees their units. */
static void retire(struct job_loop *L, int got, uint64_t now)
{
	if (L->measuring && got > 0)
		L->s->complete_batch[stats_batch_index((unsigned)got)]++;
	for (int i = 0; i < got; i++) {
		struct io_unit *u = L->done[i];
		job_account(L, u, now);
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
 * submission and one per reap.  The queue refills submit_max I/Os a call;
 * between calls the loop takes, without waiting, what the engine already
 * holds (io_uring: what its submit posted; libaio: trims and syncs done in
 * queue), and it waits (for one completion) only when nothing more can be
 * queued. */
static int run_loop(struct job_loop *L, const volatile sig_atomic_t *stop)
{
	uint64_t now = clock_now_ns();
	for (;;) {
		check_time(L, now, stop);
		unsigned queued = job_fill_queue(L, now, L->submit_max);
		if (queued && submit_batch(L, queued))
			return -1;
		if (L->inflight == 0)
			return 0;
		unsigned wait_for = queued == L->submit_max && L->free_list ? 0 : 1;
		int got = L->engine.ops->reap(&L->engine, wait_for, L->done, L->depth);
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
	if (job_steady_due(L) < wake)
		wake = job_steady_due(L);
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
		unsigned queued = job_fill_due(L, now);
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

/* fio's steady state for the job: its own detection, or its group's
 * (sampled by the group's last member). */
static int steady_setup(struct job_loop *L, const struct job_options *o,
			const struct job_context *ctx)
{
	bool samples = ctx->ss && o->ss.dur_ns &&
		       (!ctx->ss_group || ctx->ss_member + 1 == ctx->ss_group->members);
	L->ss_group = o->ss.dur_ns ? ctx->ss_group : NULL;
	L->ss_member = ctx->ss_member;
	L->ss_next_ns = o->ss.interval_ns;
	if (!samples)
		return 0;
	L->ss = ctx->ss;
	return steadystate_init(L->ss, &o->ss, L->err, L->errlen);
}

int job_run(const struct job_options *o, const struct target *t, struct iolog *logs,
	    struct job_stats *s, const struct job_context *ctx, char *err, size_t errlen)
{
	struct job_loop L = { .o = o,
			      .t = t,
			      .s = s,
			      .logs = logs,
			      .check_reads = ctx->check_reads,
			      .err = err,
			      .errlen = errlen };
	struct timespec wall;
	uint64_t seed = o->randrepeat ? o->randseed : clock_now_ns();

	/* Sync engines complete inside submit: more depth would only queue. */
	L.depth = o->ioengine->synchronous ? 1 : o->iodepth;
	L.submit_max = o->iodepth_batch && o->iodepth_batch < L.depth ? o->iodepth_batch : L.depth;
	L.seed = seed;
	L.rated = options_rated(o);
	rng_init(&L.mix, seed ^ 0x5bd1e995u);
	offsets_init(&L.offsets, t->region_offset, t->region_size, options_min_bs(o),
		     options_rw_is_random(o->rw), o->norandommap, seed);
	window_init(&L.windows, (o->log_avg_msec ? o->log_avg_msec : 500) * 1000000ull,
		    job_on_window, &L);
	window_init(&L.hist_windows, (o->log_hist_msec ? o->log_hist_msec : 1000) * 1000000ull,
		    job_on_hist_window, &L);
	preset_prios(o, s);
	if (steady_setup(&L, o, ctx))
		return -1;
	clock_gettime(CLOCK_REALTIME, &wall);
	s->start_unix_ms = (int64_t)wall.tv_sec * 1000 + wall.tv_nsec / 1000000;
	int ret = -1;
	if (units_alloc(&L) == 0 && loop_engine_start(&L, t->fd) == 0) {
		char label[192];
		snprintf(label, sizeof(label), "%.40s on %.100s (%s)", o->name, o->filename,
			 s->engine_ran);
		L.start_ns = clock_now_ns();
		progress_init(&L.progress, stderr, ctx->label ? ctx->label : label, ctx->beside,
			      L.start_ns);
		L.progress.remaining_after_ns = ctx->remaining_after_ns;
		ret = L.rated ? run_rate_loop(&L, ctx->stop) : run_loop(&L, ctx->stop);
		uint64_t end = clock_now_ns();
		job_finish_windows(&L, end);
		job_finish_stats(&L, end);
		progress_finish(&L.progress);
	}
	loop_free(&L);
	return ret;
}

int job_run_once(const struct job_options *o, struct job_stats *s, const struct job_context *ctx,
		 char *err, size_t errlen)
{
	struct iolog_paths *none = calloc(1, sizeof(*none));
	struct target t;
	struct iolog logs;
	int rc = -1;

	stats_job_init(s);
	if (!none)
		snprintf(err, errlen, "out of memory");
	else if (target_open(&t, o, err, errlen) == 0) {
		rc = iolog_open(&logs, o, none, err, errlen);
		if (rc == 0) {
			rc = job_run(o, &t, &logs, s, ctx, err, errlen);
			iolog_close(&logs, NULL, 0);
		}
		if (rc == 0 && s->error)
			rc = -1; /* err names the failed I/O */
		target_close(&t);
	}
	free(none);
	return rc;
}
