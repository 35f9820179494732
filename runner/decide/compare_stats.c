/* compare_stats.c - the intervals of `ebsbench compare`: batch means over
 * a level's windows (compare.h says why batches), and percentiles of the
 * per-window histograms results.json keeps. */
#include "decide/compare.h"
#include "decide/internal.h"

#include <math.h>
#include <stdlib.h>

#include "results/results.h"
#include "stats/stats.h"

/* Student's t at 97.5 % for 1..30 degrees of freedom. */
static const double t975[30] = { 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
				 2.262,	 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
				 2.110,	 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
				 2.060,	 2.056, 2.052, 2.048, 2.045, 2.042 };

double compare_t975(size_t df)
{
	if (df < 1)
		return NAN;
	/* Beyond the table: 1.96 + 2.5 / df is within 0.002 of t. */
	return df <= 30 ? t975[df - 1] : 1.96 + 2.5 / (double)df;
}

/* How many batches n windows make: COMPARE_BATCHES, or for a short series
 * as many of two windows as fit; 0 below COMPARE_MIN_WINDOWS. */
static size_t batch_count(size_t n)
{
	if (n < COMPARE_MIN_WINDOWS)
		return 0;
	return n / 2 < COMPARE_BATCHES ? n / 2 : COMPARE_BATCHES;
}

/* estimate +- t x the batch figures' standard error. */
static struct compare_interval around(double estimate, const double *batch, size_t b,
				      size_t windows)
{
	struct compare_interval iv = { estimate, NAN, NAN, windows, b };
	double mean = 0, ss = 0;

	if (b < 2 || !isfinite(estimate))
		return iv;
	for (size_t i = 0; i < b; i++)
		mean += batch[i] / (double)b;
	for (size_t i = 0; i < b; i++)
		ss += (batch[i] - mean) * (batch[i] - mean);
	double half = compare_t975(b - 1) * sqrt(ss / (double)(b - 1) / (double)b);
	iv.low = estimate - half;
	iv.high = estimate + half;
	return iv;
}

struct compare_interval compare_batch_means(const double *x, size_t n)
{
	double batch[COMPARE_BATCHES], sum = 0;
	size_t b = batch_count(n);

	if (!b) {
		for (size_t i = 0; i < n; i++)
			sum += x[i];
		return (struct compare_interval){ n ? sum / (double)n : NAN, NAN, NAN, n, 0 };
	}
	size_t m = n / b, first = n - b * m;
	for (size_t j = 0; j < b; j++) {
		double s = 0;
		for (size_t i = 0; i < m; i++)
			s += x[first + j * m + i];
		batch[j] = s / (double)m;
		sum += batch[j];
	}
	return around(sum / (double)b, batch, b, n);
}

double compare_hist_percentile(const uint64_t *counts, unsigned bins, unsigned coarseness,
			       double pct)
{
	struct histogram_coarse_pct p;
	histogram_coarse_percentile(counts, bins, coarseness, pct, &p);
	return p.ns;
}

/* The bins and coarseness of a clat_hist; false when it is not one this
 * ebsbench reads (job/histlog.h). */
static bool hist_shape(const json_t *hist, unsigned *bins, unsigned *coarseness)
{
	double b = results_num(json_object_get(hist, "bins"));
	double c = results_num(json_object_get(hist, "coarseness"));

	if (!(c >= 0 && c <= 6) ||
	    b != (double)((HISTOGRAM_FIO_GROUPS * HISTOGRAM_PER_GROUP) >> (unsigned)c))
		return false;
	*bins = (unsigned)b;
	*coarseness = (unsigned)c;
	return true;
}

/* Adds windows [from, to) into counts; false on a window it cannot read. */
static bool add_windows(const json_t *windows, size_t from, size_t to, uint64_t *counts,
			unsigned bins)
{
	for (size_t w = from; w < to; w++) {
		if (results_hist_window(json_array_get(windows, w), counts, bins) < 0)
			return false;
	}
	return true;
}

struct compare_interval compare_hist_interval(const json_t *clat_hist, size_t from, size_t to,
					      double pct)
{
	struct compare_interval iv = { NAN, NAN, NAN, 0, 0 };
	const json_t *windows = json_object_get(clat_hist, "windows");
	double batch[COMPARE_BATCHES];
	unsigned bins, coarseness;

	to = to < json_array_size(windows) ? to : json_array_size(windows);
	if (from >= to || !hist_shape(clat_hist, &bins, &coarseness))
		return iv;
	uint64_t *all = calloc(bins, sizeof(*all)), *part = calloc(bins, sizeof(*part));
	size_t n = to - from, b = batch_count(n), m = b ? n / b : 0, first = from + n - b * m;
	bool loaded = all && part && add_windows(windows, from, to, all, bins), ok = loaded;
	for (size_t j = 0; ok && j < b; j++) {
		for (unsigned k = 0; k < bins; k++)
			part[k] = 0;
		ok = add_windows(windows, first + j * m, first + (j + 1) * m, part, bins);
		batch[j] = compare_hist_percentile(part, bins, coarseness, pct);
		ok = ok && isfinite(batch[j]);
	}
	if (loaded)
		iv.estimate = compare_hist_percentile(all, bins, coarseness, pct);
	if (loaded && ok)
		iv = around(iv.estimate, batch, b, n);
	iv.windows = n;
	free(all);
	free(part);
	return iv;
}

bool compare_overlap(const struct compare_interval *a, const struct compare_interval *b)
{
	if (!isfinite(a->low) || !isfinite(b->low))
		return false;
	return a->low <= b->high && b->low <= a->high;
}

/* A number, or null for NaN. */
static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *compare_interval_json(const struct compare_interval *iv)
{
	return json_pack("{s:o,s:o,s:o,s:I,s:I}", "estimate", num(iv->estimate), "low",
			 num(iv->low), "high", num(iv->high), "windows", (json_int_t)iv->windows,
			 "batches", (json_int_t)iv->batches);
}
