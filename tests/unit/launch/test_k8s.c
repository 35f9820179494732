/* test_k8s.c - what `ebsbench k8s` reads and writes: volume specs checked
 * against the EBS model (each type's own fields, its limits), an image
 * pinned by digest, s3://BUCKET/PREFIX, Kubernetes names, the deadline
 * formula; and the manifest: its objects and names, the Secret's config
 * read back by the config parser, one error line per bad input. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/lib.h"
#include "run/run.h"
#include "launch/launch.h"
#include "launch/internal.h"

#define DIGEST "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

static void test_volume_specs(struct checks *checks)
{
	static const struct {
		const char *spec;
		enum ebs_type type;
		double size, iops, mibs;
	} good[] = {
		{ "gp2:100", EBS_GP2, 100, 0, 0 },
		{ "gp3:100", EBS_GP3, 100, 3000, 125 }, /* the type's defaults */
		{ "gp3:500:6000", EBS_GP3, 500, 6000, 125 },
		{ "gp3:100:3000:250", EBS_GP3, 100, 3000, 250 },
		{ "io1:100:5000", EBS_IO1, 100, 5000, 0 },
		{ "io2:100:64000", EBS_IO2, 100, 64000, 0 },
		{ "st1:125", EBS_ST1, 125, 0, 0 },
		{ "SC1:125", EBS_SC1, 125, 0, 0 },
	};
	char err[256];
	for (size_t i = 0; i < ARRAY_SIZE(good); i++) {
		struct ebs_volume v;
		if (!CHECK(launch_parse_volume(good[i].spec, &v, err, sizeof(err)) == 0)) {
			fprintf(stderr, "  %s: %s\n", good[i].spec, err);
			continue;
		}
		CHECK(v.type == good[i].type);
		CHECK_NEAR(v.size_gib, good[i].size, 0);
		CHECK_NEAR(v.iops, good[i].iops, 0);
		CHECK_NEAR(v.throughput_mibs, good[i].mibs, 0);
	}
	/* Each refused with the reason in its one line. */
	static const struct {
		const char *spec, *why;
	} bad[] = {
		{ "gp3", "want TYPE:SIZE" },
		{ "gp9:100", "unknown type 'gp9'" },
		{ "gp3:", "no size" },
		{ "gp3:100:", "ends in ':'" },
		{ "gp3:0", "size (GiB) is not a whole number" },
		{ "gp3:1.5", "size (GiB) is not a whole number" },
		{ "gp3:-1", "size (GiB) is not a whole number" },
		{ "gp3:100:x", "IOPS is not a whole number" },
		{ "gp3:100:3000:125:1", "more than TYPE:SIZE:IOPS:MIBPS" },
		{ "gp2:100:300", "gp2's IOPS and throughput follow its size" },
		{ "io1:100", "io1 needs its IOPS" },
		{ "io2:100:3000:500", "io2's throughput follows its IOPS" },
		{ "gp3:100:100", "gp3: 100 IOPS outside 3000..80000" },
		{ "gp3:100:3000:1000", "gp3: 1000 MiB/s above 0.25 MiB/s per IOPS" },
		{ "gp3:100:60000", "above 500 per GiB of 100 GiB" },
		{ "gp2:70000", "gp2: 70000 GiB outside 1..16384 GiB" },
		{ "st1:100", "st1: 100 GiB outside 125.." },
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct ebs_volume v;
		err[0] = '\0';
		CHECK(launch_parse_volume(bad[i].spec, &v, err, sizeof(err)) == -1);
		if (!CHECK(strstr(err, bad[i].why) && !strchr(err, '\n')))
			fprintf(stderr, "  %s: got '%s', want '%s'\n", bad[i].spec, err,
				bad[i].why);
	}
}

static void test_image_s3_names(struct checks *checks)
{
	char digest[72], bucket[64], prefix[256], err[256];
	CHECK(k8s_image_digest("reg.example/ebsbench:0.1.0@" DIGEST, digest, err, sizeof(err)) ==
	      0);
	CHECK(!strcmp(digest, DIGEST));
	static const char *const unpinned[] = {
		"reg.example/ebsbench:0.1.0",
		"reg.example/ebsbench@sha256:0123",
		"@" DIGEST,
		"reg.example/"
		"ebsbench@sha256:0123456789ABCDEF0123456789abcdef0123456789abcdef012345678"
		"9abcdef",
		"reg.example/ebsbench@" DIGEST "0",
	};
	for (size_t i = 0; i < ARRAY_SIZE(unpinned); i++) {
		CHECK(k8s_image_digest(unpinned[i], digest, err, sizeof(err)) == -1);
		CHECK(strstr(err, "pin it by digest") != NULL);
	}

	CHECK(launch_parse_s3("s3://my-bucket/runs/x/", bucket, prefix, sizeof(prefix), err,
			      sizeof(err)) == 0);
	CHECK(!strcmp(bucket, "my-bucket") && !strcmp(prefix, "runs/x/"));
	static const char *const not_s3[] = { "https://my-bucket/x", "s3://my-bucket",
					      "s3://my-bucket/", "s3:///x" };
	for (size_t i = 0; i < ARRAY_SIZE(not_s3); i++) {
		CHECK(launch_parse_s3(not_s3[i], bucket, prefix, sizeof(prefix), err,
				      sizeof(err)) == -1);
		CHECK(strstr(err, "want s3://BUCKET/PREFIX") != NULL);
	}
	CHECK(launch_parse_s3("s3://My_Bucket/x", bucket, prefix, sizeof(prefix), err,
			      sizeof(err)) == -1);
	CHECK(!strcmp(err, "--s3 's3://My_Bucket/x': 'My_Bucket' is not a bucket name: S3 bucket "
			   "names are 3-63 of a-z, 0-9, '.' and '-', starting and ending with a "
			   "letter or digit"));

	CHECK(k8s_check_name("--namespace", "ebsbench-2", false, err, sizeof(err)) == 0);
	CHECK(k8s_check_name("--namespace", "EBSbench", false, err, sizeof(err)) == -1);
	CHECK(k8s_check_name("--namespace", "-x", false, err, sizeof(err)) == -1);
	CHECK(k8s_check_name("--instance-type", "m5.xlarge", true, err, sizeof(err)) == 0);
	CHECK(k8s_check_name("--instance-type", "m5 xlarge", true, err, sizeof(err)) == -1);
	CHECK(strstr(err, "--instance-type 'm5 xlarge': not a Kubernetes label value") != NULL);
}

/* image/k8s/README.md, Durations: plan x 1.1 + 900 s + 600 s. */
static void test_deadline(struct checks *checks)
{
	CHECK_EQ_U64(launch_deadline_s(4075), 4483 + 900 + 600);
	CHECK_EQ_U64(launch_deadline_s(1000), 1100 + 1500);
	CHECK_EQ_U64(launch_deadline_s(0), 1500);
	CHECK_EQ_U64(launch_expires_s(5983), 5983 + 600 + 300);
}

static json_t *item(json_t *list, const char *kind, size_t nth)
{
	size_t i, seen = 0;
	json_t *o;
	json_array_foreach(json_object_get(list, "items"), i, o)
	{
		if (!strcmp(json_string_value(json_object_get(o, "kind")), kind) && seen++ == nth)
			return o;
	}
	return NULL;
}

static const char *str_at(json_t *o, const char *path)
{
	char key[64];
	while (o && *path) {
		size_t n = strcspn(path, "/");
		snprintf(key, sizeof(key), "%.*s", (int)n, path);
		o = json_is_array(o) ? json_array_get(o, (size_t)atoi(key))
				     : json_object_get(o, key);
		path += n + (path[n] == '/');
	}
	return json_string_value(o);
}

static void request(struct k8s_request *q)
{
	char err[256];
	*q = (struct k8s_request){ .image = "reg.example/ebsbench:0.1.0@" DIGEST,
				   .s3 = "s3://my-bucket/runs/x",
				   .region = "ap-northeast-2",
				   .instance_type = "m5.xlarge",
				   .namespace = "bench" };
	launch_parse_volume("gp3:100", &q->volumes[0], err, sizeof(err));
	launch_parse_volume("gp2:100", &q->volumes[1], err, sizeof(err));
	q->volume_count = 2;
}

static void test_manifest(struct checks *checks)
{
	struct k8s_request q;
	struct k8s_made made;
	char err[512];
	request(&q);
	setenv("AWS_ACCESS_KEY_ID", "AKIAEBSBENCHK8STEST1", 1);
	setenv("AWS_SECRET_ACCESS_KEY", "k8s/Secret+Key/ebsbench000000000000000000", 1);
	setenv("EBSBENCH_PRESIGN_TIME", "20260902T000000Z", 1);
	json_t *list = k8s_manifest(&q, &made, err, sizeof(err));
	if (!CHECK(list != NULL)) {
		fprintf(stderr, "  %s\n", err);
		return;
	}
	/* The signing time, then five random letters and digits. */
	CHECK(!strncmp(made.run, "ebsbench-20260902-000000-", 25) && strlen(made.run) == 30 &&
	      strspn(made.run + 25, "abcdefghijklmnopqrstuvwxyz0123456789") == 5);
	char first[64], name[96];
	snprintf(first, sizeof(first), "%s", made.run);
	CHECK(made.planned_s > 4000);
	CHECK_EQ_U64(made.deadline_s, launch_deadline_s(made.planned_s));
	CHECK_EQ_U64(made.expires, 1788307200 + launch_expires_s(made.deadline_s));
	/* --namespace bench is the user's: no Namespace object in the List. */
	CHECK_EQ_U64(json_array_size(json_object_get(list, "items")), 6);
	CHECK(!item(list, "Namespace", 0) && !made.own_namespace);
	snprintf(name, sizeof(name), "%s-0-gp3", made.run);
	CHECK(!strcmp(str_at(item(list, "StorageClass", 0), "metadata/name"), name));
	CHECK(!strcmp(str_at(item(list, "StorageClass", 0), "parameters/iops"), "3000"));
	CHECK(!strcmp(str_at(item(list, "StorageClass", 1), "parameters/type"), "gp2"));
	CHECK(!str_at(item(list, "StorageClass", 1), "parameters/iops"));
	snprintf(name, sizeof(name), "%s-1-gp2", made.run);
	CHECK(!strcmp(str_at(item(list, "PersistentVolumeClaim", 1), "spec/storageClassName"),
		      name));
	json_t *job = item(list, "Job", 0);
	CHECK(!strcmp(str_at(job, "metadata/namespace"), "bench"));
	CHECK(!strcmp(str_at(job, "spec/template/spec/containers/0/env/0/value"), DIGEST));
	CHECK_EQ_U64(json_integer_value(json_object_get(json_object_get(job, "spec"),
							"activeDeadlineSeconds")),
		     made.deadline_s);
	/* The Secret's config is what `ebsbench run` accepts. */
	struct run_config c;
	config_defaults(&c);
	json_t *cfg =
		json_loads(str_at(item(list, "Secret", 0), "stringData/config.json"), 0, NULL);
	CHECK(config_from_json(&c, cfg, err, sizeof(err)) == 0);
	CHECK(!strcmp(c.devices[1].path, "/dev/xvdc") && c.devices[1].type == EBS_GP2);
	CHECK(c.upload.mode == UPLOAD_POST);
	/* A lost pod's replacement continues the run: results.json's GET for
	 * run --resume=auto, one retry, and none for ebsbench's own exits. */
	CHECK(c.upload.resume_get && strstr(c.upload.resume_get, "/runs/x/results.json?") &&
	      strstr(c.upload.resume_get, "X-Amz-Signature="));
	CHECK(!strcmp(str_at(job, "spec/template/spec/containers/0/args/0"), "--resume=auto"));
	json_t *jspec = json_object_get(job, "spec");
	CHECK_EQ_U64(json_integer_value(json_object_get(jspec, "backoffLimit")), 1);
	/* An evicted pod (DisruptionTarget) replaced uncounted, first. */
	CHECK(!strcmp(str_at(job, "spec/podFailurePolicy/rules/0/action"), "Ignore"));
	CHECK(!strcmp(str_at(job, "spec/podFailurePolicy/rules/0/onPodConditions/0/type"),
		      "DisruptionTarget"));
	CHECK(!strcmp(str_at(job, "spec/podFailurePolicy/rules/1/action"), "FailJob"));
	CHECK(!strcmp(str_at(job, "spec/podFailurePolicy/rules/1/onExitCodes/containerName"),
		      "ebsbench"));
	json_t *codes = json_object_get(
		json_object_get(
			json_array_get(json_object_get(json_object_get(jspec, "podFailurePolicy"),
						       "rules"),
				       1),
			"onExitCodes"),
		"values");
	CHECK_EQ_U64(json_array_size(codes), 4);
	CHECK_EQ_U64(json_integer_value(json_array_get(codes, 1)), 2);
	config_free(&c);
	json_decref(cfg);
	json_decref(list);

	/* A fleet: no PVC objects, a config per index under its own prefix. */
	q.fleet = 2;
	list = k8s_manifest(&q, &made, err, sizeof(err));
	CHECK_EQ_U64(json_array_size(json_object_get(list, "items")), 4);
	/* Signed in the same second as the first: another run all the same. */
	CHECK(strcmp(made.run, first) != 0);
	CHECK(!item(list, "PersistentVolumeClaim", 0));
	json_t *data = json_object_get(item(list, "Secret", 0), "stringData");
	CHECK_EQ_U64(json_object_size(data), 2);
	cfg = json_loads(json_string_value(json_object_get(data, "config-1.json")), 0, NULL);
	CHECK(!strcmp(str_at(cfg, "upload/post/key_prefix"), "runs/x/1/"));
	/* A fleet pod is not retried: no resume, no GET of another's results. */
	CHECK(!json_object_get(json_object_get(cfg, "upload"), "resume_get"));
	json_decref(cfg);
	CHECK(!strcmp(str_at(item(list, "Job", 0), "spec/completionMode"), "Indexed"));
	CHECK(!json_object_get(json_object_get(item(list, "Job", 0), "spec"), "backoffLimit"));
	CHECK(!str_at(item(list, "Job", 0), "spec/template/spec/containers/0/args/0"));
	json_decref(list);
	q.fleet = K8S_FLEET_MAX + 1;
	CHECK(k8s_manifest(&q, &made, err, sizeof(err)) == NULL);
	CHECK(!strcmp(err, "--fleet 101: at most 100 pods"));
	q.fleet = 0;

	/* No --namespace: the run's own, named as the run, so `kubectl delete
	 * -f` takes no other run's objects along. */
	q.namespace = NULL;
	list = k8s_manifest(&q, &made, err, sizeof(err));
	CHECK(list != NULL);
	CHECK(!strcmp(str_at(item(list, "Namespace", 0), "metadata/name"), made.run));
	CHECK(made.own_namespace);
	json_t *labels =
		json_object_get(json_object_get(item(list, "Namespace", 0), "metadata"), "labels");
	CHECK(!strcmp(json_string_value(json_object_get(labels, "app.kubernetes.io/managed-by")),
		      "ebsbench"));
	CHECK(!strcmp(str_at(item(list, "Job", 0), "metadata/namespace"), made.run));
	CHECK(!strcmp(made.namespace, made.run));
	json_decref(list);

	/* Kubernetes' own namespaces are refused. */
	q.namespace = "kube-system";
	CHECK(k8s_manifest(&q, &made, err, sizeof(err)) == NULL);
	CHECK(!strncmp(err, "--namespace 'kube-system': Kubernetes' own namespace", 52));
	q.namespace = NULL;

	/* Half a key pair: presign's reason, and no manifest. */
	unsetenv("AWS_SECRET_ACCESS_KEY");
	CHECK(k8s_manifest(&q, &made, err, sizeof(err)) == NULL);
	CHECK(!strcmp(err, "AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not"));
}

CHECK_MAIN(test_volume_specs, test_image_s3_names, test_deadline, test_manifest)
