/* rate.h - the issue schedule of a rate-limited job (--rate_iops,
 * --rate_process), as fio means them: when each direction's next I/O is due.
 *
 * The schedule is absolute, counted from its origin: linear puts the k-th
 * I/O of a direction at k / R seconds, poisson at the sum of k exponential
 * gaps of mean 1 / R drawn from the job's seeded generator (randrepeat
 * gives the same arrivals every run).  A loop that fell behind finds
 * several I/Os due at once and catches up, as fio does; each I/O keeps its
 * own due time, from which its latency is counted. */
#ifndef EBSBENCH_RATE_H
#define EBSBENCH_RATE_H

#include <stdbool.h>
#include <stdint.h>

#include "job/options.h"
#include "job/rng.h"
#include "stats/stats.h"

struct rate_schedule {
	uint32_t iops[DDIR_COUNT]; /* 0: a direction the job does not do */
	enum rate_process process;
	uint64_t origin_ns;
	uint64_t taken[DDIR_COUNT];	  /* I/Os issued so far, per direction */
	double poisson_at_ns[DDIR_COUNT]; /* poisson: next due, from the origin */
	struct rng poisson_rng[DDIR_COUNT];
};

/* Starts the schedule of job o at origin_ns, its poisson arrivals drawn
 * from seed (the job's: fixed under randrepeat).  Only the directions the
 * job does are scheduled; options_validate has made sure each is rated. */
void rate_init(struct rate_schedule *r, const struct job_options *o, uint64_t seed,
	       uint64_t origin_ns);

/* The direction whose next I/O is due first; its time in *due_ns. */
enum ddir rate_next(const struct rate_schedule *r, uint64_t *due_ns);

/* The next I/O of direction d was issued: schedule the one after it. */
void rate_take(struct rate_schedule *r, enum ddir d);

#endif
