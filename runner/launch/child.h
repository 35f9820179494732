/* child.h - a command-line tool of the user's (kubectl, aws), found on
 * PATH, as a child process: no shell, argv as given, stdin from a buffer
 * (a manifest or a launch input: never a file on disk, never printed),
 * stdout captured, stderr captured for the one line that says why a call
 * failed.  Each child is its own process group, so the terminal's Ctrl-C
 * reaches ebsbench alone, which then decides what to stop and how; a call
 * that outlives its time limit is ended (SIGTERM, then SIGKILL). */
#ifndef EBSBENCH_CHILD_H
#define EBSBENCH_CHILD_H

#include <stddef.h>
#include <sys/types.h>

/* The most arguments a call takes, the tool's name included. */
#define CHILD_MAX_ARGS 40

/* What one call gave back. */
struct child_result {
	int status; /* its exit status; 128 + N when killed by signal N */
	char *out;  /* its stdout, NUL-terminated (child_result_free) */
	size_t out_len;
	char why[400]; /* the last non-empty line of its stderr, or "" */
};

/* Runs argv (argv[0] looked up on PATH, NULL-terminated) in env (NULL:
 * this process's environment), in[in_len] on its stdin (in NULL: nothing), to its end, or for at
 * most timeout_s seconds (0: no limit; past it the group gets SIGTERM, 5 s later SIGKILL, and why
 * says so).  0 with *res filled (whatever the status), or -1 when it could not run ("TOOL is not on
 * PATH: ..."), said in err. */
int child_run(char *const *argv, char *const *env, const char *in, size_t in_len,
	      unsigned timeout_s, struct child_result *res, char *err, size_t errlen);
void child_result_free(struct child_result *res);

/* A call that goes on (`kubectl logs -f`): its stdout a non-blocking pipe
 * to read, its stderr discarded. */
struct child {
	pid_t pid; /* 0: none */
	int out;   /* -1: none */
};

/* Starts argv.  0, or -1 said in err. */
int child_start(char *const *argv, struct child *c, char *err, size_t errlen);
/* Whether it has exited (reaped then): 1, else 0. */
int child_ended(struct child *c);
/* Ends it (SIGTERM), reaps it, closes its pipe; a child already gone is
 * only reaped. */
void child_stop(struct child *c);

#endif
