/* jobs.c - run a job list group by group: each group's targets and logs
 * opened first (so a refused device fails before any I/O), then its jobs
 * at once, a thread each, each owning its target, logs, offsets and stats;
 * and fio's group_reporting sums. */
#include "job/jobs.h"
#include "job/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/lib.h"
#include "job/job.h"

/* A job thread's stack: job_run keeps its loop state there. */
#define JOB_STACK_BYTES (8u << 20)

/* Everything one job of a group runs with, owned by its thread. */
struct job_slot {
	const struct job_entry *e;
	struct job_outcome *out;
	const volatile sig_atomic_t *stop;
	struct ss_group *ss_group; /* its group's shared steady state, or NULL */
	unsigned ss_member;
	struct target t;
	struct iolog logs;
	bool target_open;
	bool logs_open;
	bool threaded;
	bool beside; /* other slots run at the same time */
	pthread_t thread;
};

/* fio numbers a job's logs by its thread number: P_iops.3.log. */
static void number_logs(struct iolog_paths *p, unsigned number)
{
	for (int k = 0; k < IOLOG_KINDS; k++) {
		size_t len = strlen(p->path[k]);
		if (len > 6 && !strcmp(p->path[k] + len - 6, ".1.log"))
			snprintf(p->path[k] + len - 6, IOLOG_PATH_MAX - (len - 6), ".%u.log",
				 number);
	}
}

/* A numjobs clone shares its job's open target through a dup of its
 * descriptor: same region, and the O_EXCL claim a writer holds on a block
 * device covers the clones (a second open would be refused, EBUSY). */
static int clone_target(struct job_slot *j, const struct job_slot *first)
{
	j->t = first->t;
	j->t.fd = fcntl(first->t.fd, F_DUPFD_CLOEXEC, 0);
	if (j->t.fd < 0) {
		snprintf(j->out->err, sizeof(j->out->err), "cannot share %.200s with a clone: %s",
			 j->e->o.filename, strerror(errno));
		return -1;
	}
	return 0;
}

/* Opens the slot's target (first, its job's when it is a clone) and logs;
 * on failure the outcome says why. */
static int slot_open(struct job_slot *j, const struct job_slot *first)
{
	struct iolog_paths paths;
	const struct job_options *o = &j->e->o;
	if (first ? clone_target(j, first)
		  : target_open(&j->t, o, j->out->err, sizeof(j->out->err)))
		return -1;
	j->target_open = true;
	iolog_paths_fio(&paths, o);
	number_logs(&paths, j->e->number);
	if (iolog_open(&j->logs, o, &paths, j->out->err, sizeof(j->out->err)))
		return -1;
	j->logs_open = true;
	return 0;
}

/* The job itself; an I/O error is in its stats and err. */
static void *slot_run(void *arg)
{
	struct job_slot *j = arg;
	struct job_context ctx = { .stop = j->stop,
				   .ss = &j->out->ss,
				   .ss_group = j->ss_group,
				   .ss_member = j->ss_member,
				   .beside = j->beside };
	if (job_run(&j->e->o, &j->t, &j->logs, j->out->stats, &ctx, j->out->err,
		    sizeof(j->out->err)) ||
	    j->out->stats->error)
		j->out->failed = 1;
	return NULL;
}

/* Closes what slot_open opened; a lost log write fails the job. */
static void slot_close(struct job_slot *j)
{
	char log_err[256];
	if (j->logs_open && iolog_close(&j->logs, log_err, sizeof(log_err)) && !j->out->failed) {
		snprintf(j->out->err, sizeof(j->out->err), "%s", log_err);
		j->out->failed = 1;
	}
	if (j->target_open)
		target_close(&j->t);
}

/* Starts the slot's thread, or runs it here when it is alone. */
static void slot_start(struct job_slot *j, bool alone)
{
	pthread_attr_t attr;
	if (alone) {
		slot_run(j);
		return;
	}
	j->beside = true;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, JOB_STACK_BYTES);
	j->threaded = pthread_create(&j->thread, &attr, slot_run, j) == 0;
	pthread_attr_destroy(&attr);
	if (!j->threaded) {
		snprintf(j->out->err, sizeof(j->out->err), "cannot start a thread for job '%s'",
			 j->e->o.name);
		j->out->failed = 1;
	}
}

/* A clone shares its job's target unless it has a file of its own (fio's
 * default names differ by clone) or there is none (the null engine). */
static bool shares_target(const struct job_entry *clone, const struct job_entry *first)
{
	return !clone->o.ioengine->diskless && !strcmp(clone->o.filename, first->o.filename);
}

/* Opens the n slots of one group; false when any could not open. */
static bool group_open(struct job_slot *slots, unsigned n)
{
	bool all_open = true;
	for (unsigned i = 0; i < n; i++) {
		/* Clones follow their job, in its group, and share its
		 * target when they name the same file. */
		unsigned clone = slots[i].e->clone;
		const struct job_slot *first = clone && clone <= i ? &slots[i - clone] : NULL;
		if (first && !shares_target(slots[i].e, first->e))
			first = NULL;
		if (first && !first->target_open) {
			all_open = false;
			continue;
		}
		if (slot_open(&slots[i], first)) {
			slots[i].out->failed = 1;
			all_open = false;
		}
	}
	return all_open;
}

/* A group reporting as one with fio's steady state shares one detection
 * (fio's steadystate_check over a group): its members' counts, sampled by
 * the last.  Without memory for it each job judges itself. */
static void ss_group_init(struct ss_group *g, struct job_slot *slots, unsigned n)
{
	const struct job_options *o = &slots[0].e->o;
	memset(g, 0, sizeof(*g));
	if (n < 2 || !o->group_reporting || !o->ss.dur_ns || !(g->m = calloc(n, sizeof(*g->m))))
		return;
	g->members = n;
	for (unsigned i = 0; i < n; i++) {
		slots[i].ss_group = g;
		slots[i].ss_member = i;
	}
}

/* Runs the n opened slots of one group together, then closes them all. */
static void group_run(struct job_slot *slots, unsigned n, bool all_open)
{
	struct ss_group ss;
	ss_group_init(&ss, slots, n);
	for (unsigned i = 0; all_open && i < n; i++)
		slot_start(&slots[i], n == 1);
	for (unsigned i = 0; i < n; i++) {
		if (slots[i].threaded)
			pthread_join(slots[i].thread, NULL);
		slot_close(&slots[i]);
		slots[i].ss_group = NULL;
	}
	free(ss.m);
}

static int alloc_outcomes(struct jobs_result *r, unsigned count, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	r->outcomes = calloc(count, sizeof(*r->outcomes));
	if (!r->outcomes)
		return error_set(err, errlen, "out of memory");
	r->count = count;
	for (unsigned i = 0; i < count; i++) {
		r->outcomes[i].stats = malloc(sizeof(*r->outcomes[i].stats));
		if (!r->outcomes[i].stats)
			return error_set(err, errlen, "out of memory for the stats of %u jobs",
					 count);
		stats_job_init(r->outcomes[i].stats);
	}
	return 0;
}

static int64_t wall_ms(void)
{
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* The first job's disk, sampled from its group's start to the run's end. */
struct run_disk {
	bool sampled;
	dev_t dev;
	uint64_t started_ns;
	struct disk_sample before;
};

static void run_disk_start(struct run_disk *d, const struct target *t)
{
	d->sampled = true;
	d->dev = t->disk;
	d->started_ns = clock_now_ns();
	disk_sample_take(d->dev, &d->before);
}

static void run_disk_finish(const struct run_disk *d, struct disk_util *out)
{
	struct disk_sample after;
	if (!d->sampled)
		return;
	disk_sample_take(d->dev, &after);
	disk_sample_delta(&d->before, &after, clock_now_ns() - d->started_ns, out);
}

/* The idleness since before, for --idle-prof. */
static void run_idle_finish(const struct cpu_idle_sample *before, struct cpu_idleness *out)
{
	struct cpu_idle_sample after;
	cpu_idle_take(&after);
	cpu_idle_delta(before, &after, out);
}

int jobs_run(struct jobs_result *r, const struct job_list *l, const volatile sig_atomic_t *stop,
	     char *err, size_t errlen)
{
	struct job_slot *slots = calloc(l->count ? l->count : 1, sizeof(*slots));
	struct run_disk disk = { .sampled = false };
	if (!slots || alloc_outcomes(r, l->count, err, errlen)) {
		if (!slots)
			snprintf(err, errlen, "out of memory");
		free(slots);
		return -1;
	}
	r->start_unix_ms = wall_ms();
	bool idle_prof = l->run->idle_prof != IDLE_PROF_NONE;
	struct cpu_idle_sample idle_before;
	if (idle_prof)
		cpu_idle_take(&idle_before);
	for (unsigned i = 0; i < l->count; i++)
		slots[i] =
			(struct job_slot){ .e = &l->jobs[i], .out = &r->outcomes[i], .stop = stop };
	for (unsigned from = 0, to; from < l->count && !(stop && *stop); from = to) {
		for (to = from; to < l->count && l->jobs[to].groupid == l->jobs[from].groupid; to++)
			;
		bool all_open = group_open(&slots[from], to - from);
		if (from == 0 && slots[0].target_open)
			run_disk_start(&disk, &slots[0].t);
		group_run(&slots[from], to - from, all_open);
	}
	run_disk_finish(&disk, &r->disk);
	if (idle_prof)
		run_idle_finish(&idle_before, &r->idle);
	free(slots);
	return 0;
}

/* Whether an earlier job of l writes the same region of the same device
 * as job i (numjobs clones do): it is read once. */
static bool read_before(const struct job_list *l, unsigned i)
{
	const struct job_options *o = &l->jobs[i].o;
	for (unsigned k = 0; k < i; k++) {
		const struct job_options *e = &l->jobs[k].o;
		if (!e->allow_destroy && !e->ioengine->diskless && options_rw_changes_data(e->rw) &&
		    !strcmp(e->filename, o->filename) && e->offset == o->offset &&
		    e->size == o->size && options_min_bs(e) == options_min_bs(o))
			return true;
	}
	return false;
}

int jobs_read_first(const struct job_list *l, const volatile sig_atomic_t *stop, char *why,
		    size_t len)
{
	for (unsigned i = 0; i < l->count && !(stop && *stop); i++) {
		const struct job_options *o = &l->jobs[i].o;
		char label[192], err[512];
		struct read_first r;
		if (read_before(l, i))
			continue;
		snprintf(label, sizeof(label), "[read first] %.40s on %.100s", o->name,
			 o->filename);
		struct job_context ctx = { .stop = stop, .label = label };
		if (read_first_job(&r, o, &ctx, err, sizeof(err))) {
			snprintf(why, len, "refusing to write: cannot check %s for data: %s",
				 o->filename, err);
			return -1;
		}
		if (r.length && !read_first_clean(&r)) {
			char what[256];
			read_first_describe(&r, what, sizeof(what));
			snprintf(why, len,
				 "refusing to write: %s: %s; allow_destroy=1 overwrites it",
				 o->filename, what);
			return -1;
		}
	}
	return 0;
}

void jobs_result_free(struct jobs_result *r)
{
	for (unsigned i = 0; r->outcomes && i < r->count; i++) {
		free(r->outcomes[i].stats);
		steadystate_free(&r->outcomes[i].ss);
	}
	free(r->outcomes);
	memset(r, 0, sizeof(*r));
}

static void add_counts(uint64_t *into, const uint64_t *from, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		into[i] += from[i];
}

/* One job's counters, CPU and times added to the group's. */
static void merge_job(struct job_stats *into, const struct job_stats *from)
{
	for (int d = 0; d < DDIR_COUNT; d++)
		stats_direction_merge(&into->dir[d], &from->dir[d]);
	stats_sync_merge(&into->sync, &from->sync);
	into->runtime_ns =
		from->runtime_ns > into->runtime_ns ? from->runtime_ns : into->runtime_ns;
	into->elapsed_ns =
		from->elapsed_ns > into->elapsed_ns ? from->elapsed_ns : into->elapsed_ns;
	into->usr_ns += from->usr_ns;
	into->sys_ns += from->sys_ns;
	into->ctx += from->ctx;
	into->majf += from->majf;
	into->minf += from->minf;
	if (from->max_rss_kib > into->max_rss_kib)
		into->max_rss_kib = from->max_rss_kib;
	add_counts(into->depth_level, from->depth_level, DEPTH_LEVELS);
	add_counts(into->submit_batch, from->submit_batch, BATCH_LEVELS);
	add_counts(into->complete_batch, from->complete_batch, BATCH_LEVELS);
	add_counts(into->latency_ns, from->latency_ns, LATENCY_NS_LEVELS);
	add_counts(into->latency_us, from->latency_us, LATENCY_US_LEVELS);
	add_counts(into->latency_ms, from->latency_ms, LATENCY_MS_LEVELS);
	if (!into->error)
		into->error = from->error;
}

void jobs_merge_group(struct job_stats *into, const struct job_stats *const *from, unsigned n)
{
	uint64_t runtimes = 0;
	stats_job_init(into);
	if (n == 0)
		return;
	/* The first job names the engine and the start, as fio's first td. */
	snprintf(into->engine_ran, sizeof(into->engine_ran), "%s", from[0]->engine_ran);
	snprintf(into->engine_note, sizeof(into->engine_note), "%s", from[0]->engine_note);
	into->start_unix_ms = from[0]->start_unix_ms;
	into->disk = from[0]->disk;
	for (unsigned i = 0; i < n; i++) {
		merge_job(into, from[i]);
		runtimes += from[i]->runtime_ns;
	}
	/* fio: usr_time and sys_time over total_run_time, both summed. */
	if (runtimes) {
		into->usr_cpu = 100.0 * (double)into->usr_ns / (double)runtimes;
		into->sys_cpu = 100.0 * (double)into->sys_ns / (double)runtimes;
	}
}
