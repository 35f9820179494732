/* fleet_stats.c - the fleet's statistics on their own (fleet.h): the
 * distribution over volumes, the robust outlier rule and a percentile of
 * a merged histogram, kept apart from results.json so the unit tests feed
 * them synthetic inputs. */
#include "decide/fleet.h"
#include "decide/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"

static const struct fleet_figure_info figures[FLEET_FIGURES] = {
	[FLEET_BURST_IOPS] = { "burst_iops", "burst IOPS (randread, before the cliff)", "IOPS" },
	[FLEET_POST_CLIFF_IOPS] = { "post_cliff_iops", "post-cliff IOPS (randread)", "IOPS" },
	[FLEET_CLIFF_S] = { "cliff_s", "cliff time (s into randread)", "s" },
	[FLEET_SUSTAINED_IOPS] = { "sustained_iops", "sustained IOPS (randread, no cliff)",
				   "IOPS" },
	[FLEET_SEQREAD_MIBS] = { "seqread_mibs", "throughput (seqread)", "MiB/s" },
	[FLEET_SEQWRITE_MIBS] = { "seqwrite_mibs", "throughput (seqwrite)", "MiB/s" },
	[FLEET_RANDREAD_P50_MS] = { "randread_p50_ms", "randread p50 clat", "ms" },
	[FLEET_RANDREAD_P99_MS] = { "randread_p99_ms", "randread p99 clat", "ms" },
	[FLEET_LAT_P50_MS] = { "lat_p50_ms", "lat (qd1) p50 clat", "ms" },
	[FLEET_LAT_P99_MS] = { "lat_p99_ms", "lat (qd1) p99 clat", "ms" },
};

const struct fleet_figure_info *fleet_figure_info(enum fleet_figure f)
{
	return f < FLEET_FIGURES ? &figures[f] : NULL;
}

const char *fleet_hist_phase_name(enum fleet_hist_phase p)
{
	static const char *const names[FLEET_HIST_PHASES] = { "randread", "lat" };
	return p < FLEET_HIST_PHASES ? names[p] : NULL;
}

bool fleet_figure_from_hist(enum fleet_figure k)
{
	return k == FLEET_RANDREAD_P50_MS || k == FLEET_RANDREAD_P99_MS || k == FLEET_LAT_P50_MS ||
	       k == FLEET_LAT_P99_MS;
}

double fleet_figure_floor(enum fleet_figure k, unsigned coarseness, double median, double window_s)
{
	/* A coarse bin holds 2^c of an octave's HISTOGRAM_PER_GROUP equal
	 * buckets: its width over its low end is at most 2^c / 64. */
	double bin = exp2(coarseness) / HISTOGRAM_PER_GROUP;
	if (fleet_figure_from_hist(k))
		return fmax(FLEET_MAD_FLOOR, bin / FLEET_OUTLIER_K);
	if (k == FLEET_CLIFF_S && median > 0 && window_s > 0)
		return fmax(FLEET_MAD_FLOOR, 2 * window_s / FLEET_OUTLIER_K / median);
	return FLEET_MAD_FLOOR;
}

/* The q-quantile (0..1) of sorted[0..n), n > 0, interpolating linearly
 * between order statistics (R's type 7, numpy's default). */
static double quantile(const double *sorted, size_t n, double q)
{
	double at = q * (double)(n - 1);
	size_t lo = (size_t)floor(at);
	size_t hi = lo + 1 < n ? lo + 1 : lo;
	return sorted[lo] + (at - (double)lo) * (sorted[hi] - sorted[lo]);
}

void fleet_dist_of(const double *v, size_t n, struct fleet_dist *d)
{
	double *s = malloc((n ? n : 1) * sizeof(*s));
	size_t m = 0;

	*d = (struct fleet_dist){ 0, NAN, NAN, NAN, NAN, NAN, NAN, FLEET_MAD_FLOOR };
	if (!s)
		return;
	for (size_t i = 0; i < n; i++) {
		if (isfinite(v[i]))
			s[m++] = v[i];
	}
	if (m) {
		stats_sort(s, m);
		*d = (struct fleet_dist){ m,
					  s[0],
					  quantile(s, m, 0.25),
					  quantile(s, m, 0.5),
					  quantile(s, m, 0.75),
					  s[m - 1],
					  0,
					  FLEET_MAD_FLOOR };
		for (size_t i = 0; i < m; i++)
			s[i] = fabs(s[i] - d->median);
		stats_sort(s, m);
		d->mad = quantile(s, m, 0.5);
	}
	free(s);
}

double fleet_mads(const struct fleet_dist *d, double x)
{
	double scale = fmax(FLEET_MAD_SCALE * d->mad, d->floor * fabs(d->median));
	if (!(scale > 0))
		return x == d->median ? 0 : copysign(INFINITY, x - d->median);
	return (x - d->median) / scale;
}

bool fleet_is_outlier(const struct fleet_dist *d, double x)
{
	return d->n >= FLEET_OUTLIER_MIN && isfinite(x) && fabs(fleet_mads(d, x)) > FLEET_OUTLIER_K;
}

bool fleet_hist_pct(const uint64_t *counts, unsigned bins, unsigned coarseness, double pct,
		    struct fleet_pct *out)
{
	struct histogram_coarse_pct p;
	bool found = histogram_coarse_percentile(counts, bins, coarseness, pct, &p);
	*out = (struct fleet_pct){ p.ns, p.low_ns, p.high_ns };
	return found;
}
