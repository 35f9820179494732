/* k8s.c - `ebsbench k8s`'s manifest: the run's config (read back by the
 * config parser, planned as `ebsbench run` plans it), one POST policy
 * signed by presign for the run's prefix, and the objects that launch it,
 * as image/k8s/job-pvc.yaml does by hand. */
#include "launch/k8s.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "launch/launch.h"
#include "launch/internal.h"
#include "lib/lib.h"

#define NAME "ebsbench"
#define RESULTS_MOUNT "/var/lib/ebsbench"
#define CONFIG_MOUNT "/etc/ebsbench"
/* The random end of a run's name: two calls in one second name two runs. */
#define SUFFIX_CHARS 5

/* Everything the objects are made of, once. */
struct k8s_parts {
	const struct k8s_request *q;
	char run[64];
	char digest[72];
	json_t *labels; /* name and instance: on every object */
	json_t *config; /* the run's config, its upload block included */
	long deadline_s;
	const char *namespace; /* --namespace, or the run's own */
	bool own_namespace;    /* made (and deleted) with the run */
	json_t *tolerations;   /* the pod's, from --toleration (an array) */
	json_t *node_selector; /* the instance type's, the OS and --node-selector's */
};

/* The device path of volume i in the container: /dev/xvdb, /dev/xvdc, ... */
static void device_path(char *buf, size_t len, size_t i)
{
	snprintf(buf, len, "/dev/xvd%c", (char)('b' + i));
}

/* "RUN-0-gp3": volume i's StorageClass and PVC. */
static void volume_name(char *buf, size_t len, const struct k8s_parts *p, size_t i)
{
	snprintf(buf, len, "%s-%zu-%s", p->run, i, ebs_type_name(p->q->volumes[i].type));
}

static json_t *metadata(const struct k8s_parts *p, const char *name, bool namespaced)
{
	json_t *m = json_pack("{ssso}", "name", name, "labels", json_deep_copy(p->labels));
	if (m && namespaced)
		json_object_set_new(m, "namespace", json_string(p->namespace));
	return m;
}

/* "ebsbench-20261203-130551-k3x9q": the signing time, then SUFFIX_CHARS
 * random letters and digits, so names sort by time and never collide. */
static int run_name(struct k8s_parts *p, time_t when, char *err, size_t errlen)
{
	static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char bytes[SUFFIX_CHARS];
	char suffix[SUFFIX_CHARS + 1];
	struct tm tm;
	if (getrandom(bytes, sizeof(bytes), 0) != (ssize_t)sizeof(bytes))
		return error_set(err, errlen, "no random bytes for the run's name");
	for (size_t i = 0; i < SUFFIX_CHARS; i++)
		suffix[i] = alphabet[bytes[i] % (sizeof(alphabet) - 1)];
	suffix[SUFFIX_CHARS] = '\0';
	gmtime_r(&when, &tm);
	size_t n = strftime(p->run, sizeof(p->run), NAME "-%Y%m%d-%H%M%S-", &tm);
	snprintf(p->run + n, sizeof(p->run) - n, "%s", suffix);
	return 0;
}

/* The POST policy for the prefix, merged into the config as its "upload";
 * the run is named by its signing time. */
static int sign(struct k8s_parts *p, struct k8s_made *made, char *err, size_t errlen)
{
	const struct k8s_request *q = p->q;
	struct launch_s3 s3 = { .bucket = made->bucket,
				.prefix = made->prefix,
				.region = q->region,
				.endpoint = q->endpoint,
				.profile = q->profile };
	struct presign_request r;
	if (launch_sign_post(p->config, &s3, p->deadline_s, &r, err, errlen))
		return -1;
	made->expires = r.when + (time_t)r.expires_s;
	int rc = run_name(p, r.when, err, errlen);
	presign_request_clear(&r);
	return rc;
}

static json_t *storage_class(const struct k8s_parts *p, size_t i)
{
	const struct ebs_volume *v = &p->q->volumes[i];
	const struct ebs_type_rules *r = ebs_type_rules(v->type);
	char name[96], num[32];
	volume_name(name, sizeof(name), p, i);
	json_t *params = json_pack("{ss}", "type", r->name);
	if (!r->size_derived) {
		snprintf(num, sizeof(num), "%.0f", v->iops);
		json_object_set_new(params, "iops", json_string(num));
	}
	if (r->mibs_provisioned) {
		snprintf(num, sizeof(num), "%.0f", v->throughput_mibs);
		json_object_set_new(params, "throughput", json_string(num));
	}
	/* The EBS CSI driver's parameters: its values are strings. */
	if (p->q->encrypted || p->q->kms_key_id)
		json_object_set_new(params, "encrypted", json_string("true"));
	if (p->q->kms_key_id)
		json_object_set_new(params, "kmsKeyId", json_string(p->q->kms_key_id));
	/* WaitForFirstConsumer: made in the zone of the node the pod lands on. */
	return json_pack("{sssssosssosssssb}", "apiVersion", "storage.k8s.io/v1", "kind",
			 "StorageClass", "metadata", metadata(p, name, false), "provisioner",
			 "ebs.csi.aws.com", "parameters", params, "volumeBindingMode",
			 "WaitForFirstConsumer", "reclaimPolicy", "Delete", "allowVolumeExpansion",
			 false);
}

/* Volume i's claim: a PVC's spec, or a fleet pod's ephemeral volume's. */
static json_t *claim_spec(const struct k8s_parts *p, size_t i)
{
	char name[96], size[32];
	volume_name(name, sizeof(name), p, i);
	snprintf(size, sizeof(size), "%.0fGi", p->q->volumes[i].size_gib);
	return json_pack("{s[s]sssss{s{ss}}}", "accessModes", "ReadWriteOnce", "storageClassName",
			 name, "volumeMode", "Block", "resources", "requests", "storage", size);
}

static json_t *claim(const struct k8s_parts *p, size_t i)
{
	char name[96];
	volume_name(name, sizeof(name), p, i);
	return json_pack("{sssssoso}", "apiVersion", "v1", "kind", "PersistentVolumeClaim",
			 "metadata", metadata(p, name, true), "spec", claim_spec(p, i));
}

/* config.json, or a fleet's config-I.json: each index under its own
 * key_prefix (PREFIX/I/) of the one POST policy for PREFIX. */
static json_t *secret(const struct k8s_parts *p)
{
	json_t *data = json_object();
	json_t *upload = json_object_get(p->config, "upload");
	json_t *post = json_object_get(upload, "post");
	const char *prefix = json_string_value(json_object_get(post, "key_prefix"));
	/* A fleet pod is not retried (its volumes die with it): no resume. */
	if (p->q->fleet)
		json_object_del(upload, "resume_get");
	char *base = prefix ? strdup(prefix) : NULL;
	unsigned count = p->q->fleet ? p->q->fleet : 1;
	for (unsigned i = 0; base && i < count; i++) {
		char key[32] = "config.json", kp[PRESIGN_MAX_KEY + 16];
		snprintf(kp, sizeof(kp), "%s", base);
		if (p->q->fleet) {
			snprintf(key, sizeof(key), "config-%u.json", i);
			snprintf(kp, sizeof(kp), "%s%u/", base, i);
		}
		json_object_set_new(post, "key_prefix", json_string(kp));
		char *text = json_dumps(p->config, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		json_object_set_new(data, key, text ? json_string(text) : NULL);
		free(text);
	}
	if (base)
		json_object_set_new(post, "key_prefix", json_string(base));
	free(base);
	if (json_object_size(data) != count) {
		json_decref(data);
		return NULL;
	}
	return json_pack("{sssssossso}", "apiVersion", "v1", "kind", "Secret", "metadata",
			 metadata(p, p->run, true), "type", "Opaque", "stringData", data);
}

static json_t *security_context(void)
{
	/* The NVMe admin ioctls (the volume id, the EBS statistics log page)
	 * need CAP_SYS_ADMIN; nothing else, and no privileged. */
	return json_pack("{sbsisbs{s[s]s[s]}s{ss}}", "privileged", false, "runAsUser", 0,
			 "readOnlyRootFilesystem", true, "capabilities", "drop", "ALL", "add",
			 "SYS_ADMIN", "seccompProfile", "type", "RuntimeDefault");
}

static json_t *container(const struct k8s_parts *p)
{
	json_t *devices = json_array();
	for (size_t i = 0; i < p->q->volume_count; i++) {
		char name[32], path[16];
		snprintf(name, sizeof(name), "vol%zu", i);
		device_path(path, sizeof(path), i);
		json_array_append_new(devices,
				      json_pack("{ssss}", "name", name, "devicePath", path));
	}
	json_t *env = json_pack("[{ssss}]", "name", "EBSBENCH_IMAGE_DIGEST", "value", p->digest);
	json_t *config = json_pack("{sssssb}", "name", "config", "mountPath", CONFIG_MOUNT,
				   "readOnly", true);
	/* After the image's `run --config ...`: a replacement pod continues
	 * the run its lost one began (one run; a fleet pod is not retried). */
	json_t *args = p->q->fleet ? json_array() : json_pack("[s]", "--resume=auto");
	if (p->q->fleet) {
		/* Pod I mounts config-I.json as the entrypoint's config.json. */
		json_array_append_new(env, json_pack("{sss{s{ss}}}", "name", "JOB_COMPLETION_INDEX",
						     "valueFrom", "fieldRef", "fieldPath",
						     "metadata.annotations['batch.kubernetes.io/"
						     "job-completion-index']"));
		json_object_set_new(config, "mountPath", json_string(CONFIG_MOUNT "/config.json"));
		json_object_set_new(config, "subPathExpr",
				    json_string("config-$(JOB_COMPLETION_INDEX).json"));
	}
	json_t *c = json_pack("{sssssssssososss{s{ssss}s{ss}}sos[o{ssss}]}", "name", NAME, "image",
			      p->q->image, "imagePullPolicy", "IfNotPresent", "workingDir",
			      RESULTS_MOUNT, "env", env, "securityContext", security_context(),
			      "terminationMessagePolicy", "FallbackToLogsOnError", "resources",
			      "requests", "cpu", "1", "memory", "256Mi", "limits", "memory", "1Gi",
			      "volumeDevices", devices, "volumeMounts", config, "name", "results",
			      "mountPath", RESULTS_MOUNT);
	if (c && json_array_size(args))
		json_object_set(c, "args", args);
	json_decref(args);
	return c;
}

static json_t *pod_volumes(const struct k8s_parts *p)
{
	json_t *list = json_array();
	for (size_t i = 0; i < p->q->volume_count; i++) {
		char name[32], claim_name[96];
		snprintf(name, sizeof(name), "vol%zu", i);
		volume_name(claim_name, sizeof(claim_name), p, i);
		/* A fleet pod's own fresh volumes, made for it and deleted with
		 * it; one run's are the PVCs. */
		json_t *v = p->q->fleet
				    ? json_pack("{sss{s{s{so}so}}}", "name", name, "ephemeral",
						"volumeClaimTemplate", "metadata", "labels",
						json_deep_copy(p->labels), "spec", claim_spec(p, i))
				    : json_pack("{sss{ss}}", "name", name, "persistentVolumeClaim",
						"claimName", claim_name);
		json_array_append_new(list, v);
	}
	/* 0400: the config holds the POST policy. */
	json_t *source = json_pack("{sssi}", "secretName", p->run, "defaultMode", 0400);
	if (!p->q->fleet)
		json_object_set_new(
			source, "items",
			json_pack("[{ssss}]", "key", "config.json", "path", "config.json"));
	json_array_append_new(list, json_pack("{ssso}", "name", "config", "secret", source));
	json_array_append_new(
		list, json_pack("{sss{ss}}", "name", "results", "emptyDir", "sizeLimit", "1Gi"));
	return list;
}

static json_t *pod_spec(const struct k8s_parts *p)
{
	/* Never two ebsbench pods on a node: they would share its EBS limit.
	 * Every run has its own namespace, and a term without a
	 * namespaceSelector matches only the pod's own: {} matches all. */
	json_t *anti = json_pack("{s{s[{s{s{ss}}s{}ss}]}}", "podAntiAffinity",
				 "requiredDuringSchedulingIgnoredDuringExecution", "labelSelector",
				 "matchLabels", "app.kubernetes.io/name", NAME, "namespaceSelector",
				 "topologyKey", "kubernetes.io/hostname");
	json_t *spec = json_pack("{sssisOsosbsbs[o]so}", "restartPolicy", "Never",
				 "terminationGracePeriodSeconds", LAUNCH_GRACE_S, "nodeSelector",
				 p->node_selector, "affinity", anti, "automountServiceAccountToken",
				 false, "enableServiceLinks", false, "containers", container(p),
				 "volumes", pod_volumes(p));
	if (spec && json_array_size(p->tolerations))
		json_object_set(spec, "tolerations", p->tolerations);
	return spec;
}

static json_t *job(const struct k8s_parts *p)
{
	/* A day to read the logs (a fleet: an hour).  do-not-disrupt:
	 * consolidation evicted the seed's first run at minute 8. */
	json_t *spec = json_pack(
		"{sIsis{s{sOs{ssss}}so}}", "activeDeadlineSeconds", (json_int_t)p->deadline_s,
		"ttlSecondsAfterFinished", p->q->fleet ? 3600 : 86400, "template", "metadata",
		"labels", p->labels, "annotations", "karpenter.sh/do-not-disrupt", "true",
		"cluster-autoscaler.kubernetes.io/safe-to-evict", "false", "spec", pod_spec(p));
	json_t *retry =
		p->q->fleet
			/* A pod per index, each on its own node; a failed index
			 * is not retried and does not end the others
			 * (backoffLimit 0 would kill every measurement running
			 * at the first failure). */
			? json_pack("{sssisisi}", "completionMode", "Indexed", "completions",
				    (int)p->q->fleet, "parallelism", (int)p->q->fleet,
				    "backoffLimitPerIndex", 0)
			/* One replacement pod for a lost one (a node gone, a
			 * SIGKILL): it continues the run (run --resume=auto,
			 * from S3's results.json) on the same volumes.  A pod
			 * evicted or preempted (DisruptionTarget: a drain, a
			 * consolidation; ebsbench stopped, exit 5) is replaced
			 * without counting against that one.  An exit of
			 * ebsbench's own (a failed phase, a config error, a
			 * refusal, a failed upload) is a verdict a retry
			 * would only repeat or hide: it fails the Job. */
			: json_pack("{sis{s[{sss[{ss}]}{sss{sssss[iiii]}}]}}", "backoffLimit", 1,
				    "podFailurePolicy", "rules", "action", "Ignore",
				    "onPodConditions", "type", "DisruptionTarget", "action",
				    "FailJob", "onExitCodes", "containerName", NAME, "operator",
				    "In", "values", 1, 2, 3, 4);
	if (spec && retry)
		json_object_update(spec, retry);
	json_decref(retry);
	return json_pack("{sssssoso}", "apiVersion", "batch/v1", "kind", "Job", "metadata",
			 metadata(p, p->run, true), "spec", spec);
}

static json_t *namespace_object(const struct k8s_parts *p)
{
	json_t *m = metadata(p, p->namespace, false);
	/* Pod Security must admit CAP_SYS_ADMIN here. */
	json_object_set_new(json_object_get(m, "labels"), "pod-security.kubernetes.io/enforce",
			    json_string("privileged"));
	return json_pack("{ssssso}", "apiVersion", "v1", "kind", "Namespace", "metadata", m);
}

/* The objects in apply order: the namespace (only the run's own: one
 * named by --namespace is the user's, and `kubectl delete -f` must not
 * take it) and classes before what uses them, the Job last. */
static json_t *objects(const struct k8s_parts *p)
{
	json_t *items = json_array();
	if (p->own_namespace)
		json_array_append_new(items, namespace_object(p));
	for (size_t i = 0; i < p->q->volume_count; i++)
		json_array_append_new(items, storage_class(p, i));
	for (size_t i = 0; !p->q->fleet && i < p->q->volume_count; i++)
		json_array_append_new(items, claim(p, i));
	json_array_append_new(items, secret(p));
	json_array_append_new(items, job(p));
	/* An object that could not be made was not appended. */
	if (json_array_size(items) !=
	    2 + p->own_namespace + (p->q->fleet ? 1 : 2) * p->q->volume_count) {
		json_decref(items);
		return NULL;
	}
	return json_pack("{sssss{}so}", "apiVersion", "v1", "kind", "List", "metadata", "items",
			 items);
}

/* Where the pod may go: the instance type's nodes (and Linux), narrowed by
 * --node-selector, and the taints --toleration lets it onto.  0, or -1
 * naming the option at fault. */
static int scheduling(struct k8s_parts *p, char *err, size_t errlen)
{
	const struct k8s_request *q = p->q;
	p->tolerations = json_array();
	p->node_selector = json_pack("{ssss}", "node.kubernetes.io/instance-type", q->instance_type,
				     "kubernetes.io/os", "linux");
	if (!p->tolerations || !p->node_selector)
		return error_set(err, errlen, "out of memory");
	for (size_t i = 0; i < q->toleration_count; i++) {
		json_t *t = k8s_toleration(q->tolerations[i], err, errlen);
		if (!t)
			return -1;
		json_array_append_new(p->tolerations, t);
	}
	for (size_t i = 0; i < q->node_selector_count; i++) {
		char key[318];
		const char *value;
		if (k8s_node_selector(q->node_selectors[i], key, &value, err, errlen))
			return -1;
		if (json_object_get(p->node_selector, key))
			return error_set(err, errlen,
					 "--node-selector '%s': %s is chosen already (by "
					 "--instance-type, the OS or another --node-selector)",
					 q->node_selectors[i], key);
		json_object_set_new(p->node_selector, key, json_string(value));
	}
	return 0;
}

/* Everything checked and signed into p and made; -1 with a reason. */
static int prepare(struct k8s_parts *p, struct k8s_made *made, char *err, size_t errlen)
{
	const struct k8s_request *q = p->q;
	if (!q->volume_count)
		return error_set(err, errlen, "no --volume: give at least one, like gp3:100");
	if (q->fleet > K8S_FLEET_MAX)
		return error_set(err, errlen, "--fleet %u: at most %d pods", q->fleet,
				 K8S_FLEET_MAX);
	if (k8s_image_digest(q->image, p->digest, err, errlen) ||
	    launch_parse_s3(q->s3, made->bucket, made->prefix, sizeof(made->prefix), err, errlen) ||
	    (q->namespace && k8s_check_namespace(q->namespace, err, errlen)) ||
	    k8s_check_name("--instance-type", q->instance_type, true, err, errlen))
		return -1;
	if (scheduling(p, err, errlen))
		return -1;
	made->unknown_instance =
		ebs_instance_limits_find(q->instance_type) ? NULL : q->instance_type;
	struct launch_config lc = { .file = q->config,
				    .instance_type = q->instance_type,
				    .region = q->region,
				    .output_dir = RESULTS_MOUNT "/results",
				    .plan = q->plan,
				    .volumes = q->volumes,
				    .volume_count = q->volume_count,
				    .path = device_path };
	p->config = launch_config(&lc, err, errlen);
	if (!p->config)
		return -1;
	if (launch_plan_seconds(p->config, &made->planned_s, err, errlen))
		return -1;
	p->deadline_s = made->deadline_s = launch_deadline_s(made->planned_s);
	return sign(p, made, err, errlen);
}

json_t *k8s_manifest(const struct k8s_request *q, struct k8s_made *made, char *err, size_t errlen)
{
	struct k8s_parts p = { .q = q };
	json_t *list = NULL;
	double planned_s;

	memset(made, 0, sizeof(*made));
	err[0] = '\0';
	if (!prepare(&p, made, err, errlen)) {
		/* Parse the config once more, upload block included: what the
		 * Secret holds is what `ebsbench run` accepts. */
		if (!launch_plan_seconds(p.config, &planned_s, err, errlen)) {
			/* A namespace of its own unless told: `kubectl delete -f`
			 * deletes the Namespace, and with it whatever else is in
			 * it, so a shared default would take other runs along. */
			p.own_namespace = !q->namespace;
			p.namespace = q->namespace ? q->namespace : p.run;
			p.labels = json_pack("{ssssss}", "app.kubernetes.io/name", NAME,
					     "app.kubernetes.io/instance", p.run,
					     "app.kubernetes.io/managed-by", NAME);
			list = p.labels ? objects(&p) : NULL;
			if (!list && !err[0])
				snprintf(err, errlen, "out of memory");
		}
	}
	snprintf(made->run, sizeof(made->run), "%s", p.run);
	snprintf(made->namespace, sizeof(made->namespace), "%s", p.namespace ? p.namespace : "");
	made->own_namespace = p.own_namespace;
	json_decref(p.labels);
	json_decref(p.config);
	json_decref(p.tolerations);
	json_decref(p.node_selector);
	return list;
}
