/* k8s_args.c - what only `ebsbench k8s` is given, checked before anything
 * is signed: the image's digest and Kubernetes names (the volumes and the
 * S3 destination are every launcher's: launch_args.c). */
#include "launch/k8s.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib/lib.h"

#define DIGEST_PREFIX "@sha256:"
#define DIGEST_HEX 64

int k8s_image_digest(const char *ref, char digest[72], char *err, size_t errlen)
{
	const char *at = strstr(ref, DIGEST_PREFIX);
	const char *hex = at ? at + strlen(DIGEST_PREFIX) : NULL;
	bool ok = at && at > ref && strlen(hex) == DIGEST_HEX &&
		  strspn(hex, "0123456789abcdef") == DIGEST_HEX && !strchr(ref, ' ');
	if (!ok)
		return error_set(err, errlen,
				 "--image '%s': pin it by digest, REGISTRY/ebsbench:TAG@sha256:<64 "
				 "hex digits> (a tag can move; skopeo inspect gives the digest)",
				 ref);
	snprintf(digest, 72, "sha256:%s", hex);
	return 0;
}

int k8s_check_name(const char *what, const char *name, bool label_value, char *err, size_t errlen)
{
	const char *allowed = label_value ? "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					    "0123456789-_."
					  : "abcdefghijklmnopqrstuvwxyz0123456789-";
	size_t n = strlen(name);
	bool ok = n >= 1 && n <= 63 && strspn(name, allowed) == n &&
		  isalnum((unsigned char)name[0]) && isalnum((unsigned char)name[n - 1]);
	if (!ok)
		return error_set(err, errlen, "%s '%s': not a Kubernetes %s", what, name,
				 label_value
					 ? "label value (1-63 of A-Z a-z 0-9 - _ ., "
					   "alphanumeric at both ends)"
					 : "name (1-63 of a-z 0-9 -, alphanumeric at both ends)");
	return 0;
}

/* Kubernetes' own namespaces: a run never goes there (the API server
 * refuses to delete three of them, and no benchmark belongs in any). */
static const char *const reserved_namespaces[] = { "default", "kube-system", "kube-public",
						   "kube-node-lease" };

int k8s_check_namespace(const char *name, char *err, size_t errlen)
{
	if (k8s_check_name("--namespace", name, false, err, errlen))
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(reserved_namespaces); i++)
		if (!strcmp(name, reserved_namespaces[i]))
			return error_set(
				err, errlen,
				"--namespace '%s': Kubernetes' own namespace; leave "
				"--namespace out (the run makes its own) or name one of yours",
				name);
	return 0;
}
