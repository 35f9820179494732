/* k8s_apply_preflight.c - before anything is made: the cluster answers, the
 * EBS CSI driver is there, a node of the instance type is there or a
 * Karpenter NodePool could make one (else a warning: a cluster autoscaler
 * may still), in that order; each failure one line naming what to fix.
 * (The bucket's check is k8s_apply.c's: it holds the credentials.) */
#include "launch/k8s_apply.h"

#include <stdio.h>
#include <string.h>

#include "lib/lib.h"

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

/* Whether a requirement list admits type: no requirement on the
 * instance-type label, or one whose operator lets it through. */
static bool admits(const json_t *requirements, const char *type)
{
	size_t i, j;
	json_t *r, *v;
	bool ok = true;
	json_array_foreach(requirements, i, r)
	{
		const char *key = json_string_value(json_object_get(r, "key"));
		const char *op = json_string_value(json_object_get(r, "operator"));
		if (!key || !op || strcmp(key, INSTANCE_LABEL))
			continue;
		bool listed = false;
		json_array_foreach(json_object_get(r, "values"), j, v)
		{
			const char *s = json_string_value(v);
			listed = listed || (s && !strcmp(s, type));
		}
		if (!strcmp(op, "In"))
			ok = ok && listed;
		else if (!strcmp(op, "NotIn"))
			ok = ok && !listed;
		else if (!strcmp(op, "DoesNotExist"))
			ok = false;
	}
	return ok;
}

/* The first NodePool (nodepools.karpenter.sh) that admits type, into
 * name[cap]: 1, or 0 (none, or no Karpenter). */
static int nodepool_for(const struct kubectl *k, const char *type, char *name, size_t cap)
{
	const char *args[] = { "get", "nodepools.karpenter.sh", "-o", "json", NULL };
	struct child_result res;
	char why[400];
	if (call(k, args, &res, why, sizeof(why)))
		return 0;
	json_t *list = json_loads(res.out, 0, NULL), *pool;
	size_t i;
	int found = 0;
	json_array_foreach(json_object_get(list, "items"), i, pool)
	{
		json_t *spec = json_object_get(json_object_get(pool, "spec"), "template");
		json_t *reqs = json_object_get(json_object_get(spec, "spec"), "requirements");
		const char *n = json_string_value(
			json_object_get(json_object_get(pool, "metadata"), "name"));
		if (!found && n && admits(reqs, type)) {
			snprintf(name, cap, "%s", n);
			found = 1;
		}
	}
	json_decref(list);
	child_result_free(&res);
	return found;
}

/* A node of the instance type, or a NodePool to make one: a line either
 * way when there is none yet. */
static void check_node(const struct kubectl *k, const char *type)
{
	char selector[128], why[400], pool[256];
	snprintf(selector, sizeof(selector), INSTANCE_LABEL "=%s", type);
	const char *args[] = { "get", "nodes", "-l", selector, "-o", "name", NULL };
	struct child_result res;
	if (!call(k, args, &res, why, sizeof(why))) {
		bool any = res.out_len && strstr(res.out, "node/");
		child_result_free(&res);
		if (any)
			return;
	}
	if (nodepool_for(k, type, pool, sizeof(pool)))
		fprintf(stderr,
			"ebsbench k8s: no %s node yet: Karpenter's NodePool %s can make one\n",
			type, pool);
	else
		fprintf(stderr,
			"ebsbench k8s: warning: no node of instance type %s and no Karpenter "
			"NodePool that admits one: the pod stays Pending until a node group or "
			"autoscaler adds one (--instance-type names another)\n",
			type);
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
	check_node(&a->kube, a->q->instance_type);
	return 0;
}
