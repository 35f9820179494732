/* kubectl.h - the user's own kubectl (found on PATH, with its kubeconfig
 * and context as the user has them, or as --context and --kubeconfig
 * name) as a child process: no shell, argv as given, stdin from a buffer
 * (the manifest: never a file on disk, never printed), stdout captured,
 * stderr captured for the one line that says why a call failed.  Each
 * child is its own process group, so the terminal's Ctrl-C reaches
 * ebsbench alone, which then decides what to stop and how. */
#ifndef EBSBENCH_KUBECTL_H
#define EBSBENCH_KUBECTL_H

#include <stddef.h>
#include <sys/types.h>

/* How every call names the cluster: NULL fields are kubectl's defaults. */
struct kubectl {
	const char *context;	/* --context */
	const char *kubeconfig; /* --kubeconfig */
};

/* Each request of a call that ends (kubectl_run) ends within this: kubectl's
 * --request-timeout. */
#define KUBECTL_REQUEST_TIMEOUT "60s"

/* The most arguments a call takes (the flags above included). */
#define KUBECTL_MAX_ARGS 32

/* What one call gave back. */
struct kubectl_result {
	int status; /* its exit status; 128 + N when killed by signal N */
	char *out;  /* its stdout, NUL-terminated (kubectl_result_free) */
	size_t out_len;
	char why[400]; /* the last non-empty line of its stderr, or "" */
};

/* Runs `kubectl ARGS` (args NULL-terminated), in[in_len] on its stdin
 * (in NULL: nothing), to its end.  0 with *res filled (whatever the
 * status), or -1 when it could not run (kubectl not on PATH), said in
 * err. */
int kubectl_run(const struct kubectl *k, const char *const *args, const char *in, size_t in_len,
		struct kubectl_result *res, char *err, size_t errlen);
void kubectl_result_free(struct kubectl_result *res);

/* A call that goes on (`kubectl logs -f`): its stdout a non-blocking pipe
 * to read, its stderr discarded. */
struct kubectl_child {
	pid_t pid; /* 0: none */
	int out;   /* -1: none */
};

/* Starts `kubectl ARGS`.  0, or -1 said in err. */
int kubectl_start(const struct kubectl *k, const char *const *args, struct kubectl_child *c,
		  char *err, size_t errlen);
/* Whether it has exited (reaped then): 1, else 0. */
int kubectl_ended(struct kubectl_child *c);
/* Ends it (SIGTERM), reaps it, closes its pipe; a child already gone is
 * only reaped. */
void kubectl_stop(struct kubectl_child *c);

#endif
