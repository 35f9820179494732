/* job_steady.h - the loop's side of fio's steady state (job_steady.c):
 * sampling at each ss_interval and ending the job once it is steady. */
#ifndef EBSBENCH_JOB_STEADY_H
#define EBSBENCH_JOB_STEADY_H

#include "job/job_loop.h"

/* Once per loop turn while measuring, for a job with ss or ss_group: a
 * group member shares its counts and stops when its group is steady; the
 * sampling job takes a sample when one is due and stops when steady.
 * Costs a comparison between samples (and a group member two stores). */
void job_steady_turn(struct job_loop *L, uint64_t now);
/* When the sampling job must next look (absolute ns), for a rated job's
 * sleep; UINT64_MAX when it samples nothing. */
uint64_t job_steady_due(const struct job_loop *L);

#endif
