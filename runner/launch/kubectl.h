/* kubectl.h - the user's own kubectl (found on PATH, with its kubeconfig
 * and context as the user has them, or as --context and --kubeconfig
 * name) as a child process (launch/child.h): the manifest on its stdin,
 * never a file on disk, never printed.  Here, how the calls name the
 * cluster (`ebsbench k8s --apply` is given it); the calls themselves are
 * launch/internal.h's. */
#ifndef EBSBENCH_KUBECTL_H
#define EBSBENCH_KUBECTL_H

/* How every call names the cluster: NULL fields are kubectl's defaults. */
struct kubectl {
	const char *context;	/* --context */
	const char *kubeconfig; /* --kubeconfig */
};

#endif
