/* check.h - the smallest unit test harness that does the job.
 *
 * Each test is a function taking `struct checks *checks`; the CHECK macros
 * record into that name, so no counter lives in a global.  CHECK_MAIN runs
 * the tests, prints one final "N passed, M failed" line on stdout and exits
 * non-zero on any failure.  Failures go to stderr as file:line.
 *
 * Also the scratch space several tests need: a fresh directory under /tmp,
 * a file written into it, and the whole tree removed again. */
#ifndef EBSBENCH_CHECK_H
#define EBSBENCH_CHECK_H

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <ftw.h>

#include "lib/lib.h"

/* A check inside a loop over a million values can fail a million times;
 * the first few say all there is to say. */
#define CHECK_SHOWN_FAILURES 20

struct checks {
	unsigned long passed;
	unsigned long failed;
};

typedef void check_test(struct checks *checks);

static inline bool check_record(struct checks *c, bool ok, const char *file, int line)
{
	if (ok) {
		c->passed++;
		return true;
	}
	c->failed++;
	if (c->failed <= CHECK_SHOWN_FAILURES)
		fprintf(stderr, "%s:%d: ", file, line);
	return false;
}

static inline bool check_true(struct checks *c, bool ok, const char *what, const char *file,
			      int line)
{
	if (check_record(c, ok, file, line))
		return true;
	if (c->failed <= CHECK_SHOWN_FAILURES)
		fprintf(stderr, "CHECK(%s) failed\n", what);
	return false;
}

static inline bool check_eq_u64(struct checks *c, uint64_t a, uint64_t b, const char *what_a,
				const char *what_b, const char *file, int line)
{
	if (check_record(c, a == b, file, line))
		return true;
	if (c->failed <= CHECK_SHOWN_FAILURES)
		fprintf(stderr, "%s == %s failed: %" PRIu64 " != %" PRIu64 "\n", what_a, what_b, a,
			b);
	return false;
}

static inline bool check_near(struct checks *c, double a, double b, double tolerance,
			      const char *what_a, const char *what_b, const char *file, int line)
{
	/* Written so that NaN on either side fails. */
	if (check_record(c, fabs(a - b) <= tolerance, file, line))
		return true;
	if (c->failed <= CHECK_SHOWN_FAILURES)
		fprintf(stderr, "%s ~ %s failed: %.17g vs %.17g (tolerance %g)\n", what_a, what_b,
			a, b, tolerance);
	return false;
}

/* Each returns whether it passed, so a loop can stop at its first failure. */
#define CHECK(cond) check_true(checks, (cond), #cond, __FILE__, __LINE__)
#define CHECK_EQ_U64(a, b) check_eq_u64(checks, (a), (b), #a, #b, __FILE__, __LINE__)
#define CHECK_NEAR(a, b, tol) check_near(checks, (a), (b), (tol), #a, #b, __FILE__, __LINE__)

/* A new directory /tmp/ebsbench-TAG-XXXXXX, its path in dir (cap bytes).
 * Returns false, saying why on stderr, when it cannot be made. */
static inline bool check_temp_dir(char *dir, size_t cap, const char *tag)
{
	if ((size_t)snprintf(dir, cap, "/tmp/ebsbench-%s-XXXXXX", tag) >= cap || !mkdtemp(dir)) {
		fprintf(stderr, "check_temp_dir: cannot make a directory for %s\n", tag);
		return false;
	}
	return true;
}

/* Writes text to dir/name (its path in path, cap bytes); false on error. */
static inline bool check_write_file(const char *dir, const char *name, const char *text, char *path,
				    size_t cap)
{
	FILE *f;

	if ((size_t)snprintf(path, cap, "%s/%s", dir, name) >= cap || !(f = fopen(path, "w")))
		return false;
	fputs(text, f);
	return fclose(f) == 0;
}

static inline int check_remove_entry(const char *path, const struct stat *st, int flag,
				     struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* Removes dir and everything under it (links are removed, not followed). */
static inline void check_remove_tree(const char *dir)
{
	nftw(dir, check_remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static inline int checks_run(check_test *const *tests, size_t count)
{
	struct checks checks = { 0, 0 };
	size_t i;

	for (i = 0; i < count; i++)
		tests[i](&checks);
	if (checks.failed > CHECK_SHOWN_FAILURES)
		fprintf(stderr, "(%lu further failures not shown)\n",
			checks.failed - CHECK_SHOWN_FAILURES);
	printf("%lu passed, %lu failed\n", checks.passed, checks.failed);
	return checks.failed ? 1 : 0;
}

#define CHECK_MAIN(...)                                                                            \
	int main(void)                                                                             \
	{                                                                                          \
		check_test *const tests[] = { __VA_ARGS__ };                                       \
		return checks_run(tests, ARRAY_SIZE(tests));                                       \
	}

#endif
