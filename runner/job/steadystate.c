/* steadystate.c - fio's steady-state criteria over a window of samples, and
 * the ring of samples a job (or group) keeps for them. */
#include "job/steadystate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lib.h"

/* ---- The least-squares slope ----------------------------------------
 * The slope, per sample, of the line fitted to y[0..n-1] at x = 0..n-1,
 * fio's sums: (sum_xy - sum_x sum_y / n) / (sum_x2 - sum_x^2 / n).  Kept
 * static and alone: the shared window statistics (stats/) can take its
 * place once their least-squares fit is in. */
static double least_squares_slope(const uint64_t *y, unsigned n)
{
	double sum_x = (double)n * (n - 1) / 2, sum_x2 = (double)(n - 1) * n * (2.0 * n - 1) / 6;
	double sum_y = 0, sum_xy = 0;
	for (unsigned i = 0; i < n; i++) {
		sum_y += (double)y[i];
		sum_xy += (double)i * (double)y[i];
	}
	double den = sum_x2 - sum_x * sum_x / n;
	return den > 0 ? (sum_xy - sum_x * sum_y / n) / den : 0.0;
}
/* ---------------------------------------------------------------------- */

void steadystate_judge(const struct ss_options *o, const uint64_t *y, unsigned n,
		       struct ss_verdict *v)
{
	uint64_t sum = 0;
	memset(v, 0, sizeof(*v));
	if (n == 0)
		return;
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
	if (!ss->iops || !ss->bw || !ss->scratch) {
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
	memset(ss, 0, sizeof(*ss));
}

uint64_t steadystate_sample(const struct steadystate *ss, bool iops, unsigned i)
{
	const uint64_t *ring = iops ? ss->iops : ss->bw;
	if (ss->taken < ss->n)
		return ring[i]; /* filled from 0, zeros after */
	return ring[(ss->taken + i) % ss->n];
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

bool steadystate_add(struct steadystate *ss, uint64_t iops, uint64_t bw)
{
	if (!ss->n || ss->attained)
		return ss->attained;
	ss->iops[ss->taken % ss->n] = iops;
	ss->bw[ss->taken % ss->n] = bw;
	ss->taken++;
	if (ss->taken < ss->n)
		return false;
	for (unsigned i = 0; i < ss->n; i++)
		ss->scratch[i] = steadystate_sample(ss, ss->opt.iops, i);
	steadystate_judge(&ss->opt, ss->scratch, ss->n, &ss->last);
	ss->attained = ss->last.steady;
	return ss->attained;
}
