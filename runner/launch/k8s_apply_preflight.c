/* k8s_apply_preflight.c - before anything is made: the cluster answers, the
 * EBS CSI driver is there, a node of the instance type is there or a
 * Karpenter NodePool could make one, its --node-selector labels and
 * hard taints weighed against the pod's (else a warning: a cluster
 * autoscaler may still), in that order; each failure one line naming what to fix.
 * (The bucket's check is k8s_apply.c's: it holds the credentials.) */
#include "launch/k8s_apply.h"

#include <stdio.h>
#include <string.h>

#include "lib/lib.h"
#include "launch/child.h"
#include "launch/internal.h"

#define INSTANCE_LABEL "node.kubernetes.io/instance-type"

/* kubectl ARGS; 0 when it ran and succeeded, else -1 with its reason (its
 * stderr's last line, or why it could not run) in why. */
static int call(const struct kubectl *k, const char *const *args, struct child_result *res,
		char *why, size_t cap)
{
	if (kubectl_run(k, args, NULL, 0, res, why, cap))
		return -1;
	if (!res->status)
		return 0;
	snprintf(why, cap, "%s", res->why[0] ? res->why : "it failed");
	child_result_free(res);
	return -1;
}

/* Whether one toleration (k8s_toleration's object) lets a taint through:
 * the same key (or none, with Exists), the same value unless Exists, the
 * same effect unless it names none. */
static bool tolerates(const json_t *t, const json_t *taint)
{
	const char *key = json_string_value(json_object_get(t, "key"));
	const char *op = json_string_value(json_object_get(t, "operator"));
	const char *effect = json_string_value(json_object_get(t, "effect"));
	const char *tkey = json_string_value(json_object_get(taint, "key"));
	const char *tvalue = json_string_value(json_object_get(taint, "value"));
	const char *teffect = json_string_value(json_object_get(taint, "effect"));
	const char *value = json_string_value(json_object_get(t, "value"));
	bool exists = op && !strcmp(op, "Exists");
	if (key && *key && (!tkey || strcmp(key, tkey)))
		return false;
	if (!exists && strcmp(value ? value : "", tvalue ? tvalue : ""))
		return false;
	return !effect || (teffect && !strcmp(effect, teffect));
}

/* The first taint of the list that keeps the pod off (NoSchedule or
 * NoExecute, no toleration for it), as KEY[=VALUE]:EFFECT into out[cap]:
 * true; false when every one is tolerated. */
static bool untolerated(const json_t *taints, const json_t *tolerations, char *out, size_t cap)
{
	size_t i, j;
	const json_t *taint, *t;
	json_array_foreach(taints, i, taint)
	{
		const char *effect = json_string_value(json_object_get(taint, "effect"));
		if (!effect || !strcmp(effect, "PreferNoSchedule"))
			continue;
		bool ok = false;
		json_array_foreach(tolerations, j, t) ok = ok || tolerates(t, taint);
		if (ok)
			continue;
		const char *key = json_string_value(json_object_get(taint, "key"));
		const char *value = json_string_value(json_object_get(taint, "value"));
		snprintf(out, cap, "%s%s%s:%s", key ? key : "", value && *value ? "=" : "",
			 value && *value ? value : "", effect);
		return true;
	}
	return false;
}

/* Whether a requirement (key, operator, values) lets value through. */
static bool requirement_admits(const json_t *r, const char *value)
{
	const char *op = json_string_value(json_object_get(r, "operator"));
	size_t j;
	json_t *v;
	bool listed = false;
	json_array_foreach(json_object_get(r, "values"), j, v)
	{
		const char *s = json_string_value(v);
		listed = listed || (s && !strcmp(s, value));
	}
	if (!op)
		return true;
	if (!strcmp(op, "In"))
		return listed;
	if (!strcmp(op, "NotIn"))
		return !listed;
	return strcmp(op, "DoesNotExist") != 0;
}

/* Labels a node gets whatever its NodePool says (Kubernetes' and
 * Karpenter's well-known ones): a pool that does not name them can still
 * satisfy a selector on them. */
static bool well_known_label(const char *key)
{
	static const char *const prefixes[] = { "kubernetes.io/", "node.kubernetes.io/",
						"topology.kubernetes.io/", "karpenter.sh/",
						"karpenter.k8s.aws/" };
	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (!strncmp(key, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/* Whether a NodePool's template can make a node with label key=value: its
 * labels give it, or its requirements on key let value through, or the
 * label is well known and no requirement names it. */
static bool pool_gives(const json_t *template, const char *key, const char *value)
{
	const char *label = json_string_value(json_object_get(
		json_object_get(json_object_get(template, "metadata"), "labels"), key));
	if (label)
		return !strcmp(label, value);
	size_t i;
	json_t *r;
	bool named = false, ok = true;
	json_array_foreach(json_object_get(json_object_get(template, "spec"), "requirements"), i, r)
	{
		const char *k = json_string_value(json_object_get(r, "key"));
		if (k && !strcmp(k, key)) {
			named = true;
			ok = ok && requirement_admits(r, value);
		}
	}
	return named ? ok : well_known_label(key);
}

/* The pod's node labels: the instance type and each --node-selector. */
struct pod_labels {
	const char *keys[K8S_EXTRA_MAX + 1];
	const char *values[K8S_EXTRA_MAX + 1];
	char key_buf[K8S_EXTRA_MAX][318];
	size_t count;
	json_t *tolerations; /* k8s_toleration's objects */
};

static void pod_labels(const struct k8s_request *q, struct pod_labels *l)
{
	char err[256];
	l->keys[0] = INSTANCE_LABEL;
	l->values[0] = q->instance_type;
	l->count = 1;
	for (size_t i = 0; i < q->node_selector_count; i++)
		if (!k8s_node_selector(q->node_selectors[i], l->key_buf[i], &l->values[l->count],
				       err, sizeof(err)))
			l->keys[l->count++] = l->key_buf[i];
	l->tolerations = json_array();
	for (size_t i = 0; i < q->toleration_count; i++)
		json_array_append_new(l->tolerations,
				      k8s_toleration(q->tolerations[i], err, sizeof(err)));
}

/* kubectl ARGS (a `get ... -o json`)'s object: NULL when kubectl failed
 * or printed no JSON (the caller decrefs it). */
static json_t *get_json(const struct kubectl *k, const char *const *args)
{
	struct child_result res;
	char why[400];
	if (call(k, args, &res, why, sizeof(why)))
		return NULL;
	json_t *list = json_loads(res.out, 0, NULL);
	child_result_free(&res);
	return list;
}

/* The first NodePool (nodepools.karpenter.sh) that can make the pod's
 * node, into name[cap]: 1, or 0 (none, or no Karpenter). */
static int nodepool_for(const struct kubectl *k, const struct pod_labels *l, char *name, size_t cap)
{
	const char *args[] = { "get", "nodepools.karpenter.sh", "-o", "json", NULL };
	char taint[400];
	json_t *list = get_json(k, args), *pool;
	size_t i;
	int found = 0;
	json_array_foreach(json_object_get(list, "items"), i, pool)
	{
		json_t *template = json_object_get(json_object_get(pool, "spec"), "template");
		const char *n = json_string_value(
			json_object_get(json_object_get(pool, "metadata"), "name"));
		bool ok = n && !found &&
			  !untolerated(json_object_get(json_object_get(template, "spec"), "taints"),
				       l->tolerations, taint, sizeof(taint));
		for (size_t j = 0; ok && j < l->count; j++)
			ok = pool_gives(template, l->keys[j], l->values[j]);
		if (ok) {
			snprintf(name, cap, "%s", n);
			found = 1;
		}
	}
	json_decref(list);
	return found;
}

/* The nodes with the pod's labels: 1 when one would take the pod
 * (schedulable, every hard taint tolerated); 0 when none would, the
 * taint that kept the last one off into taint[cap] ("" when there was no
 * node at all or kubectl did not answer). */
static int node_for(const struct kubectl *k, const struct pod_labels *l, char *taint, size_t cap)
{
	char selector[1024];
	size_t used = 0;
	for (size_t i = 0; i < l->count && used < sizeof(selector); i++)
		used += (size_t)snprintf(selector + used, sizeof(selector) - used, "%s%s=%s",
					 i ? "," : "", l->keys[i], l->values[i]);
	const char *args[] = { "get", "nodes", "-l", selector, "-o", "json", NULL };
	taint[0] = '\0';
	json_t *list = get_json(k, args), *node;
	size_t i;
	int found = 0;
	json_array_foreach(json_object_get(list, "items"), i, node)
	{
		const json_t *spec = json_object_get(node, "spec");
		if (!found && !json_is_true(json_object_get(spec, "unschedulable")) &&
		    !untolerated(json_object_get(spec, "taints"), l->tolerations, taint, cap))
			found = 1;
	}
	json_decref(list);
	return found;
}

/* A node for the pod, or a NodePool to make one: a line either way when
 * there is none yet. */
static void check_node(const struct kubectl *k, const struct k8s_request *q)
{
	struct pod_labels l;
	char pool[256], taint[400];
	pod_labels(q, &l);
	if (node_for(k, &l, taint, sizeof(taint))) {
		json_decref(l.tolerations);
		return;
	}
	if (nodepool_for(k, &l, pool, sizeof(pool)))
		fprintf(stderr,
			"ebsbench k8s: no %s node yet: Karpenter's NodePool %s can make one\n",
			q->instance_type, pool);
	else if (taint[0])
		fprintf(stderr,
			"ebsbench k8s: warning: every %s node with the pod's labels carries taint "
			"%s, which the pod does not tolerate, and no Karpenter NodePool can make "
			"another: the pod stays Pending (--toleration %s lets it on)\n",
			q->instance_type, taint, taint);
	else
		fprintf(stderr,
			"ebsbench k8s: warning: no node of instance type %s%s and no Karpenter "
			"NodePool that admits one: the pod stays Pending until a node group or "
			"autoscaler adds one (--instance-type names another)\n",
			q->instance_type, l.count > 1 ? " with the --node-selector labels" : "");
	json_decref(l.tolerations);
}

int k8s_apply_preflight(const struct k8s_apply *a)
{
	const char *version[] = { "version", "-o", "json", NULL };
	const char *csi[] = { "get", "csidriver", "ebs.csi.aws.com", "-o", "name", NULL };
	struct child_result res;
	char why[400];
	if (call(&a->kube, version, &res, why, sizeof(why))) {
		fprintf(stderr,
			"ebsbench k8s: the cluster does not answer (kubectl version: %s): check "
			"kubectl's context and credentials (--context, --kubeconfig)\n",
			why);
		return K8S_APPLY_NO_CLUSTER;
	}
	child_result_free(&res);
	if (call(&a->kube, csi, &res, why, sizeof(why))) {
		fprintf(stderr,
			"ebsbench k8s: no EBS CSI driver (kubectl get csidriver ebs.csi.aws.com: "
			"%s): install the aws-ebs-csi-driver add-on and its IAM role "
			"(docs/launch.md)\n",
			why);
		return K8S_APPLY_NO_CSI;
	}
	child_result_free(&res);
	check_node(&a->kube, a->q);
	return 0;
}
