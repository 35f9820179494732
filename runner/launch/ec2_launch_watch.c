/* ec2_launch_watch.c - while the instance runs: its state from `aws ec2
 * describe-instances` and the run's uploads from a listing of its prefix,
 * every few seconds, in one line on stderr (redrawn in place on a
 * terminal, a new line when it changes elsewhere). */
#include "launch/ec2_launch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "launch/launch.h"
#include "launch/launch_line.h"
#include "launch/internal.h"
#include "lib/lib.h"

/* Seconds between looks (EBSBENCH_EC2_POLL_S: tests). */
#define POLL_S 10
/* Consecutive failed describe-instances calls before the watch gives up. */
#define DESCRIBE_TRIES 5
/* Past the run's deadline (its own timeout and watchdog end it by then),
 * how long before the watch calls it overdue. */
#define OVERDUE_S (LAUNCH_GRACE_S + 300)
#define DONE_NAME "report.html"
#define RECORD_NAME "results.json"

static unsigned poll_seconds(void)
{
	const char *env = getenv("EBSBENCH_EC2_POLL_S");
	unsigned s = env ? (unsigned)strtoul(env, NULL, 10) : POLL_S;
	return s ? s : 1;
}

static void show(struct launch_line *l, const struct ec2_watch *w)
{
	char line[512], files[64] = "";
	if (strcmp(w->in.state, "pending"))
		snprintf(files, sizeof(files), ", %u file%s uploaded", w->uploaded,
			 w->uploaded == 1 ? "" : "s");
	snprintf(line, sizeof(line), "ebsbench ec2: instance %s %s%s%s", w->in.id, w->in.state,
		 files, w->run_ended ? ", the run has ended" : "");
	launch_line_show(l, line);
}

/* The run's uploads so far, and whether it has ended: 0, or -1 said. */
static int look(struct s3_fetch *s3, struct ec2_watch *w, struct launch_line *l)
{
	char err[1024];
	unsigned listed = 0;
	int rc = s3_fetch_run_ended(s3, DONE_NAME, RECORD_NAME, &listed, err, sizeof(err));
	if (rc < 0) {
		launch_line_end(l);
		fprintf(stderr, "ebsbench ec2: %s\n", err);
		return -1;
	}
	w->uploaded = listed ? listed - 1 : 0; /* the binary ebsbench ec2 put there */
	w->run_ended = rc > 0;
	return 0;
}

void ec2_launch_watch(const struct ec2_request *q, const char *run, struct s3_fetch *s3,
		      long deadline_s, struct ec2_watch *w, const volatile sig_atomic_t *stop)
{
	struct launch_line l;
	unsigned poll_s = poll_seconds(), failures = 0;
	char why[512];
	time_t start = time(NULL);
	launch_line_init(&l);
	const char *prefix = s3->prefix;
	for (;;) {
		if (ec2_launch_describe(q, run, prefix, &w->in, why, sizeof(why))) {
			if (++failures >= DESCRIBE_TRIES) {
				launch_line_end(&l);
				fprintf(stderr,
					"ebsbench ec2: aws ec2 describe-instances %s failed: %s\n",
					w->in.id, why);
				w->lost = true;
				return;
			}
		} else {
			failures = 0;
		}
		/* The run uploads once the instance runs; a last look once it ends. */
		if (strcmp(w->in.state, "pending"))
			look(s3, w, &l);
		show(&l, w);
		if (w->run_ended || ec2_launch_ended(&w->in))
			break;
		if (time(NULL) - start > deadline_s + OVERDUE_S) {
			w->overdue = true;
			break;
		}
		for (unsigned s = 0; s < poll_s * 10 && !*stop; s++)
			usleep(100000);
		if ((w->stopped = *stop))
			break;
	}
	launch_line_end(&l);
}
