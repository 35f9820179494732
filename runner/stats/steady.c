/* steady.c - SNIA's steady-state window test and the least-squares slope
 * and range it rests on (steady.h says the criteria). */
#include <math.h>
#include <string.h>

#include "stats/steady.h"
#include "stats/internal.h"

double steady_mean(const double *y, size_t n)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += y[i];
	return n ? sum / (double)n : 0;
}

double steady_slope(const double *y, size_t n)
{
	/* x = 0..n-1 centred on its mean, so the sums stay small and exact. */
	double xbar = ((double)n - 1) / 2, ybar = steady_mean(y, n), sxy = 0, sxx = 0;
	size_t i;

	if (n < 2)
		return 0;
	for (i = 0; i < n; i++) {
		double dx = (double)i - xbar;

		sxy += dx * (y[i] - ybar);
		sxx += dx * dx;
	}
	return sxy / sxx;
}

double steady_range(const double *y, size_t n)
{
	double lo, hi;
	size_t i;

	if (!n)
		return 0;
	lo = hi = y[0];
	for (i = 1; i < n; i++) {
		lo = y[i] < lo ? y[i] : lo;
		hi = y[i] > hi ? y[i] : hi;
	}
	return hi - lo;
}

/* The window y[0..n) measured and judged into *out (first left to the caller). */
static void judge(const double *y, size_t n, struct steady_result *out)
{
	double mean = steady_mean(y, n);
	double range = steady_range(y, n);
	double rise = fabs(steady_slope(y, n)) * (n ? (double)n - 1 : 0);
	bool range_ok, slope_ok;

	out->rounds = n;
	out->mean = mean;
	if (!(mean > 0)) {
		out->range_pct = out->slope_pct = 0;
		out->steady = false;
		out->failed = STEADY_FAIL_EMPTY;
		return;
	}
	out->range_pct = range / mean * 100;
	out->slope_pct = rise / mean * 100;
	/* Compared as products, so a window exactly at the limit passes. */
	range_ok = range * 100 <= STEADY_RANGE_PCT * mean;
	slope_ok = rise * 100 <= STEADY_SLOPE_PCT * mean;
	out->steady = range_ok && slope_ok;
	out->failed = out->steady ? STEADY_OK
		      : range_ok  ? STEADY_FAIL_SLOPE
		      : slope_ok  ? STEADY_FAIL_RANGE
				  : STEADY_FAIL_BOTH;
}

void steady_window(const double *y, size_t n, size_t window, struct steady_result *out)
{
	size_t first;

	memset(out, 0, sizeof(*out));
	if (window < 2)
		window = 2;
	if (n < window) {
		judge(y, n, out);
		out->steady = false;
		out->failed = STEADY_FAIL_SHORT;
		return;
	}
	for (first = 0; first + window <= n; first++) {
		out->first = first;
		judge(y + first, window, out);
		if (out->steady)
			return;
	}
}

static const char *const fail_names[] = {
	[STEADY_OK] = "",
	[STEADY_FAIL_RANGE] = "range",
	[STEADY_FAIL_SLOPE] = "slope",
	[STEADY_FAIL_BOTH] = "range and slope",
	[STEADY_FAIL_SHORT] = "too few rounds",
	[STEADY_FAIL_EMPTY] = "no data",
};

const char *steady_fail_name(enum steady_fail failed)
{
	return (size_t)failed < sizeof(fail_names) / sizeof(fail_names[0]) ? fail_names[failed]
									   : "";
}

bool steady_fail_parse(const char *name, enum steady_fail *out)
{
	size_t i;

	for (i = 0; i < sizeof(fail_names) / sizeof(fail_names[0]); i++)
		if (strcmp(name, fail_names[i]) == 0) {
			*out = (enum steady_fail)i;
			return true;
		}
	return false;
}
