/* supervise.h - PID 1's one child at a time: started, its signals
 * forwarded, every orphan reaped, killed at a deadline.
 *
 * The caller blocks SIGCHLD, SIGTERM, SIGINT and SIGHUP (supervise_block)
 * so that supervise() can take them with sigtimedwait(): no handler, no
 * flag, no race between a signal and the wait. */
#ifndef EBSBENCH_INIT_SUPERVISE_H
#define EBSBENCH_INIT_SUPERVISE_H

#include <stdbool.h>

struct supervise_result {
	int status;	/* exit code, 128 + signal when killed, -1 not started */
	bool timed_out; /* the deadline passed: SIGTERM sent (SIGKILL after grace) */
	int forwarded;	/* the last signal passed on to the child, 0 none */
};

void supervise_block(void);

/* Runs argv[0] (a path) with stdout on out_fd (-1: inherited) and the
 * given extra environment entries ("K=V", NULL-ended, may be NULL).
 * deadline_s is on CLOCK_MONOTONIC (0: none); grace_s is how long the
 * child has, after SIGTERM, to upload what it has. */
void supervise(char *const argv[], int out_fd, char *const extra_env[], double deadline_s,
	       double grace_s, struct supervise_result *r);

/* Sets sig's handler through the kernel, not libc: libc refuses the
 * signals it keeps for itself (musl 32-34, glibc 32-33), yet a parent can
 * leave them ignored (GNU make does, for 32 and 33).  *old (may be NULL)
 * gets the previous handler.  Returns 0, or -1 with errno (ENOSYS on an
 * architecture whose kernel struct sigaction is not written here). */
int supervise_kernel_handler(int sig, void (*handler)(int), void (**old)(int));

/* Reaps every exited process without waiting. */
void supervise_reap(void);

#endif
