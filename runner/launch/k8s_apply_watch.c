/* k8s_apply_watch.c - while the Job runs: its state from `kubectl get job`
 * every few seconds, the pod's progress from `kubectl logs -f` (a child
 * whose stdout is read line by line), one line on stderr saying both
 * (redrawn in place on a terminal, a new line when it changes
 * elsewhere); and the graceful stop after Ctrl-C. */
#include "launch/k8s_apply.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "launch/launch.h"
#include "launch/launch_line.h"
#include "lib/lib.h"
#include "launch/child.h"
#include "launch/internal.h"

/* Seconds between `kubectl get job` calls (EBSBENCH_K8S_POLL_S: tests). */
#define POLL_S 5
/* Consecutive failed `get job` calls before the watch gives up. */
#define GET_TRIES 5
/* After the pod was told to stop: its grace period, and a minute for the
 * node to report it gone. */
#define STOP_WAIT_S (LAUNCH_GRACE_S + 60)

static const char *const state_names[] = { "pending", "running", "complete", "failed" };

static unsigned poll_seconds(void)
{
	const char *env = getenv("EBSBENCH_K8S_POLL_S");
	unsigned s = env ? (unsigned)strtoul(env, NULL, 10) : POLL_S;
	return s ? s : 1;
}

enum k8s_job_state k8s_apply_job_state(const json_t *job, char *why, size_t cap)
{
	json_t *status = json_object_get(job, "status");
	size_t i;
	json_t *c;
	why[0] = '\0';
	json_array_foreach(json_object_get(status, "conditions"), i, c)
	{
		const char *type = json_string_value(json_object_get(c, "type"));
		const char *is = json_string_value(json_object_get(c, "status"));
		if (!type || !is || strcmp(is, "True"))
			continue;
		if (!strcmp(type, "Complete"))
			return K8S_JOB_COMPLETE;
		if (!strcmp(type, "Failed")) {
			const char *reason = json_string_value(json_object_get(c, "reason"));
			const char *msg = json_string_value(json_object_get(c, "message"));
			snprintf(why, cap, "%s%s%s", reason ? reason : "",
				 reason && msg ? ": " : "", msg ? msg : "");
			return K8S_JOB_FAILED;
		}
	}
	json_t *ready = json_object_get(status, "ready");
	json_int_t running = json_integer_value(ready ? ready : json_object_get(status, "active"));
	return running > 0 ? K8S_JOB_RUNNING : K8S_JOB_PENDING;
}

int k8s_apply_progress(const char *line, char *out, size_t cap)
{
	static const char head[] = "ebsbench: ";
	const char *iops = strstr(line, " IOPS now, ");
	if (strncmp(line, head, sizeof(head) - 1) || !iops)
		return -1;
	/* The label ends at the last ": " before the IOPS figure. */
	const char *label = line + sizeof(head) - 1, *end = NULL;
	for (const char *s = label; (s = strstr(s, ": ")) && s < iops; s += 2)
		end = s;
	const char *pct = strstr(iops, " MiB done, ");
	const char *eta = pct ? strstr(pct, "%, ETA ") : NULL;
	if (!end || !pct || !eta)
		return -1;
	pct += strlen(" MiB done, ");
	snprintf(out, cap, "%.*s %.*s%%, ETA %s", (int)(end - label), label, (int)(eta - pct), pct,
		 eta + strlen("%, ETA "));
	return 0;
}

/* The Job's state now.  0, 1 when kubectl failed (the reason in why), -1
 * when the Job is gone (said in w->why). */
static int get_job(const struct kubectl *k, const char *ns, const char *run, struct k8s_watch *w,
		   char *why, size_t cap)
{
	const char *args[] = { "get", "job", "-n", ns, run, "-o", "json", NULL };
	struct child_result res;
	if (kubectl_run(k, args, NULL, 0, &res, why, cap))
		return 1;
	int rc = 0;
	json_t *job = res.status ? NULL : json_loads(res.out, 0, NULL);
	if (job)
		w->state = k8s_apply_job_state(job, w->why, sizeof(w->why));
	else if (strstr(res.why, "NotFound") || strstr(res.why, "not found")) {
		w->state = K8S_JOB_FAILED;
		snprintf(w->why, sizeof(w->why), "the Job is gone (deleted by someone else?)");
		rc = -1;
	} else {
		snprintf(why, cap, "%s", res.status ? res.why : "its reply is not JSON");
		rc = 1;
	}
	json_decref(job);
	child_result_free(&res);
	return rc;
}

/* What the watch reads and shows. */
struct view {
	struct k8s_watch *w;
	struct child logs;
	char buf[8192];
	size_t len;
	char phase[512];
	struct launch_line line;
	bool log_ended; /* its stdout closed: the pod may have ended */
};

static void show(struct view *v)
{
	char line[640];
	bool phase = v->phase[0] && v->w->state < K8S_JOB_COMPLETE;
	snprintf(line, sizeof(line), "ebsbench k8s: Job %s%s%s", state_names[v->w->state],
		 phase ? ", " : "", phase ? v->phase : "");
	launch_line_show(&v->line, line);
}

/* One line of the pod's log: progress, else kept among the last lines. */
static void log_line(struct view *v, char *line)
{
	line[strcspn(line, "\r")] = '\0';
	if (!line[0] || !k8s_apply_progress(line, v->phase, sizeof(v->phase)))
		return;
	memmove(v->w->last[0], v->w->last[1], sizeof(v->w->last[0]) * 2);
	snprintf(v->w->last[2], sizeof(v->w->last[2]), "%s", line);
}

/* Reads what the log child has, for up to ms; its end closes it. */
static void read_logs(struct view *v, int ms)
{
	struct pollfd p = { v->logs.out, POLLIN, 0 };
	if (v->logs.out < 0) {
		poll(NULL, 0, ms);
		return;
	}
	if (poll(&p, 1, ms) <= 0)
		return;
	ssize_t n = read(v->logs.out, v->buf + v->len, sizeof(v->buf) - 1 - v->len);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		child_stop(&v->logs);
		v->log_ended = true;
		return;
	}
	v->len += (size_t)n;
	v->buf[v->len] = '\0';
	char *start = v->buf, *nl;
	while ((nl = strchr(start, '\n'))) {
		*nl = '\0';
		log_line(v, start);
		start = nl + 1;
	}
	v->len = strlen(start);
	if (v->len == sizeof(v->buf) - 1) /* a line longer than the buffer: dropped */
		v->len = 0;
	memmove(v->buf, start, v->len + 1);
}

/* A failed Job whose log was never read: its last lines, once. */
static void last_lines(const struct kubectl *k, const char *ns, const char *run, struct view *v)
{
	char job[128], err[256];
	snprintf(job, sizeof(job), "job/%s", run);
	const char *args[] = { "logs", "-n", ns, job, "--tail=3", NULL };
	struct child_result res;
	if (kubectl_run(k, args, NULL, 0, &res, err, sizeof(err)))
		return;
	char *save = NULL;
	for (char *line = strtok_r(res.out, "\n", &save); line && !res.status;
	     line = strtok_r(NULL, "\n", &save))
		log_line(v, line);
	child_result_free(&res);
}

int k8s_apply_watch(const struct kubectl *k, const char *namespace, const char *run,
		    struct k8s_watch *w, const volatile sig_atomic_t *stop)
{
	struct view *v = calloc(1, sizeof(*v));
	char job[128], why[512];
	if (!v)
		return -1;
	memset(w, 0, sizeof(*w));
	v->w = w;
	v->logs = (struct child){ 0, -1 };
	launch_line_init(&v->line);
	snprintf(job, sizeof(job), "job/%s", run);
	const char *logs_args[] = { "logs", "-f", "-n", namespace, job, NULL };
	unsigned poll_s = poll_seconds(), failures = 0;
	time_t next_get = 0, next_logs = 0;
	int rc = 0;
	while (!(w->stopped = *stop)) {
		time_t now = time(NULL);
		if (now >= next_get) {
			int got = get_job(k, namespace, run, w, why, sizeof(why));
			next_get = now + poll_s;
			failures = got > 0 ? failures + 1 : 0;
			if (failures >= GET_TRIES) {
				launch_line_end(&v->line);
				fprintf(stderr, "ebsbench k8s: kubectl get job %s failed: %s\n",
					run, why);
				rc = -1;
				break;
			}
		}
		if (w->state >= K8S_JOB_COMPLETE)
			break;
		/* The log once the pod runs; again if it ended early. */
		if (!v->logs.pid && w->state == K8S_JOB_RUNNING && now >= next_logs) {
			next_logs = now + poll_s;
			if (kubectl_start(k, logs_args, &v->logs, why, sizeof(why)))
				v->logs = (struct child){ 0, -1 };
		}
		read_logs(v, 1000);
		if (v->log_ended) {
			/* Ask the Job at once; the log again only if it still runs. */
			v->log_ended = false;
			next_get = 0;
			next_logs = time(NULL) + poll_s;
		}
		show(v);
	}
	/* The log's last lines, which say why a run failed. */
	for (int i = 0; i < 20 && v->logs.out >= 0 && !w->stopped; i++)
		read_logs(v, 100);
	if (w->state == K8S_JOB_FAILED && !w->last[2][0])
		last_lines(k, namespace, run, v);
	child_stop(&v->logs);
	show(v);
	launch_line_end(&v->line);
	free(v);
	return rc;
}

int k8s_apply_stop_job(const struct kubectl *k, const char *namespace, const char *run,
		       struct s3_fetch *s3)
{
	char label[128], err[512];
	snprintf(label, sizeof(label), "job-name=%s", run);
	const char *args[] = {
		"delete", "pod", "-n", namespace, "-l", label, "--wait=false", NULL
	};
	struct child_result res;
	if (kubectl_run(k, args, NULL, 0, &res, err, sizeof(err)) || res.status) {
		fprintf(stderr, "ebsbench k8s: kubectl delete pod -l %s failed: %s\n", label,
			res.out ? res.why : err);
		child_result_free(&res);
		return -1;
	}
	child_result_free(&res);
	fprintf(stderr,
		"ebsbench k8s: stopping: the pod has %d s to end its phase and upload what it "
		"measured\n",
		LAUNCH_GRACE_S);
	unsigned poll_s = poll_seconds(), seen;
	struct k8s_watch w = { .state = K8S_JOB_RUNNING };
	for (time_t start = time(NULL); time(NULL) - start < STOP_WAIT_S; sleep(poll_s)) {
		bool ended = get_job(k, namespace, run, &w, err, sizeof(err)) < 0 ||
			     w.state >= K8S_JOB_COMPLETE;
		int rc = s3_fetch_run_ended(s3, "report.html", "results.json", &seen, err,
					    sizeof(err));
		if (rc)
			return rc < 0 ? (fprintf(stderr, "ebsbench k8s: %s\n", err), -1) : 0;
		if (ended)
			return 0; /* what it uploaded before it ended */
	}
	fprintf(stderr, "ebsbench k8s: the run did not record its upload within %d s\n",
		STOP_WAIT_S);
	return 0;
}
