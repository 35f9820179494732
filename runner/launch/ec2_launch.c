/* ec2_launch.c - `ebsbench ec2 --launch`'s course: the checks, the
 * launch input (ec2.c), `aws ec2 run-instances`, the watch, the fetch, the
 * termination (see ec2_launch.h).  The input goes to aws on its stdin
 * only: it holds the upload policy. */
#include "launch/ec2_launch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch/launch.h"
#include "lib/lib.h"
#include "launch/launch_reader.h"
#include "launch/child.h"
#include "launch/internal.h"

/* Everything one --launch holds. */
struct course {
	const struct ec2_launch_args *a;
	struct ec2_made made;
	struct launch_reader rd;
	struct ec2_instance in;
	char bucket[64], prefix[1024];
};

/* The run's bucket, prefix and results' directory, from --s3 and --out.
 * 0, or -1 said. */
static int locate(struct course *c)
{
	const struct ec2_request *q = c->a->q;
	char err[512];
	c->rd = (struct launch_reader){ .who = "ebsbench ec2",
					.bucket = c->bucket,
					.region = q->region,
					.endpoint = q->endpoint,
					.profile = q->profile,
					.ca_file = q->ca_file };
	if (launch_parse_s3(q->s3 ? q->s3 : "", c->bucket, c->prefix, sizeof(c->prefix), err,
			    sizeof(err)) ||
	    launch_reader_init(&c->rd, c->prefix, c->a->out, err, sizeof(err))) {
		fprintf(stderr, "ebsbench ec2: %s\n", err);
		return -1;
	}
	return 0;
}

/* The input to `aws ec2 run-instances`; the instance's id into c->in.
 * 0, or an exit status said. */
static int launch(struct course *c)
{
	char err[1024];
	json_t *input = ec2_launch(c->a->q, &c->made, stderr, err, sizeof(err));
	if (!input) {
		fprintf(stderr, "ebsbench ec2: %s\n", err);
		return c->made.upload_failed ? EC2_LAUNCH_FAILED : EC2_LAUNCH_USAGE;
	}
	if (c->made.unknown_instance)
		fprintf(stderr,
			"ebsbench ec2: %s is not in the EBS model's instance table: the plan "
			"assumes no instance limit\n",
			c->made.unknown_instance);
	char *text = json_dumps(input, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(input);
	if (!text)
		return fprintf(stderr, "ebsbench ec2: out of memory\n"), EC2_LAUNCH_FAILED;
	const char *args[] = { "ec2", "run-instances", "--cli-input-json", "file:///dev/stdin",
			       NULL };
	struct child_result res;
	int rc = ec2_aws(c->a->q, args, text, strlen(text), &res, err, sizeof(err));
	memset(text, 0, strlen(text));
	free(text);
	json_t *reply = rc || res.status ? NULL : json_loads(res.out, 0, NULL);
	if (!rc && res.status)
		snprintf(err, sizeof(err), "%s", res.why[0] ? res.why : "it failed");
	else if (!rc && !reply)
		snprintf(err, sizeof(err), "its reply is not JSON");
	child_result_free(&res);
	rc = reply && !ec2_launch_parse_instance(reply, c->made.run, c->made.prefix, &c->in) ? 0
											     : -1;
	json_decref(reply);
	if (rc) {
		fprintf(stderr,
			"ebsbench ec2: aws ec2 run-instances failed: %s (nothing runs; the binary "
			"is under s3://%s/%s: give the next try a new --s3 prefix)\n",
			reply ? "its reply names no instance" : err, c->made.bucket,
			c->made.prefix);
		return EC2_LAUNCH_FAILED;
	}
	fprintf(stderr,
		"ebsbench ec2: launched instance %s (%s): plan %.0f s, deadline %ld s; Ctrl-C "
		"terminates it and fetches what it uploaded\n",
		c->in.id, c->made.run, c->made.planned_s, c->made.deadline_s);
	return 0;
}

/* `aws ec2 terminate-instances` of the launched instance alone, once
 * describe-instances shows it tagged as this run's.  0, or 1 said. */
static int terminate(struct course *c)
{
	const struct ec2_request *q = c->a->q;
	char why[512];
	if (!c->in.ours &&
	    ec2_launch_describe(q, c->made.run, c->made.prefix, &c->in, why, sizeof(why))) {
		fprintf(stderr,
			"ebsbench ec2: aws ec2 describe-instances %s failed (%s): terminate it "
			"yourself: aws ec2 terminate-instances --region %s --instance-ids %s\n",
			c->in.id, why, q->region, c->in.id);
		return 1;
	}
	if (!c->in.ours) {
		fprintf(stderr,
			"ebsbench ec2: instance %s does not carry this run's tags (Name %s, "
			"ebsbench:prefix %s): not terminated\n",
			c->in.id, c->made.run, c->made.prefix);
		return 1;
	}
	if (!strcmp(c->in.state, "terminated"))
		return 0;
	const char *args[] = { "ec2", "terminate-instances", "--instance-ids", c->in.id, NULL };
	struct child_result res;
	int rc = ec2_aws(q, args, NULL, 0, &res, why, sizeof(why));
	if (!rc && res.status)
		snprintf(why, sizeof(why), "%s", res.why[0] ? res.why : "it failed");
	rc = rc || res.status;
	child_result_free(&res);
	if (rc) {
		fprintf(stderr,
			"ebsbench ec2: aws ec2 terminate-instances %s failed: %s: terminate it "
			"yourself (aws ec2 terminate-instances --region %s --instance-ids %s)\n",
			c->in.id, why, q->region, c->in.id);
		return 1;
	}
	fprintf(stderr, "ebsbench ec2: terminated instance %s (its volumes go with it)\n",
		c->in.id);
	return 0;
}

/* describe-instances stopped answering: the instance is left to run, end
 * and power itself off; the user told how to fetch and terminate.  1. */
static int lost_track(const struct course *c)
{
	fprintf(stderr,
		"ebsbench ec2: lost track of instance %s, which may still run (it powers itself "
		"off at the run's end): its results, once uploaded: ebsbench fetch --wait "
		"s3://%s/%s %s (with this command's --region, --profile, --endpoint); to stop "
		"it: aws ec2 terminate-instances --region %s --instance-ids %s\n",
		c->in.id, c->made.bucket, c->made.prefix, c->rd.dir, c->a->q->region, c->in.id);
	return EC2_LAUNCH_FAILED;
}

/* From the launch to the exit status. */
static int drive(struct course *c, const volatile sig_atomic_t *stop)
{
	struct ec2_watch w = { .in = c->in };
	struct s3_fetch s3 = launch_reader_target(&c->rd);
	ec2_launch_watch(c->a->q, c->made.run, &s3, c->made.deadline_s, &w, stop);
	c->in = w.in;
	if (w.lost)
		return lost_track(c);
	int rc = EC2_LAUNCH_OK;
	bool end = true; /* terminate it */
	if (w.stopped) {
		fprintf(stderr, "ebsbench ec2: stopping: terminating instance %s\n", c->in.id);
		rc = EC2_LAUNCH_STOPPED;
	} else if (!w.run_ended) {
		fprintf(stderr,
			"ebsbench ec2: the instance is %s%s%s%s before the run recorded its "
			"report%s\n",
			c->in.state, c->in.reason[0] ? " (" : "", c->in.reason,
			c->in.reason[0] ? ")" : "", w.overdue ? ", past the run's deadline" : "");
		rc = EC2_LAUNCH_RUN_FAILED;
	} else {
		end = !c->a->keep;
	}
	if (end && terminate(c) && rc == EC2_LAUNCH_OK)
		rc = EC2_LAUNCH_FAILED;
	if (!end)
		fprintf(stderr,
			"ebsbench ec2: kept instance %s (it powers itself off at the run's end; "
			"aws ec2 terminate-instances --region %s --instance-ids %s ends it)\n",
			c->in.id, c->a->q->region, c->in.id);
	if (!w.uploaded)
		fprintf(stderr, "ebsbench ec2: the run uploaded nothing: nothing to fetch\n");
	else if (launch_reader_fetch(&c->rd) && rc == EC2_LAUNCH_OK)
		rc = EC2_LAUNCH_FAILED;
	if (rc == EC2_LAUNCH_STOPPED)
		fprintf(stderr, "ebsbench ec2: stopped before its end (exit %d)\n", rc);
	return rc;
}

int ec2_launch_run(const struct ec2_launch_args *a, const volatile sig_atomic_t *stop)
{
	struct course *c = calloc(1, sizeof(*c));
	int rc = EC2_LAUNCH_USAGE;
	if (!c)
		return EC2_LAUNCH_FAILED;
	c->a = a;
	if (locate(c))
		goto out;
	if ((rc = launch_reader_check_dir(&c->rd)) || (rc = ec2_launch_preflight(a->q)) ||
	    (rc = launch_reader_check(&c->rd)))
		goto out;
	if (*stop) {
		fprintf(stderr, "ebsbench ec2: interrupted before the launch: nothing was made\n");
		rc = EC2_LAUNCH_STOPPED;
	} else if (!(rc = launch(c))) {
		rc = drive(c, stop);
	}
out:
	launch_reader_clear(&c->rd);
	free(c);
	return rc;
}
