/* job_issue.h - the loop's issuing side (job_issue.c): which I/Os go out
 * next, and when. */
#ifndef EBSBENCH_JOB_ISSUE_H
#define EBSBENCH_JOB_ISSUE_H

#include "job/job_loop.h"

/* Queues up to max I/Os while units are free (a rated job:
 * every I/O due by now), each I/O counted from now (its due time); returns
 * how many were queued into batch[]. */
unsigned job_fill_queue(struct job_loop *L, uint64_t now, unsigned max);
unsigned job_fill_due(struct job_loop *L, uint64_t now);

#endif
