/* progress.h - what a long run shows on stderr: phase, device, IOPS now,
 * done and ETA.  A live line on a terminal, a plain line every 10 s
 * otherwise, so logs of unattended runs stay readable; plain lines too
 * when other jobs report to the same terminal at the same time (a group's
 * threads, a together phase), each of which would redraw the others'. */
#ifndef EBSBENCH_PROGRESS_H
#define EBSBENCH_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

struct progress {
	FILE *out;
	bool live;	 /* a terminal: redraw one line */
	char label[192]; /* "name on /dev/x" */
	uint64_t interval_ns;
	uint64_t next_ns; /* monotonic time of the next report */
	uint64_t last_ns;
	uint64_t last_ios;
	uint64_t remaining_after_ns; /* planned work after this job: the run's ETA */
	bool drawn;
};

/* beside: other jobs report to out at the same time (job_context.beside). */
void progress_init(struct progress *p, FILE *out, const char *label, bool beside, uint64_t now_ns);
/* Cheap when not due; fraction_done in [0,1], eta_ns of the job. */
void progress_update(struct progress *p, uint64_t now_ns, uint64_t ios, uint64_t bytes,
		     double fraction_done, uint64_t eta_ns);
void progress_finish(struct progress *p);

/* The longest ETA shown: a year. */
#define PROGRESS_ETA_MAX_NS (365ull * 86400 * 1000000000)
/* The time left when fraction_done (in (0,1]) took elapsed_ns: early on
 * the quotient can pass what uint64_t holds, and it stops at
 * PROGRESS_ETA_MAX_NS; 0 when nothing is done yet. */
uint64_t progress_eta_ns(uint64_t elapsed_ns, double fraction_done);

#endif
