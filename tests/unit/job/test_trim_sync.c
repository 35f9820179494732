/* test_trim_sync.c - rw=trim, randtrim, trimwrite, randtrimwrite and
 * --fsync/--fdatasync: the options, what a pattern counts as for the
 * safety guard (a trim changes data as a write does), and whole jobs run
 * through the loop: a pass of trims, trimwrite's trim-then-write pairs,
 * and one sync per N writes at any depth. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "job/job.h"
#include "job/internal.h"
#include "lib/lib.h"

static void test_patterns(struct checks *checks)
{
	static const struct {
		const char *name;
		enum rw_pattern rw;
		bool random, reads, writes, trims;
	} want[] = {
		{ "trim", RW_TRIM, false, false, false, true },
		{ "randtrim", RW_RANDTRIM, true, false, false, true },
		{ "trimwrite", RW_TRIMWRITE, false, false, true, true },
		{ "randtrimwrite", RW_RANDTRIMWRITE, true, false, true, true },
		{ "randread", RW_RANDREAD, true, true, false, false },
		{ "readwrite", RW_READWRITE, false, true, true, false },
	};
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		struct job_options o;
		char err[256];
		options_defaults(&o);
		CHECK(options_set(&o, "rw", want[i].name, err, sizeof(err)) == 0);
		CHECK(o.rw == want[i].rw);
		CHECK(options_rw_is_random(o.rw) == want[i].random);
		CHECK(options_rw_reads(o.rw) == want[i].reads);
		CHECK(options_rw_writes(o.rw) == want[i].writes);
		CHECK(options_rw_trims(o.rw) == want[i].trims);
		CHECK(options_rw_does(o.rw, DDIR_TRIM) == want[i].trims);
		/* The guard's question: a trim destroys data as a write does. */
		CHECK(options_rw_changes_data(o.rw) == (want[i].writes || want[i].trims));
	}
	CHECK(!strcmp(options_rw_name(RW_RANDTRIMWRITE), "randtrimwrite"));
}

/* options_validate's verdict on a null-engine job with extra options. */
static int validate(const char *extra_a, const char *extra_b, char *err)
{
	struct job_options o;
	char *argv[] = { "--name=t",  "--filename=none", "--ioengine=null",
			 "--size=1M", (char *)extra_a,	 (char *)extra_b };
	options_defaults(&o);
	if (options_parse_argv(&o, extra_b ? 6 : 5, argv, err, 256))
		return -1;
	return options_validate(&o, err, 256);
}

static void test_validation(struct checks *checks)
{
	char err[256] = "";
	CHECK(validate("--rw=randwrite", "--fsync=32", err) == 0);
	CHECK(validate("--rw=trimwrite", "--fdatasync=8", err) == 0);
	CHECK(validate("--rw=randread", "--fsync=32", err) < 0);
	CHECK(strstr(err, "option 'fsync': rw=randread does not write") != NULL);
	CHECK(validate("--rw=randtrim", "--fdatasync=2", err) < 0);
	CHECK(strstr(err, "option 'fdatasync'") != NULL);
	CHECK(validate("--fsync=4", "--fdatasync=4", err) < 0);
	CHECK(strstr(err, "not both") != NULL);
	CHECK(validate("--rw=randtrim", "--rate_iops=100", err) < 0);
	CHECK(strstr(err, "option 'rate_iops': rw=randtrim") != NULL);
	CHECK(validate("--rw=write", "--fsync=-1", err) < 0);
	CHECK(strstr(err, "option 'fsync': invalid value '-1'") != NULL);
	CHECK(validate("--rw=randdiscard", NULL, err) < 0);
	CHECK(strstr(err, "randtrim") != NULL); /* the list of values names it */
}

/* Runs one job (argv) to its end into *s; 0, or -1 with err. */
static int run_job(struct job_stats *s, int argc, char **argv, char *err)
{
	struct job_options o;
	struct target t;
	struct iolog logs;
	struct job_context ctx = { 0 };
	options_defaults(&o);
	if (options_parse_argv(&o, argc, argv, err, 256) || options_validate(&o, err, 256) ||
	    target_open(&t, &o, err, 256))
		return -1;
	memset(&logs, 0, sizeof(logs));
	stats_job_init(s);
	int ret = job_run(&o, &t, &logs, s, &ctx, err, 256);
	target_close(&t);
	return ret || s->error ? -1 : 0;
}

static void test_a_pass_of_trims(struct checks *checks, struct job_stats *s)
{
	char err[256] = "";
	char *argv[] = { "--name=t",  "--filename=none", "--ioengine=null",
			 "--size=1M", "--bs=4k",	 "--rw=randtrim" };
	CHECK(run_job(s, 6, argv, err) == 0);
	CHECK_EQ_U64(s->dir[DDIR_TRIM].ios, 256);
	CHECK_EQ_U64(s->dir[DDIR_TRIM].bytes, 1 << 20);
	CHECK_EQ_U64(s->dir[DDIR_TRIM].clat.n, 256);
	CHECK_EQ_U64(s->dir[DDIR_TRIM].slat.n, 0); /* null is synchronous */
	CHECK_EQ_U64(s->dir[DDIR_READ].ios + s->dir[DDIR_WRITE].ios, 0);
	CHECK_EQ_U64(stats_data_ios(s), 256);
	CHECK_EQ_U64(s->sync.ios, 0);
}

static void test_trimwrite_pairs(struct checks *checks, struct job_stats *s)
{
	char err[256] = "";
	char *argv[] = { "--name=t",  "--filename=none", "--ioengine=null",
			 "--size=1M", "--bs=4k",	 "--rw=trimwrite" };
	CHECK(run_job(s, 6, argv, err) == 0);
	CHECK_EQ_U64(s->dir[DDIR_TRIM].ios, 256);
	CHECK_EQ_U64(s->dir[DDIR_WRITE].ios, 256);
	CHECK_EQ_U64(s->dir[DDIR_WRITE].bytes, 1 << 20);
}

/* 256 writes: --fsync=4 gives 63 syncs (none after the last write: the
 * job ends there, as fio's), --fdatasync=5 gives 51, synchronous or at
 * iodepth 8 on io_uring. */
static void test_one_sync_per_n_writes(struct checks *checks, struct job_stats *s)
{
	char err[256] = "", file[] = "/tmp/test_trim_sync.XXXXXX", filename[64];
	int fd = mkstemp(file);
	CHECK(fd >= 0);
	close(fd);
	snprintf(filename, sizeof(filename), "--filename=%s", file);
	char *null4[] = { "--name=s",  "--filename=none", "--ioengine=null",
			  "--size=1M", "--rw=randwrite",  "--fsync=4" };
	CHECK(run_job(s, 6, null4, err) == 0);
	CHECK_EQ_U64(s->dir[DDIR_WRITE].ios, 256);
	CHECK_EQ_U64(s->sync.ios, 63);
	CHECK_EQ_U64(s->sync.lat.n, 63);
	char *uring5[] = { "--name=s",	    "--ioengine=io_uring", "--size=1M", "--rw=randwrite",
			   "--fdatasync=5", "--iodepth=8",	   filename };
	CHECK(run_job(s, 7, uring5, err) == 0);
	CHECK_EQ_U64(s->dir[DDIR_WRITE].ios, 256);
	CHECK_EQ_U64(s->sync.ios, 51);
	CHECK(s->sync.lat.n == 51 && s->sync.lat.min > 0);
	unlink(file);
}

static void test_jobs(struct checks *checks)
{
	struct job_stats *s = malloc(sizeof(*s));
	CHECK(s != NULL);
	if (!s)
		return;
	test_a_pass_of_trims(checks, s);
	test_trimwrite_pairs(checks, s);
	test_one_sync_per_n_writes(checks, s);
	free(s);
}

CHECK_MAIN(test_patterns, test_validation, test_jobs)
