/* histogram.c - fio's log-linear latency buckets, extended to 40 groups.
 *
 * Layout (BITS = 6): a value below 2 * 64 is its own index.  Above, with msb
 * the highest set bit, the low msb - 6 bits are dropped ("error bits") and
 * the next 6 pick one of 64 buckets in group msb - 5.  Group g >= 2 thus
 * spans [64 << (g - 1), 64 << g) in buckets 1 << (g - 1) wide. */
#include <math.h>
#include <string.h>

#include "stats/histogram.h"
#include "stats/internal.h"

#define LAST_INDEX (HISTOGRAM_BUCKETS - 1)

/* Callers pass indices from histogram_index(); clamping keeps a stray
 * one from turning into an out-of-range shift. */
static unsigned clamp_index(unsigned index)
{
	return index < HISTOGRAM_BUCKETS ? index : LAST_INDEX;
}

void histogram_init(struct histogram *h)
{
	memset(h, 0, sizeof(*h));
}

unsigned histogram_index(uint64_t value)
{
	unsigned msb, error_bits, index;

	if (value < 2 * HISTOGRAM_PER_GROUP)
		return (unsigned)value;

	msb = 63 - (unsigned)__builtin_clzll(value);
	error_bits = msb - HISTOGRAM_BITS;
	/* Compare before building the index: past 2^45 it would not fit the array. */
	if (error_bits + 1 >= HISTOGRAM_GROUPS)
		return LAST_INDEX;
	index = ((error_bits + 1) << HISTOGRAM_BITS) +
		(unsigned)((value >> error_bits) & (HISTOGRAM_PER_GROUP - 1));
	return index;
}

uint64_t histogram_bucket_low(unsigned index)
{
	unsigned error_bits, k;

	index = clamp_index(index);
	if (index < 2 * HISTOGRAM_PER_GROUP)
		return index;
	error_bits = (index >> HISTOGRAM_BITS) - 1;
	k = index & (HISTOGRAM_PER_GROUP - 1);
	return (uint64_t)(HISTOGRAM_PER_GROUP + k) << error_bits;
}

uint64_t histogram_bucket_high(unsigned index)
{
	index = clamp_index(index);
	/* The last bucket also takes everything too large for the table. */
	if (index == LAST_INDEX)
		return UINT64_MAX;
	return histogram_bucket_low(index + 1) - 1;
}

uint64_t histogram_bucket_value(unsigned index)
{
	unsigned error_bits;

	index = clamp_index(index);
	if (index < 2 * HISTOGRAM_PER_GROUP)
		return index;
	/* fio computes base + (k + 0.5) * width in double and truncates; the width
	 * is even here, so low + width / 2 is the same number without the float.
	 * fio's (1 << error_bits) is an int, fine for its 29 groups, not for 40. */
	error_bits = (index >> HISTOGRAM_BITS) - 1;
	return histogram_bucket_low(index) + ((uint64_t)1 << error_bits) / 2;
}

void histogram_add(struct histogram *h, uint64_t value)
{
	if (h->total == 0 || value < h->min)
		h->min = value;
	if (value > h->max)
		h->max = value;
	h->total++;
	h->count[histogram_index(value)]++;
}

void histogram_merge(struct histogram *into, const struct histogram *from)
{
	unsigned i;

	/* An empty side has min 0, which must not win. */
	if (from->total == 0)
		return;
	if (into->total == 0 || from->min < into->min)
		into->min = from->min;
	if (from->max > into->max)
		into->max = from->max;
	into->total += from->total;
	for (i = 0; i < HISTOGRAM_BUCKETS; i++)
		into->count[i] += from->count[i];
}

uint64_t histogram_percentile(const struct histogram *h, double pct)
{
	/* long double as in fio's calc_clat_percentiles, so a rank such as
	 * 99.9 % of 100000 rounds the way fio's does. */
	long double target = (long double)pct / 100.0 * (long double)h->total;
	uint64_t seen = 0, value = h->max;
	unsigned i;

	if (h->total == 0)
		return 0;

	/* Over 100 % (or NaN) never matches; fio logs an error, we say max. */
	for (i = 0; i < HISTOGRAM_BUCKETS; i++) {
		seen += h->count[i];
		if ((long double)seen >= target) {
			value = histogram_bucket_value(i);
			break;
		}
	}

	/* The midpoint of the max's bucket may lie above the max itself. */
	if (value > h->max)
		value = h->max;
	if (value < h->min)
		value = h->min;
	return value;
}

/* Coarse bin j's bounds in ns: [low, high). */
static void coarse_bounds(unsigned j, unsigned coarseness, double *low, double *high)
{
	uint64_t top = histogram_bucket_high(((j + 1) << coarseness) - 1);
	*low = (double)histogram_bucket_low(j << coarseness);
	*high = top == UINT64_MAX ? 2 * *low : (double)top + 1;
}

bool histogram_coarse_percentile(const uint64_t *counts, unsigned bins, unsigned coarseness,
				 double pct, struct histogram_coarse_pct *out)
{
	uint64_t sum = 0, below = 0;
	unsigned last = 0;

	*out = (struct histogram_coarse_pct){ NAN, NAN, NAN, 0 };
	for (unsigned j = 0; j < bins; j++) {
		sum += counts[j];
		last = counts[j] ? j : last;
	}
	if (!sum)
		return false;
	double need = pct / 100 * (double)sum, into;
	unsigned j = 0;
	/* The first counted bin whose running count reaches the rank; the last
	 * counted one when rounding leaves the rank past it. */
	while (j < last && (!counts[j] || (double)(below + counts[j]) < need))
		below += counts[j++];
	into = fmax(0, fmin(1, (need - (double)below) / (double)counts[j]));
	out->bin = j;
	coarse_bounds(j, coarseness, &out->low_ns, &out->high_ns);
	out->ns = out->low_ns + into * (out->high_ns - out->low_ns);
	return true;
}
