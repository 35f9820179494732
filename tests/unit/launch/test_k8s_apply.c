/* test_k8s_apply.c - what `ebsbench k8s --apply` reads from the cluster:
 * the Job's state from `kubectl get job -o json` (its conditions, else its
 * ready or active pods), a failed Job's reason, and the pod's progress
 * lines turned into the phase, percent and ETA it shows. */
#include <jansson.h>
#include <string.h>

#include "check.h"
#include "lib/lib.h"
#include "launch/k8s_apply.h"
#include "launch/internal.h"

static enum k8s_job_state state_of(const char *text, char *why, size_t cap)
{
	json_t *job = json_loads(text, 0, NULL);
	enum k8s_job_state s = k8s_apply_job_state(job, why, cap);
	json_decref(job);
	return s;
}

static void test_job_state(struct checks *checks)
{
	char why[256];
	CHECK(state_of("{\"status\": {}}", why, sizeof(why)) == K8S_JOB_PENDING);
	CHECK(state_of("{\"status\": {\"active\": 1, \"ready\": 0}}", why, sizeof(why)) ==
	      K8S_JOB_PENDING);
	CHECK(state_of("{\"status\": {\"active\": 1, \"ready\": 1}}", why, sizeof(why)) ==
	      K8S_JOB_RUNNING);
	/* A cluster without status.ready: an active pod counts as running. */
	CHECK(state_of("{\"status\": {\"active\": 1}}", why, sizeof(why)) == K8S_JOB_RUNNING);
	CHECK(state_of("{\"status\": {\"succeeded\": 1, \"conditions\": [{\"type\": \"Complete\", "
		       "\"status\": \"True\"}]}}",
		       why, sizeof(why)) == K8S_JOB_COMPLETE);
	CHECK(state_of("{\"status\": {\"active\": 1, \"conditions\": [{\"type\": \"Failed\", "
		       "\"status\": \"False\"}]}}",
		       why, sizeof(why)) == K8S_JOB_RUNNING);
	CHECK(state_of(
		      "{\"status\": {\"conditions\": [{\"type\": \"Failed\", \"status\": \"True\", "
		      "\"reason\": \"DeadlineExceeded\", \"message\": \"Job was active longer "
		      "than specified deadline\"}]}}",
		      why, sizeof(why)) == K8S_JOB_FAILED);
	CHECK(!strcmp(why, "DeadlineExceeded: Job was active longer than specified deadline"));
}

static void test_progress(struct checks *checks)
{
	char out[256];
	CHECK(k8s_apply_progress("ebsbench: [3/12] randread gp3 /dev/xvdc: 2900 IOPS now, 120.0 "
				 "MiB done, 45%, ETA 0:10:00",
				 out, sizeof(out)) == 0);
	CHECK(!strcmp(out, "[3/12] randread gp3 /dev/xvdc 45%, ETA 0:10:00"));
	/* A label with ": " in it ends at the last one. */
	CHECK(k8s_apply_progress("ebsbench: a: b: 1 IOPS now, 0.0 MiB done, 0%, ETA 1:00:00", out,
				 sizeof(out)) == 0);
	CHECK(!strcmp(out, "a: b 0%, ETA 1:00:00"));
	CHECK(k8s_apply_progress("ebsbench run: 2 devices, 12 phases", out, sizeof(out)) == -1);
	CHECK(k8s_apply_progress("ebsbench: x: 5 IOPS now, truncated", out, sizeof(out)) == -1);
	CHECK(k8s_apply_progress("", out, sizeof(out)) == -1);
}

CHECK_MAIN(test_job_state, test_progress)
