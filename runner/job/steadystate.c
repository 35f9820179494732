/* steadystate.c - fio's steady-state criteria over a window of samples, and
 * the ring of samples a job (or group) keeps for them. */
#include "job/steadystate.h"
#include "job/internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lib.h"
#include "stats/stats.h"

/* The least-squares slope per sample of y[0..n-1] at x = 0..n-1: the
 * window statistics' own (stats/steady.c), on the samples as doubles. */
static double least_squares_slope(const uint64_t *y, unsigned n)
{
	double *v = malloc(n * sizeof(*v));
	if (!v)
		return NAN;
	for (unsigned i = 0; i < n; i++)
		v[i] = (double)y[i];
	double slope = steady_slope(v, n);
	free(v);
	return slope;
}

/* SNIA's window test (stats/steady.c) over the whole window. */
static void judge_snia(const uint64_t *y, unsigned n, struct ss_verdict *v)
{
	double *x = malloc(n * sizeof(*x));
	struct steady_result r;
	if (!x)
		return;
	for (unsigned i = 0; i < n; i++)
		x[i] = (double)y[i];
	steady_window(x, n, n, &r);
	v->slope = steady_slope(x, n);
	free(x);
	v->range_pct = r.range_pct;
	v->slope_pct = r.slope_pct;
	v->criterion = fmax(r.range_pct, r.slope_pct);
	v->steady = r.steady;
}

void steadystate_judge(const struct ss_options *o, const uint64_t *y, unsigned n,
		       struct ss_verdict *v)
{
	uint64_t sum = 0;
	memset(v, 0, sizeof(*v));
	if (n == 0)
		return;
	if (o->snia) {
		judge_snia(y, n, v);
		return;
	}
	for (unsigned i = 0; i < n; i++)
		sum += y[i];
	if (o->slope) {
		/* fio divides by the integer mean (its sum_y / dur). */
		uint64_t mean = sum / n;
		v->slope = least_squares_slope(y, n);
		if (o->pct && mean == 0)
			return;
		v->criterion = o->pct ? 100.0 * v->slope / (double)mean : v->slope;
		v->steady = fabs(v->criterion) < o->limit;
		return;
	}
	double mean = (double)sum / n;
	for (unsigned i = 0; i < n; i++) {
		double d = fabs((double)y[i] - mean);
		if (d > v->deviation)
			v->deviation = d;
	}
	if (o->pct && mean == 0)
		return;
	v->criterion = o->pct ? 100.0 * v->deviation / mean : v->deviation;
	v->steady = v->criterion < o->limit;
}

int steadystate_init(struct steadystate *ss, const struct ss_options *o, char *err, size_t errlen)
{
	memset(ss, 0, sizeof(*ss));
	ss->opt = *o;
	if (!o->dur_ns)
		return 0;
	ss->n = (unsigned)(o->dur_ns / o->interval_ns);
	ss->iops = calloc(ss->n, sizeof(*ss->iops));
	ss->bw = calloc(ss->n, sizeof(*ss->bw));
	ss->scratch = calloc(ss->n, sizeof(*ss->scratch));
	bool p99 = o->snia && o->p99;
	if (p99) {
		ss->p99 = calloc(ss->n, sizeof(*ss->p99));
		ss->hist_prev = calloc(1, sizeof(*ss->hist_prev));
		ss->hist_now = calloc(1, sizeof(*ss->hist_now));
	}
	if (!ss->iops || !ss->bw || !ss->scratch ||
	    (p99 && (!ss->p99 || !ss->hist_prev || !ss->hist_now))) {
		steadystate_free(ss);
		return error_set(err, errlen, "out of memory for %u steady-state samples",
				 (unsigned)(o->dur_ns / o->interval_ns));
	}
	return 0;
}

void steadystate_free(struct steadystate *ss)
{
	free(ss->iops);
	free(ss->bw);
	free(ss->scratch);
	free(ss->p99);
	free(ss->hist_prev);
	free(ss->hist_now);
	memset(ss, 0, sizeof(*ss));
}

uint64_t steadystate_sample(const struct steadystate *ss, bool iops, unsigned i)
{
	const uint64_t *ring = iops ? ss->iops : ss->bw;
	if (ss->taken < ss->n)
		return ring[i]; /* filled from 0, zeros after */
	return ring[(ss->taken + i) % ss->n];
}

uint64_t steadystate_judged(const struct steadystate *ss, unsigned i)
{
	if (!ss->p99)
		return steadystate_sample(ss, ss->opt.iops, i);
	return ss->taken < ss->n ? ss->p99[i] : ss->p99[(ss->taken + i) % ss->n];
}

uint64_t steadystate_round_p99(struct steadystate *ss)
{
	struct histogram *now = ss->hist_now, *prev = ss->hist_prev;
	uint64_t total = now->total - prev->total;
	/* now becomes the round's own counts, prev the cumulative ones. */
	for (unsigned i = 0; i < HISTOGRAM_BUCKETS; i++) {
		uint64_t c = now->count[i];
		now->count[i] = c - prev->count[i];
		prev->count[i] = c;
	}
	prev->total = now->total;
	now->total = total;
	now->min = 0; /* no clamp: the bucket's midpoint, as fio's percentiles */
	now->max = UINT64_MAX;
	return histogram_percentile(now, 99.0);
}

uint64_t steadystate_mean(const struct steadystate *ss, bool iops)
{
	uint64_t sum = 0;
	if (!ss->n)
		return 0;
	for (unsigned i = 0; i < ss->n; i++)
		sum += steadystate_sample(ss, iops, i);
	return sum / ss->n;
}

bool steadystate_add_round(struct steadystate *ss, const struct ss_round *r)
{
	if (!ss->n || ss->attained)
		return ss->attained;
	ss->iops[ss->taken % ss->n] = r->iops;
	ss->bw[ss->taken % ss->n] = r->bw;
	if (ss->p99)
		ss->p99[ss->taken % ss->n] = r->p99_ns;
	ss->taken++;
	if (ss->taken < ss->n)
		return false;
	for (unsigned i = 0; i < ss->n; i++)
		ss->scratch[i] = steadystate_judged(ss, i);
	steadystate_judge(&ss->opt, ss->scratch, ss->n, &ss->last);
	ss->attained = ss->last.steady && r->measured_ns >= ss->opt.floor_ns;
	return ss->attained;
}

bool steadystate_add(struct steadystate *ss, uint64_t iops, uint64_t bw)
{
	struct ss_round r = { .iops = iops, .bw = bw, .measured_ns = UINT64_MAX };
	return steadystate_add_round(ss, &r);
}
