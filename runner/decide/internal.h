/* internal.h - what decide/'s files share among themselves and nothing
 * outside decide/ calls: the intervals and warnings compare_build is made
 * of, the replay and the search behind demand_recommend_all, the search
 * for one device behind recommend_all, and fleet_build's statistics. */
#ifndef EBSBENCH_DECIDE_INTERNAL_H
#define EBSBENCH_DECIDE_INTERNAL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decide/compare.h"
#include "decide/demand_recommend.h"
#include "decide/demand_sim.h"
#include "decide/fleet.h"
#include "decide/recommend.h"

/* compare_stats.c: batch means, histogram percentiles and their intervals */
/* Batch means of x[0..n): COMPARE_BATCHES equal batches (fewer, of at
 * least two windows, for a short series) of the last windows, the first
 * n mod batches left out. */
struct compare_interval compare_batch_means(const double *x, size_t n);
/* Student's t, two-sided 95 %, for df degrees of freedom (df >= 1). */
double compare_t975(size_t df);
/* The pct-th percentile in ns of a results.json histogram (counts[bins] at
 * coarseness, job/histlog.h), interpolated inside its bin; NaN if empty. */
double compare_hist_percentile(const uint64_t *counts, unsigned bins, unsigned coarseness,
			       double pct);
/* The pct-th percentile of clat_hist's windows [from, to) merged, with a
 * batch-means interval of the batches' percentiles around it. */
struct compare_interval compare_hist_interval(const json_t *clat_hist, size_t from, size_t to,
					      double pct);
/* Whether two intervals overlap; false when either has none. */
bool compare_overlap(const struct compare_interval *a, const struct compare_interval *b);
json_t *compare_interval_json(const struct compare_interval *iv);

/* compare_warn.c: the devices matched, and the ways two runs are not comparable */
/* The devices of b matched to a's: by label, else by a volume type only
 * one unmatched device of b has; match[i] is b's index or SIZE_MAX. */
void compare_match_devices(const json_t *devs_a, const json_t *devs_b, size_t *match);
/* Appends a sentence to list for each way run-wide facts differ: instance
 * type, engine, ebsbench version, time scale, plan. */
void compare_run_warnings(const json_t *a, const json_t *b, json_t *list);
/* The same for one matched device: volume facts and credit state at the
 * start (gp2: its randread's idle gap, the balance its cliff implies). */
void compare_device_warnings(const json_t *a, const json_t *b, const json_t *dev_a,
			     const json_t *dev_b, json_t *list);

/* demand_recommend.c: one trace's search, each candidate replayed */
struct demand_recommend_opts {
	const struct ebs_volume *current; /* NULL: not known */
	struct demand_sim_opts sim;
	double budget; /* share of the time a candidate may throttle, 0..1 */
	double gib;    /* the size wanted; 0: the current volume's, else 1 */
	/* A results.json (analysis present) whose load curve gives the p99
	 * at the demand's level; NULL: none. */
	const json_t *results;
};

/* Searches and replays; -1 with a reason for a trace without points. */
int demand_recommend(const struct demand_trace *tr, const struct demand_recommend_opts *o,
		     const struct ebs_prices *prices, struct demand_answer *out, char *err,
		     size_t errlen);

/* demand_sim.c: the replay */
/* Replays tr through volume v.  Returns 0, or -1 with a reason (a trace
 * with no points, an unknown volume type). */
int demand_simulate(const struct demand_trace *tr, const struct ebs_volume *v,
		    const struct demand_sim_opts *o, struct demand_sim_result *out, char *err,
		    size_t errlen);

/* The rate (units per second, and MiB/s) the interval asks at most
 * share of the time: share 0 is the peak.  With the peak factor. */
struct demand_need_rate {
	double units, mibs;
};
struct demand_need_rate demand_rate_quantile(const struct demand_trace *tr, double unit_bytes,
					     double share, double peak_factor);

/* fleet_stats.c: distributions, outliers and histogram percentiles */
/* Whether figure k is a latency percentile read from a histogram. */
bool fleet_figure_from_hist(enum fleet_figure k);
/* The scaled MAD's floor for figure k, a share of its median (fleet.h's
 * rule): histograms at coarseness, log windows of window_s. */
double fleet_figure_floor(enum fleet_figure k, unsigned coarseness, double median, double window_s);
/* The distribution of the finite values among v[0..n), its floor
 * FLEET_MAD_FLOOR. */
void fleet_dist_of(const double *v, size_t n, struct fleet_dist *d);
/* How many floored scaled MADs x lies from d's median (signed). */
double fleet_mads(const struct fleet_dist *d, double x);
/* Whether x is an outlier of d by fleet.h's rule. */
bool fleet_is_outlier(const struct fleet_dist *d, double x);
/* The pct-th percentile of counts[bins] at coarseness (bin j holds
 * fio's bins j x 2^c .. (j + 1) x 2^c - 1): the first bin whose running
 * count reaches pct % of the sum, as fio ranks.  false when empty. */
bool fleet_hist_pct(const uint64_t *counts, unsigned bins, unsigned coarseness, double pct,
		    struct fleet_pct *out);

/* recommend.c: the search for one device */
/* The search for one results.json device (analysis present), priced
 * from prices.  -1 with a reason for a device the EBS model does not
 * cover (instance store, other NVMe). */
int recommend_device(const json_t *results, const json_t *device, const struct recommend_ask *ask,
		     const struct ebs_prices *prices, struct recommend_device *out, char *err,
		     size_t errlen);

#endif
