/* fleet.h - many results directories (an Indexed Job's outputs, a volume
 * or a few each) seen as one fleet: volumes grouped in classes (type, and
 * what sets its performance: gp2's, st1's and sc1's size, gp3's, io1's and
 * io2's provisioned IOPS and throughput), and per class the distribution
 * over its volumes of each figure (the randread plateaus: burst and
 * post-cliff with the cliff's time, or the sustained rate; sequential
 * throughput; p50 and p99 latency), the latency percentiles of all the
 * class's I/Os from their merged histograms (phases[].clat_hist: counts
 * add, percentiles do not average), and the volumes that stand out.
 *
 * The outlier rule: a volume's figure more than FLEET_OUTLIER_K scaled
 * MADs from its class's median (the MAD, median absolute deviation, times
 * 1.4826: the standard deviation's robust estimate on a normal sample, so
 * one wild volume cannot widen the band that judges it), in a class of at
 * least FLEET_OUTLIER_MIN volumes with that figure.  The scaled MAD counts
 * as at least a floor, so that volumes all but equal do not make a
 * difference below what was measurable an outlier: FLEET_MAD_FLOOR of the
 * median; for a latency percentile (read from a histogram) a third of a
 * bin (at coarseness 4 a bin spans up to 25 % of its low end: such an
 * outlier lies over 25 % from the median); for a cliff time a third of
 * two log windows (a cliff is placed to a window, so two volumes' cliffs
 * alike may differ by two). */
#ifndef EBSBENCH_FLEET_H
#define EBSBENCH_FLEET_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "results/results.h"

#define FLEET_OUTLIER_K 3.0
#define FLEET_MAD_SCALE 1.4826
#define FLEET_MAD_FLOOR 0.01
#define FLEET_OUTLIER_MIN 5
/* The rule in words, as fleet.md and fleet.json state it. */
#define FLEET_OUTLIER_RULE                                                                         \
	"more than 3 scaled MADs (1.4826 x the median absolute deviation) from the class's "       \
	"median, in a class of 5 or more volumes; the scaled MAD taken as at least 1 % of the "    \
	"median, a third of a histogram bin for a latency percentile (over 25 % off at "           \
	"coarseness 4) and of two log windows for a cliff time"

/* The figures measured on every volume, in the order the report shows them. */
enum fleet_figure {
	FLEET_BURST_IOPS,      /* randread IOPS before the cliff */
	FLEET_POST_CLIFF_IOPS, /* randread IOPS after it */
	FLEET_CLIFF_S,	       /* seconds into randread when it came */
	FLEET_SUSTAINED_IOPS,  /* randread IOPS on a volume without a cliff */
	FLEET_SEQREAD_MIBS,
	FLEET_SEQWRITE_MIBS,
	FLEET_RANDREAD_P50_MS, /* the volume's randread windows merged */
	FLEET_RANDREAD_P99_MS,
	FLEET_LAT_P50_MS, /* the qd1 lat phase's */
	FLEET_LAT_P99_MS,
	FLEET_FIGURES
};

struct fleet_figure_info {
	const char *key;   /* in fleet.json: "burst_iops" */
	const char *title; /* in fleet.md: "burst IOPS" */
	const char *unit;  /* "IOPS", "s", "MiB/s", "ms" */
};
const struct fleet_figure_info *fleet_figure_info(enum fleet_figure f);

/* The phases whose histograms are merged: randread (qd32) and lat (qd1). */
enum fleet_hist_phase { FLEET_HIST_RANDREAD, FLEET_HIST_LAT, FLEET_HIST_PHASES };
const char *fleet_hist_phase_name(enum fleet_hist_phase p);

/* A distribution over volumes: quartiles by linear interpolation between
 * order statistics; NaN everywhere when n is 0. */
struct fleet_dist {
	size_t n;
	double min, q1, median, q3, max;
	double mad;   /* unscaled median absolute deviation */
	double floor; /* the scaled MAD's least value, a share of the median */
};

/* A percentile read from a histogram: interpolated inside its bin, and the
 * bin's bounds (every I/O at that rank lies within them). */
struct fleet_pct {
	double ns;
	double bin_low_ns, bin_high_ns; /* high: exclusive */
};

/* Counts per bin of the fleet's layout (struct fleet's bins), and their sum. */
struct fleet_hist {
	uint64_t *counts; /* NULL: no histogram */
	uint64_t ios;
};

struct fleet_volume {
	size_t run;	    /* index into the inputs */
	const char *dir;    /* the results directory, as given */
	const char *device; /* its label, borrowed from the run's JSON */
	size_t group;
	double window_s;	     /* randread's log window */
	double value[FLEET_FIGURES]; /* NaN where not measured */
	struct fleet_hist hist[FLEET_HIST_PHASES];
};

struct fleet_group {
	char name[96]; /* "gp3 3000 IOPS 125 MiB/s", "gp2 100 GiB" */
	char type[16];
	double size_gib, iops, throughput_mibs; /* NaN when not known or not the class's */
	size_t volumes;
	struct fleet_dist dist[FLEET_FIGURES];
	struct fleet_hist hist[FLEET_HIST_PHASES]; /* every member's I/Os */
	struct fleet_pct p50[FLEET_HIST_PHASES], p99[FLEET_HIST_PHASES];
};

struct fleet_outlier {
	size_t volume;
	enum fleet_figure figure;
	double value, median;
	double mads; /* signed: (value - median) / the floored scaled MAD */
};

struct fleet {
	struct fleet_volume *volume;
	size_t nvolumes;
	struct fleet_group *group;
	size_t ngroups;
	struct fleet_outlier *outlier;
	size_t noutliers;
	size_t nruns;
	unsigned bins, coarseness;	/* the histograms' layout; bins 0: none seen */
	size_t hist_skipped;		/* histograms of another layout, left out */
	struct results_columns columns; /* a volume per column; holds the labels */
};

/* The fleet of every device of every run (results.json documents, their
 * analysis already built); dirs[i] names runs[i].  0, or -1 with a
 * one-line reason (out of memory). */
int fleet_build(struct fleet *f, json_t *const *runs, const char *const *dirs, size_t nruns,
		char *err, size_t errlen);
void fleet_free(struct fleet *f);

#endif
