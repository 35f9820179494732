/* k8s_args.c - what only `ebsbench k8s` is given, checked before anything
 * is signed: the image's digest and Kubernetes names (the volumes and the
 * S3 destination are every launcher's: launch_args.c). */
#include "launch/k8s.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "launch/internal.h"
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

/* A label or taint key: [PREFIX/]NAME, the prefix a DNS subdomain of at
 * most 253, the name 1-63 of A-Z a-z 0-9 - _ ., alphanumeric at both ends. */
static bool label_key(const char *key, size_t n)
{
	const char *slash = memchr(key, '/', n);
	const char *name = slash ? slash + 1 : key;
	size_t prefix = slash ? (size_t)(slash - key) : 0, len = n - (size_t)(name - key);
	char buf[64], err[8];
	if (slash && (!prefix || prefix > 253 ||
		      strspn(key, "abcdefghijklmnopqrstuvwxyz0123456789-.") < prefix))
		return false;
	if (!len || len >= sizeof(buf))
		return false;
	memcpy(buf, name, len);
	buf[len] = '\0';
	return !k8s_check_name("", buf, true, err, sizeof(err));
}

json_t *k8s_toleration(const char *spec, char *err, size_t errlen)
{
	static const char *const effects[] = { "NoSchedule", "PreferNoSchedule", "NoExecute" };
	const char *colon = strrchr(spec, ':'), *eq = strchr(spec, '=');
	const char *effect = colon ? colon + 1 : NULL;
	size_t key_len = eq ? (size_t)(eq - spec) : colon ? (size_t)(colon - spec) : strlen(spec);
	bool ok = label_key(spec, key_len) && (!colon || !eq || eq < colon);
	char value[64] = "";
	if (ok && eq) {
		size_t n = colon ? (size_t)(colon - eq - 1) : strlen(eq + 1);
		ok = n < sizeof(value);
		if (ok) {
			memcpy(value, eq + 1, n);
			value[n] = '\0';
			ok = !n || !k8s_check_name("", value, true, err, errlen);
		}
	}
	bool known = !effect;
	for (size_t i = 0; effect && i < ARRAY_SIZE(effects); i++)
		known = known || !strcmp(effect, effects[i]);
	if (!ok || !known)
		return error_set(err, errlen,
				 "--toleration '%s': want KEY[=VALUE][:EFFECT], EFFECT NoSchedule, "
				 "PreferNoSchedule or NoExecute",
				 spec),
		       NULL;
	json_t *t = json_pack("{ss#ss}", "key", spec, (int)key_len, "operator",
			      eq ? "Equal" : "Exists");
	if (t && eq)
		json_object_set_new(t, "value", json_string(value));
	if (t && effect)
		json_object_set_new(t, "effect", json_string(effect));
	return t;
}

int k8s_node_selector(const char *spec, char key[318], const char **value, char *err, size_t errlen)
{
	const char *eq = strchr(spec, '=');
	size_t n = eq ? (size_t)(eq - spec) : 0;
	if (!eq || n >= 318 || !label_key(spec, n) ||
	    (eq[1] && k8s_check_name("", eq + 1, true, err, errlen)))
		return error_set(err, errlen,
				 "--node-selector '%s': want KEY=VALUE, a Kubernetes label", spec);
	memcpy(key, spec, n);
	key[n] = '\0';
	*value = eq + 1;
	return 0;
}
