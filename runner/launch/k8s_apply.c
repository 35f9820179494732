/* k8s_apply.c - `ebsbench k8s --apply`'s course: the manifest, the checks,
 * `kubectl apply`, the watch, the fetch, the cleanup (see k8s_apply.h).
 * The List goes to kubectl on its stdin only; it reaches the disk only
 * as DIR/run.json (0600) with --keep, or when the cleanup failed and the
 * user needs it to delete by hand. */
#include "launch/k8s_apply.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "launch/launch_reader.h"
#include "lib/lib.h"
#include "launch/child.h"
#include "launch/internal.h"

/* Everything one --apply holds. */
struct course {
	const struct k8s_apply *a;
	struct k8s_made made;
	struct launch_reader rd; /* the user's credentials, to read the prefix, and DIR */
	char *list;		 /* the List, as kubectl gets it */
};

/* The List into DIR/run.json, readable by the user alone (it holds the
 * upload policy).  0, or -1 said on stderr. */
static int save_list(const struct course *c, char *path, size_t cap)
{
	snprintf(path, cap, "%s/run.json", c->rd.dir);
	int fd = -1;
	if (mkdir(c->rd.dir, 0755) && errno != EEXIST)
		goto fail;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	size_t len = strlen(c->list);
	if (fd < 0 || fchmod(fd, 0600) || write(fd, c->list, len) != (ssize_t)len)
		goto fail;
	return close(fd) ? -1 : 0;
fail:
	fprintf(stderr, "ebsbench k8s: cannot write %s: %s\n", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	return -1;
}

/* The List to `kubectl ARGS -f -`: 0, or -1 with kubectl's reason. */
static int feed(const struct course *c, const char *verb, const char *extra, const char *extra2,
		char *why, size_t cap)
{
	const char *args[] = { verb, "-f", "-", extra, extra2, NULL };
	struct child_result res;
	if (kubectl_run(&c->a->kube, args, c->list, strlen(c->list), &res, why, cap))
		return -1;
	int rc = res.status ? -1 : 0;
	if (rc)
		snprintf(why, cap, "%s", res.why[0] ? res.why : "it failed");
	child_result_free(&res);
	return rc;
}

/* Everything the List made, deleted (the namespace only when it is the
 * run's own: the List holds no other).  0, or 1 said on stderr. */
static int clean_up(const struct course *c)
{
	char why[512], path[1200];
	if (c->a->keep) {
		snprintf(path, sizeof(path), "%s/run.json", c->rd.dir);
		fprintf(stderr,
			"ebsbench k8s: kept the run's objects: kubectl delete -f %s removes them "
			"(it holds the upload policy: keep it private)\n",
			path);
		return 0;
	}
	if (!feed(c, "delete", "--ignore-not-found", "--wait=false", why, sizeof(why))) {
		fprintf(stderr, "ebsbench k8s: deleted the run's objects%s%s\n",
			c->made.own_namespace ? ", its namespace " : "",
			c->made.own_namespace ? c->made.namespace : "");
		return 0;
	}
	if (save_list(c, path, sizeof(path)))
		return 1;
	fprintf(stderr,
		"ebsbench k8s: kubectl delete failed (%s): kubectl delete -f %s removes the "
		"run's objects, then delete that file (it holds the upload policy)\n",
		why, path);
	return 1;
}

/* Why the Job failed: its condition, and the log's last lines. */
static void say_failed(const struct k8s_watch *w)
{
	fprintf(stderr, "ebsbench k8s: the Job failed: %s\n",
		w->why[0] ? w->why : "no reason given");
	for (int i = 0; i < 3; i++)
		if (w->last[i][0])
			fprintf(stderr, "ebsbench k8s: its log: %s\n", w->last[i]);
}

/* kubectl stopped answering about the Job, which may still run: it is
 * left to end and upload, and the user told how to fetch it and delete
 * its objects.  K8S_APPLY_FAILED. */
static int lost_track(const struct course *c)
{
	char path[1200];
	if (save_list(c, path, sizeof(path)))
		return K8S_APPLY_FAILED;
	fprintf(stderr,
		"ebsbench k8s: lost track of the Job, which may still run: its results, once "
		"uploaded: ebsbench fetch --wait s3://%s/%s %s (with this command's --region, "
		"--profile, --endpoint); then kubectl delete -f %s removes its objects, and delete "
		"that file (it holds the upload policy)\n",
		c->made.bucket, c->rd.r.prefix, c->rd.dir, path);
	return K8S_APPLY_FAILED;
}

/* From the apply to the exit status. */
static int drive(struct course *c, const volatile sig_atomic_t *stop)
{
	const struct k8s_made *m = &c->made;
	char why[512];
	if (feed(c, "apply", NULL, NULL, why, sizeof(why))) {
		fprintf(stderr, "ebsbench k8s: kubectl apply refused the run's objects: %s\n", why);
		clean_up(c);
		return K8S_APPLY_FAILED;
	}
	fprintf(stderr,
		"ebsbench k8s: applied Job %s/%s: plan %.0f s, activeDeadlineSeconds %ld; Ctrl-C "
		"stops it and fetches what it measured\n",
		m->namespace, m->run, m->planned_s, m->deadline_s);
	struct k8s_watch w;
	int rc = K8S_APPLY_OK,
	    watched = k8s_apply_watch(&c->a->kube, m->namespace, m->run, &w, stop);
	if (watched)
		return lost_track(c);
	if (w.stopped && w.state == K8S_JOB_PENDING) {
		/* No pod ran: nothing measured, nothing to wait for. */
		fprintf(stderr, "ebsbench k8s: stopped before the pod ran: nothing measured\n");
		rc = K8S_APPLY_STOPPED;
	} else if (w.stopped) {
		struct s3_fetch f = launch_reader_target(&c->rd);
		k8s_apply_stop_job(&c->a->kube, m->namespace, m->run, &f);
		rc = K8S_APPLY_STOPPED;
	} else if (w.state == K8S_JOB_FAILED) {
		say_failed(&w);
		rc = K8S_APPLY_JOB_FAILED;
	}
	bool measured = !(w.stopped && w.state == K8S_JOB_PENDING);
	if (measured && launch_reader_fetch(&c->rd) && rc == K8S_APPLY_OK)
		rc = K8S_APPLY_FAILED;
	if (clean_up(c) && rc == K8S_APPLY_OK)
		rc = K8S_APPLY_FAILED;
	if (rc == K8S_APPLY_STOPPED)
		fprintf(stderr, "ebsbench k8s: stopped before its end (exit %d)\n", rc);
	return rc;
}

int k8s_apply(const struct k8s_apply *a, const volatile sig_atomic_t *stop)
{
	struct course *c = calloc(1, sizeof(*c));
	char err[1024], path[1200];
	int rc = K8S_APPLY_USAGE;
	if (!c)
		return K8S_APPLY_FAILED;
	c->a = a;
	c->rd = (struct launch_reader){ .who = "ebsbench k8s",
					.bucket = c->made.bucket,
					.region = a->q->region,
					.endpoint = a->q->endpoint,
					.profile = a->q->profile,
					.ca_file = a->ca_file };
	json_t *list = a->q->fleet ? NULL : k8s_manifest(a->q, &c->made, err, sizeof(err));
	if (a->q->fleet)
		fprintf(stderr, "ebsbench k8s: --apply runs one run: apply a --fleet's List "
				"with kubectl\n");
	else if (!list || launch_reader_init(&c->rd, c->made.prefix, a->out, err, sizeof(err)))
		fprintf(stderr, "ebsbench k8s: %s\n", err);
	if (list && c->made.unknown_instance)
		fprintf(stderr, K8S_UNKNOWN_INSTANCE_LINE, c->made.unknown_instance);
	c->list =
		list && c->rd.dir[0] ? json_dumps(list, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	json_decref(list);
	if (!c->list)
		goto out;
	if ((rc = launch_reader_check_dir(&c->rd)) || (rc = k8s_apply_preflight(a)) ||
	    (rc = launch_reader_check(&c->rd)))
		goto out;
	if (*stop) {
		fprintf(stderr, "ebsbench k8s: interrupted before the apply: nothing was made\n");
		rc = K8S_APPLY_STOPPED;
	} else if (a->keep && save_list(c, path, sizeof(path))) {
		rc = K8S_APPLY_FAILED;
	} else {
		rc = drive(c, stop);
	}
out:
	if (c->list)
		memset(c->list, 0, strlen(c->list));
	free(c->list);
	launch_reader_clear(&c->rd);
	free(c);
	return rc;
}
