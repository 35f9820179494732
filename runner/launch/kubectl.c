/* kubectl.c - kubectl's argv: the cluster flags, for a call that ends a
 * bound on each request, then the call's own arguments; run as a child
 * (launch/child.c). */
#include "launch/kubectl.h"

#include <stdbool.h>
#include <string.h>

#include "lib/lib.h"
#include "launch/child.h"
#include "launch/internal.h"

/* argv: "kubectl", the cluster flags, for a call that ends a bound on
 * each request (a cluster that stops answering must not hang the run's
 * end, nor Ctrl-C), args. */
static int build_argv(const struct kubectl *k, const char *const *args, bool bounded, char **argv,
		      char *err, size_t errlen)
{
	size_t n = 0;
	argv[n++] = "kubectl";
	if (k->context) {
		argv[n++] = "--context";
		argv[n++] = (char *)k->context;
	}
	if (k->kubeconfig) {
		argv[n++] = "--kubeconfig";
		argv[n++] = (char *)k->kubeconfig;
	}
	if (bounded)
		argv[n++] = "--request-timeout=" KUBECTL_REQUEST_TIMEOUT;
	for (; *args; args++) {
		if (n + 1 >= KUBECTL_MAX_ARGS)
			return error_set(err, errlen, "kubectl: too many arguments");
		argv[n++] = (char *)*args;
	}
	argv[n] = NULL;
	return 0;
}

int kubectl_run(const struct kubectl *k, const char *const *args, const char *in, size_t in_len,
		struct child_result *res, char *err, size_t errlen)
{
	char *argv[KUBECTL_MAX_ARGS];
	memset(res, 0, sizeof(*res));
	if (build_argv(k, args, true, argv, err, errlen))
		return -1;
	/* --request-timeout bounds each request; a call makes a few. */
	return child_run(argv, NULL, in, in_len, 0, res, err, errlen);
}

int kubectl_start(const struct kubectl *k, const char *const *args, struct child *c, char *err,
		  size_t errlen)
{
	char *argv[KUBECTL_MAX_ARGS];
	if (build_argv(k, args, false, argv, err, errlen))
		return -1;
	return child_start(argv, c, err, errlen);
}
