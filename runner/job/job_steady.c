/* job_steady.c - fio's steadystate_check for one job or its group: at each
 * ss_interval of measured time the I/Os and bytes since the last look
 * become a sample (IOPS, bytes/s over the time that passed), recorded once
 * ss_ramp and one interval are over, as fio; a steady window ends the job
 * (and, through the group's flag, every member of its group).  snia_p99
 * adds the interval's own p99 completion latency to each sample, and
 * ss_floor holds the end back until that much measured time has passed. */
#include "job/job_steady.h"
#include "job/internal.h"

#include <math.h>

/* The job's data I/Os and bytes so far (read, write and trim: fio's
 * io_blocks and io_bytes). */
static void own_counts(const struct job_loop *L, uint64_t *ios, uint64_t *bytes)
{
	*ios = 0;
	*bytes = 0;
	for (int d = 0; d < DDIR_COUNT; d++) {
		*ios += L->s->dir[d].ios;
		*bytes += L->s->dir[d].bytes;
	}
}

/* The group's counts: every member's as last shared. */
static void group_counts(const struct ss_group *g, uint64_t *ios, uint64_t *bytes)
{
	*ios = 0;
	*bytes = 0;
	for (unsigned i = 0; i < g->members; i++) {
		*ios += atomic_load_explicit(&g->m[i].ios, memory_order_relaxed);
		*bytes += atomic_load_explicit(&g->m[i].bytes, memory_order_relaxed);
	}
}

/* A count's growth over span ns, per second, to the nearest (a look a
 * few microseconds late must not turn 20 I/Os a second into 19; fio's
 * whole milliseconds hide that). */
static uint64_t per_second(uint64_t grown, uint64_t span_ns)
{
	return span_ns ? (uint64_t)llround((double)grown * 1e9 / (double)span_ns) : 0;
}

/* The p99 of the completions since the last look (snia_p99). */
static uint64_t interval_p99(struct job_loop *L)
{
	histogram_init(L->ss->hist_now);
	for (int d = 0; d < DDIR_COUNT; d++)
		histogram_merge(L->ss->hist_now, &L->s->dir[d].clat_hist);
	return steadystate_round_p99(L->ss);
}

static void take_sample(struct job_loop *L, uint64_t rel, uint64_t ios, uint64_t bytes)
{
	const struct ss_options *o = &L->ss->opt;
	uint64_t span = rel - L->ss_prev_ns;
	uint64_t iops = per_second(ios - L->ss_prev_ios, span);
	uint64_t bw = per_second(bytes - L->ss_prev_bytes, span);
	/* fio records from the first look one interval past ss_ramp, its
	 * sample the interval before that look. */
	bool recording = L->ss_next_ns >= o->ramp_ns + o->interval_ns;
	L->ss_prev_ns = rel;
	L->ss_prev_ios = ios;
	L->ss_prev_bytes = bytes;
	/* The next look on the interval grid; a stall skips the ones missed. */
	while (L->ss_next_ns <= rel)
		L->ss_next_ns += o->interval_ns;
	struct ss_round round = { .iops = iops, .bw = bw, .measured_ns = rel };
	if (L->ss->p99) /* snia_p99: this interval's own completions */
		round.p99_ns = interval_p99(L);
	if (recording && steadystate_add_round(L->ss, &round)) {
		L->stopping = true;
		if (L->ss_group)
			atomic_store_explicit(&L->ss_group->attained, true, memory_order_relaxed);
	}
}

void job_steady_turn(struct job_loop *L, uint64_t now)
{
	uint64_t ios, bytes, rel = now - L->measure_ns;
	struct ss_group *g = L->ss_group;
	if (g) {
		own_counts(L, &ios, &bytes);
		atomic_store_explicit(&g->m[L->ss_member].ios, ios, memory_order_relaxed);
		atomic_store_explicit(&g->m[L->ss_member].bytes, bytes, memory_order_relaxed);
		if (atomic_load_explicit(&g->attained, memory_order_relaxed)) {
			L->stopping = true;
			return;
		}
	}
	if (!L->ss || L->ss->attained || rel < L->ss_next_ns)
		return;
	if (g)
		group_counts(g, &ios, &bytes);
	else
		own_counts(L, &ios, &bytes);
	take_sample(L, rel, ios, bytes);
}

uint64_t job_steady_due(const struct job_loop *L)
{
	if (!L->ss || !L->measuring || L->ss->attained)
		return UINT64_MAX;
	return L->measure_ns + L->ss_next_ns;
}
