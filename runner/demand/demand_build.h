/* demand_build.h - turning samples (a volume, a metric, a time, a value)
 * into traces, for the readers (inner header of demand/). */
#ifndef EBSBENCH_DEMAND_BUILD_H
#define EBSBENCH_DEMAND_BUILD_H

#include "demand/demand.h"

/* One value of one metric (DEMAND_M_*) of volume `vol` (index in the set). */
struct demand_sample {
	double t, value;
	size_t vol;
	unsigned metric;
};

struct demand_builder {
	struct demand_set *set;
	struct demand_sample *s;
	size_t n, cap;
};

/* The set's index of the volume called name, added when new; -1 on out
 * of memory. */
long demand_volume_index(struct demand_set *set, const char *name);
/* Room for n more samples at once (a 14-day export holds 160,000 a
 * volume: growing by doubling copies them over and over); -1 on out of
 * memory. */
int demand_builder_reserve(struct demand_builder *b, size_t n);
/* Adds one sample; -1 on out of memory. */
int demand_builder_add(struct demand_builder *b, size_t vol, unsigned metric, double t,
		       double value);
/* Merges the samples into their volumes' points (with any the volumes
 * already held), oldest first, and sets interval_s and gaps; interval_s
 * is given_interval when positive, else the smallest step between points
 * (60 s, CloudWatch's finest EBS period, for a single point).  Frees the
 * samples.  Returns 0, or -1 on out of memory. */
int demand_builder_finish(struct demand_builder *b, double given_interval);
void demand_builder_free(struct demand_builder *b);

/* The DEMAND_M_* bit of a metric named in text ("VolumeReadOps",
 * "vol0abc_writebytes"), any case; 0 for none. */
unsigned demand_metric_in(const char *text);
/* A "vol-" volume ID in text (or Id's "vol0abc..." form) into out; false
 * when there is none. */
bool demand_volume_id_in(const char *text, char *out, size_t cap);

#endif
