/* kubectl.h - the user's own kubectl (found on PATH, with its kubeconfig
 * and context as the user has them, or as --context and --kubeconfig
 * name) as a child process (launch/child.h): the manifest on its stdin,
 * never a file on disk, never printed. */
#ifndef EBSBENCH_KUBECTL_H
#define EBSBENCH_KUBECTL_H

#include <stddef.h>

#include "launch/child.h"

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

/* Runs `kubectl ARGS` (args NULL-terminated), in[in_len] on its stdin
 * (in NULL: nothing), to its end.  0 with *res filled (whatever the
 * status), or -1 when it could not run (kubectl not on PATH), said in
 * err. */
int kubectl_run(const struct kubectl *k, const char *const *args, const char *in, size_t in_len,
		struct child_result *res, char *err, size_t errlen);

/* Starts `kubectl ARGS` that goes on (`logs -f`; no request timeout).  0,
 * or -1 said in err. */
int kubectl_start(const struct kubectl *k, const char *const *args, struct child *c, char *err,
		  size_t errlen);

#endif
