/* test_child.c - a tool as a child (launch/child.h): its stdin from memory,
 * its stdout whole, its stderr's last line as the reason, its exit status
 * or signal, a tool not on PATH said in one line, the environment given,
 * and a call past its time limit ended. */
#include <string.h>
#include <time.h>

#include "check.h"
#include "lib/lib.h"
#include "launch/child.h"

static void test_run(struct checks *checks)
{
	char err[256];
	struct child_result res;
	char *cat[] = { "sh", "-c", "cat; echo warn >&2; echo 'the reason' >&2; exit 3", NULL };
	CHECK(child_run(cat, NULL, "input\n", 6, 0, &res, err, sizeof(err)) == 0);
	CHECK(res.status == 3);
	CHECK(res.out_len == 6 && !strcmp(res.out, "input\n"));
	CHECK(!strcmp(res.why, "the reason"));
	child_result_free(&res);
	/* No stdin: /dev/null; no output: "". */
	char *quiet[] = { "sh", "-c", "read x || exit 0; exit 9", NULL };
	CHECK(child_run(quiet, NULL, NULL, 0, 0, &res, err, sizeof(err)) == 0);
	CHECK(res.status == 0 && res.out && !res.out[0] && !res.why[0]);
	child_result_free(&res);
	char *missing[] = { "ebsbench-no-such-tool", NULL };
	CHECK(child_run(missing, NULL, NULL, 0, 0, &res, err, sizeof(err)) == -1);
	CHECK(!strcmp(err, "ebsbench-no-such-tool is not on PATH: install it, or put it there"));
}

static void test_env(struct checks *checks)
{
	char err[256];
	struct child_result res;
	char *env[] = { "PATH=/usr/bin:/bin", "EBSBENCH_CHILD_TEST=given", NULL };
	char *show[] = { "sh", "-c", "printf %s \"$EBSBENCH_CHILD_TEST\"", NULL };
	CHECK(child_run(show, env, NULL, 0, 0, &res, err, sizeof(err)) == 0);
	CHECK(!strcmp(res.out, "given"));
	child_result_free(&res);
}

static void test_timeout(struct checks *checks)
{
	char err[256];
	struct child_result res;
	/* Its own group ends: the sleep the shell started goes too (else its
	 * stdout would stay open and the call would not return). */
	char *slow[] = { "sh", "-c", "echo started; sleep 30; echo never", NULL };
	time_t start = time(NULL);
	CHECK(child_run(slow, NULL, NULL, 0, 1, &res, err, sizeof(err)) == 0);
	CHECK(time(NULL) - start < 10);
	CHECK(res.status == 128 + 15);
	CHECK(!strcmp(res.out, "started\n"));
	CHECK(!strcmp(res.why, "sh did not answer within 1 s"));
	child_result_free(&res);
}

CHECK_MAIN(test_run, test_env, test_timeout)
