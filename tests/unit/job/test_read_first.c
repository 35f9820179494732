/* test_read_first.c - what a write may reach (the region read first), a
 * checked job stopping at the first data that is not ebsbench's, and the
 * refusal's words.  Whole devices: tests/bats/read_first.bats. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "job/job.h"
#include "job/internal.h"
#include "lib/lib.h"

/* The region of a job given by argv on a device of `device` bytes. */
static bool region_of(const char *const *argv, int argc, uint64_t device, uint64_t *offset,
		      uint64_t *length)
{
	struct job_options o;
	char err[256];
	options_defaults(&o);
	if (options_parse_argv(&o, argc, (char **)argv, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return false;
	}
	return read_first_region(&o, device, offset, length);
}

static void test_region(struct checks *checks)
{
	static const struct {
		const char *args[4];
		bool writes;
		uint64_t offset, length;
	} cases[] = {
		/* To the end of the device, from the offset. */
		{ { "--rw=write", "--offset=1M" }, true, MIB, 9 * MIB },
		{ { "--rw=randwrite", "--offset=1M", "--size=4M" }, true, MIB, 4 * MIB },
		/* A size past the end: what the device has (the job itself fails). */
		{ { "--rw=write", "--size=1G" }, true, 0, 10 * MIB },
		/* Whole blocks of the smallest size only, as target.c settles it. */
		{ { "--rw=write", "--size=10000", "--bs=4k" }, true, 0, 8192 },
		{ { "--rw=randwrite", "--bssplit=4k/50:64k/50", "--size=100000" }, true, 0, 98304 },
		/* Trims destroy data as writes do. */
		{ { "--rw=randtrim" }, true, 0, 10 * MIB },
		{ { "--rw=trimwrite", "--offset=2M" }, true, 2 * MIB, 8 * MIB },
		{ { "--rw=randrw" }, true, 0, 10 * MIB },
		/* Nothing to read first. */
		{ { "--rw=randread" }, false, 0, 0 },
		{ { "--rw=read", "--size=1M" }, false, 0, 0 },
		{ { "--rw=write", "--offset=10M" }, false, 0, 0 },
		{ { "--rw=write", "--ioengine=null", "--size=1M" }, false, 0, 0 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *argv[6] = { "--name=w" };
		int argc = 1;
		uint64_t offset = 0, length = 0;
		for (int k = 0; k < 4 && cases[i].args[k]; k++)
			argv[argc++] = cases[i].args[k];
		bool writes = region_of(argv, argc, 10 * MIB, &offset, &length);
		if (!CHECK(writes == cases[i].writes))
			fprintf(stderr, "  case %zu (%s)\n", i, cases[i].args[0]);
		if (writes && (!CHECK_EQ_U64(offset, cases[i].offset) ||
			       !CHECK_EQ_U64(length, cases[i].length)))
			fprintf(stderr, "  case %zu (%s)\n", i, cases[i].args[0]);
	}
}

/* A file of 8 MiB: its first MiB ebsbench's, one byte of someone else's at
 * 5 MiB + 4,097, the rest zeros.  Read in 64 KiB blocks, 4 in flight, with
 * job_context.check_reads: the job stops soon after that block, the
 * lowest offset is kept, and ebsbench's sectors pass. */
static void test_checked_job_stops(struct checks *checks)
{
	char dir[64], path[128], name[160], err[256] = "";
	uint8_t *buf = calloc(1, 8 * MIB);
	struct job_stats *s = malloc(sizeof(*s));
	if (!CHECK(buf && s && check_temp_dir(dir, sizeof(dir), "read-first"))) {
		free(buf);
		free(s);
		return;
	}
	data_mark_stamp(buf, MIB, 0);
	buf[5 * MIB + 4097] = 0x5a;
	snprintf(path, sizeof(path), "%s/dev", dir);
	int fd = open(path, O_WRONLY | O_CREAT, 0600);
	CHECK(fd >= 0 && write(fd, buf, 8 * MIB) == (ssize_t)(8 * MIB));
	close(fd);

	struct job_options o;
	struct target t;
	struct iolog logs;
	struct blkdev_contents seen;
	memset(&seen, 0, sizeof(seen));
	memset(&logs, 0, sizeof(logs));
	struct job_context ctx = { .check_reads = &seen };
	snprintf(name, sizeof(name), "--filename=%s", path);
	char *argv[] = { "--name=r", name, "--rw=read", "--bs=64k", "--iodepth=4", "--size=8M" };
	options_defaults(&o);
	stats_job_init(s);
	if (CHECK(options_parse_argv(&o, 6, argv, err, sizeof(err)) == 0) &&
	    CHECK(target_open(&t, &o, err, sizeof(err)) == 0)) {
		CHECK(job_run(&o, &t, &logs, s, &ctx, err, sizeof(err)) == 0);
		target_close(&t);
	}
	CHECK(seen.unrecognised && seen.ebsbench_data);
	CHECK_EQ_U64(seen.unrecognised_at, 5 * MIB + 4096);
	/* Stopped: at most the blocks in flight after the one found. */
	CHECK(s->dir[DDIR_READ].bytes > 5 * MIB && s->dir[DDIR_READ].bytes <= 6 * MIB);
	CHECK_EQ_U64(s->error, 0);
	check_remove_tree(dir);
	free(buf);
	free(s);
}

static void test_describe(struct checks *checks)
{
	char text[256];
	struct read_first r = { .offset = 0, .length = 256 * MIB, .bytes_read = 2 * MIB };
	CHECK(!read_first_clean(&r));
	read_first_describe(&r, text, sizeof(text));
	CHECK(strstr(text, "read 2097152 of the 268435456 bytes") && strstr(text, "stopped") &&
	      strstr(text, "nothing was written"));
	r.found = true;
	r.found_at = MIB;
	read_first_describe(&r, text, sizeof(text));
	CHECK(!strcmp(text, "unrecognised data at byte 1048576 of the 256.0 MiB a write would "
			    "overwrite (all read first: nothing was written)"));
	r.found = false;
	r.bytes_read = r.length;
	CHECK(read_first_clean(&r));
}

CHECK_MAIN(test_region, test_checked_job_stops, test_describe)
