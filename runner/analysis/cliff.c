/* cliff.c - credit cliff detection: rolling medians find where the level
 * on the right of a point is far below the level on its left; a split at
 * the midpoint level pins the edge to the second; bands around each level
 * measured from their own noise say where the drop started and ended. */
#include "analysis/cliff.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Drops evaluated in full, sharpest first; a series has one or two. */
#define MAX_CANDIDATES 16
/* Gaussian sigma from a median absolute deviation. */
#define MAD_TO_SIGMA 1.4826

struct candidate {
	size_t t; /* the windows [t - w, t) and [t, t + w) */
	double ratio;
};

struct work {
	const double *x; /* sanitised copy of the series */
	size_t n, start;
	size_t w;	 /* the detection window at this scale */
	size_t level_w;	 /* the window levels are measured over */
	double *median;	 /* median[j]: median of x[j, j + w) */
	double *scratch; /* n */
	double *win;	 /* the sorted window, w */
};

struct edge {
	size_t drop_start, second;
	double upper, lower; /* levels either side */
};

struct cliff_params cliff_params_default(void)
{
	return (struct cliff_params){
		.skip_leading = 1,
		.window = 30,
		.min_window = 5,
		.max_ratio = 0.6,
		.max_transition = 10,
	};
}

static void swap(double *a, double *b)
{
	double t = *a;
	*a = *b;
	*b = t;
}

/* Hoare's selection: a[k] ends up the k-th smallest, smaller ones before. */
static void select_kth(double *a, ptrdiff_t len, ptrdiff_t k)
{
	ptrdiff_t lo = 0, hi = len - 1;

	while (lo < hi) {
		double pivot = a[lo + (hi - lo) / 2];
		ptrdiff_t i = lo, j = hi;

		while (i <= j) {
			while (a[i] < pivot)
				i++;
			while (a[j] > pivot)
				j--;
			if (i <= j)
				swap(&a[i++], &a[j--]);
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return;
	}
}

/* Reorders a[0..len), len > 0. */
static double median_in_place(double *a, size_t len)
{
	size_t k = len / 2;
	double lower;

	select_kth(a, (ptrdiff_t)len, (ptrdiff_t)k);
	if (len % 2)
		return a[k];
	lower = a[0];
	for (size_t i = 1; i < k; i++)
		lower = fmax(lower, a[i]);
	return (lower + a[k]) / 2;
}

static double median_of(const double *x, size_t len, double *scratch)
{
	memcpy(scratch, x, len * sizeof(*x));
	return median_in_place(scratch, len);
}

static double sigma_of(const double *x, size_t len, double median, double *scratch)
{
	for (size_t i = 0; i < len; i++)
		scratch[i] = fabs(x[i] - median);
	return MAD_TO_SIGMA * median_in_place(scratch, len);
}

static void plateau_of(const struct work *wk, size_t start, size_t end, struct cliff_plateau *p)
{
	const double *x = wk->x;
	double sum = 0;

	*p = (struct cliff_plateau){ .start = start, .end = end };
	if (end <= start)
		return;
	p->min = p->max = x[start];
	for (size_t i = start; i < end; i++) {
		sum += x[i];
		p->min = fmin(p->min, x[i]);
		p->max = fmax(p->max, x[i]);
	}
	p->mean = sum / (double)(end - start);
	p->median = median_of(x + start, end - start, wk->scratch);
}

static size_t lower_bound(const double *a, size_t len, double v)
{
	size_t lo = 0, hi = len;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (a[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* a holds len sorted values and has room for one more. */
static void sorted_insert(double *a, size_t len, double v)
{
	size_t pos = lower_bound(a, len, v);

	memmove(a + pos + 1, a + pos, (len - pos) * sizeof(*a));
	a[pos] = v;
}

/* v must be one of a's len values. */
static void sorted_remove(double *a, size_t len, double v)
{
	size_t pos = lower_bound(a, len, v);

	memmove(a + pos, a + pos + 1, (len - pos - 1) * sizeof(*a));
}

static double window_median(const double *win, size_t w)
{
	return w % 2 ? win[w / 2] : (win[w / 2 - 1] + win[w / 2]) / 2;
}

/* One sorted window slides over the series: O(n * w), w <= 30. */
static void rolling_medians(const struct work *wk)
{
	const double *x = wk->x;
	size_t w = wk->w;

	for (size_t i = 0; i < w; i++)
		sorted_insert(wk->win, i, x[wk->start + i]);
	wk->median[wk->start] = window_median(wk->win, w);
	for (size_t j = wk->start + 1; j + w <= wk->n; j++) {
		sorted_remove(wk->win, w, x[j - 1]);
		sorted_insert(wk->win, w - 1, x[j + w - 1]);
		wk->median[j] = window_median(wk->win, w);
	}
}

static int by_ratio(const void *a, const void *b)
{
	double ra = ((const struct candidate *)a)->ratio;
	double rb = ((const struct candidate *)b)->ratio;

	return (ra > rb) - (ra < rb);
}

/* Each run of points where the right window's median is below max_ratio
 * of the left one's is one drop; its sharpest point stands for it. */
static size_t find_candidates(const struct work *wk, double max_ratio, struct candidate *out)
{
	size_t count = 0;
	bool in_run = false;

	for (size_t t = wk->start + wk->w; t + wk->w <= wk->n; t++) {
		double before = wk->median[t - wk->w];
		double ratio = before > 0 ? wk->median[t] / before : 1;

		if (ratio >= max_ratio) {
			in_run = false;
		} else if (!in_run) {
			out[count++] = (struct candidate){ t, ratio };
			in_run = true;
		} else if (ratio < out[count - 1].ratio) {
			out[count - 1] = (struct candidate){ t, ratio };
		}
	}
	qsort(out, count, sizeof(*out), by_ratio);
	return count;
}

/* The split of [a, b] with the fewest samples on the wrong side of mid:
 * the first second below the midpoint, robust to a noisy sample or two. */
static size_t best_split(const double *x, size_t a, size_t b, double mid)
{
	size_t high_after = 0, low_before = 0, best = a, best_errors;

	for (size_t i = a; i < b; i++)
		high_after += x[i] >= mid;
	best_errors = high_after;
	for (size_t split = a + 1; split <= b; split++) {
		if (x[split - 1] >= mid)
			high_after--;
		else
			low_before++;
		if (low_before + high_after < best_errors) {
			best_errors = low_before + high_after;
			best = split;
		}
	}
	return best;
}

/* How far from its level a sample may stray and still be at it: four
 * sigmas, at least 2 % of the level, at most a quarter of the drop. */
static double band(double sigma, double level, double gap)
{
	return fmin(fmax(4 * sigma, 0.02 * level), 0.25 * gap);
}

/* The levels are measured `margin` seconds away from the split so that
 * the transition does not blur them. */
static void levels_around(const struct work *wk, size_t split, size_t margin, double *upper,
			  double *upper_sigma, double *lower, double *lower_sigma)
{
	size_t hi_end = split > wk->start + margin ? split - margin : split;
	size_t hi_start = hi_end > wk->start + wk->level_w ? hi_end - wk->level_w : wk->start;
	size_t lo_start = split + margin < wk->n ? split + margin : split;
	size_t lo_end = lo_start + wk->level_w < wk->n ? lo_start + wk->level_w : wk->n;
	const double *x = wk->x;

	*upper = median_of(x + hi_start, hi_end - hi_start, wk->scratch);
	*upper_sigma = sigma_of(x + hi_start, hi_end - hi_start, *upper, wk->scratch);
	*lower = median_of(x + lo_start, lo_end - lo_start, wk->scratch);
	*lower_sigma = sigma_of(x + lo_start, lo_end - lo_start, *lower, wk->scratch);
}

/* Pins the drop near candidate t to seconds.  False if there is no clear
 * pair of levels there or the lower one is never reached. */
static bool locate_edge(const struct work *wk, size_t t, size_t max_transition, struct edge *e)
{
	const double *x = wk->x;
	size_t a = t > wk->start + wk->w ? t - wk->w : wk->start + 1;
	size_t b = t + wk->w < wk->n ? t + wk->w : wk->n - 1;
	double mid = (wk->median[t - wk->w] + wk->median[t]) / 2;
	size_t split = best_split(x, a, b, mid);
	double hi_sigma, lo_sigma, gap, hi_cut, lo_cut;
	size_t d = split, s = split;

	levels_around(wk, split, max_transition + 1, &e->upper, &hi_sigma, &e->lower, &lo_sigma);
	gap = e->upper - e->lower;
	if (!(gap > 0))
		return false;
	hi_cut = e->upper - band(hi_sigma, e->upper, gap);
	lo_cut = e->lower + band(lo_sigma, e->lower, gap);
	while (d > wk->start && x[d - 1] < hi_cut)
		d--;
	while (s < wk->n && x[s] > lo_cut)
		s++;
	if (s == wk->n)
		return false;
	e->drop_start = d;
	e->second = s;
	return true;
}

/* Seconds still spent at the upper level during the transition. */
static double edge_time(const struct work *wk, const struct edge *e)
{
	double t = (double)e->drop_start;

	for (size_t i = e->drop_start; i < e->second; i++)
		t += fmin(fmax((wk->x[i] - e->lower) / (e->upper - e->lower), 0), 1);
	return t;
}

/* Fills out for the drop near candidate t; CLIFF_NONE if it is not one. */
static enum cliff_result judge_candidate(const struct work *wk, size_t t,
					 const struct cliff_params *p, struct cliff *out)
{
	struct edge e;

	if (!locate_edge(wk, t, p->max_transition, &e))
		return CLIFF_NONE;
	if (e.drop_start - wk->start < p->min_window || wk->n - e.second < p->min_window)
		return CLIFF_NONE;
	plateau_of(wk, wk->start, e.drop_start, &out->before);
	plateau_of(wk, e.second, wk->n, &out->after);
	if (!(out->before.median > 0))
		return CLIFF_NONE;
	out->ratio = out->after.median / out->before.median;
	if (out->ratio >= p->max_ratio)
		return CLIFF_NONE;
	out->second = e.second;
	out->drop_start = e.drop_start;
	out->transition_s = e.second - e.drop_start;
	out->edge_s = edge_time(wk, &e);
	return out->transition_s > p->max_transition ? CLIFF_TOO_SLOW : CLIFF_FOUND;
}

/* The sharpest candidate that is a cliff, else the sharpest too-slow
 * one, into *found or *slow (left alone if there is none). */
static void judge_candidates(const struct work *wk, const struct candidate *cand, size_t count,
			     const struct cliff_params *p, struct cliff *found, struct cliff *slow)
{
	for (size_t i = 0; i < count && i < MAX_CANDIDATES; i++) {
		struct cliff c = { 0 };

		c.result = judge_candidate(wk, cand[i].t, p, &c);
		if (c.result == CLIFF_FOUND) {
			*found = c;
			return;
		}
		if (c.result == CLIFF_TOO_SLOW && slow->result != CLIFF_TOO_SLOW)
			*slow = c;
	}
}

/* The widest window a series of len samples allows, 0 if too short. */
static size_t window_for(size_t len, const struct cliff_params *p)
{
	size_t w = len / 4 < p->window ? len / 4 : p->window;

	return w >= p->min_window && w > 0 ? w : 0;
}

/* Wide windows first, as they see through the most noise; halving them
 * finds a cliff close to an end, e.g. a refilled gp2 bucket that lasts
 * 13 s into a 120 s phase. */
static void search(struct work *wk, size_t widest, const struct cliff_params *p,
		   struct candidate *cand, struct cliff *out)
{
	struct cliff slow = { .result = CLIFF_NONE };

	for (size_t w = widest; w >= p->min_window && w > 0; w /= 2) {
		wk->w = w;
		rolling_medians(wk);
		judge_candidates(wk, cand, find_candidates(wk, p->max_ratio, cand), p, out, &slow);
		if (out->result == CLIFF_FOUND)
			return;
	}
	if (slow.result == CLIFF_TOO_SLOW)
		*out = slow;
}

int cliff_find(const double *iops, size_t n, const struct cliff_params *params, struct cliff *out)
{
	struct cliff_params p = params ? *params : cliff_params_default();
	size_t start = p.skip_leading < n ? p.skip_leading : n;
	size_t w = window_for(n - start, &p);
	struct work wk = { .n = n, .start = start, .level_w = w };
	double *buf = malloc((3 * n + w + 1) * sizeof(*buf));
	struct candidate *cand = malloc((n + 1) * sizeof(*cand));
	double *x = buf;

	*out = (struct cliff){ .result = w ? CLIFF_NONE : CLIFF_TOO_SHORT };
	if (!buf || !cand) {
		free(buf);
		free(cand);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		x[i] = isfinite(iops[i]) && iops[i] > 0 ? iops[i] : 0;
	wk.x = x;
	wk.median = buf + n;
	wk.scratch = buf + 2 * n;
	wk.win = buf + 3 * n;
	if (w)
		search(&wk, w, &p, cand, out);
	if (out->result == CLIFF_NONE || out->result == CLIFF_TOO_SHORT)
		plateau_of(&wk, start, n, &out->before);
	free(buf);
	free(cand);
	return 0;
}

const char *cliff_result_name(enum cliff_result result)
{
	switch (result) {
	case CLIFF_FOUND:
		return "cliff";
	case CLIFF_NONE:
		return "no cliff";
	case CLIFF_TOO_SLOW:
		return "decline too slow for a cliff";
	case CLIFF_TOO_SHORT:
		return "series too short";
	}
	return "unknown";
}
