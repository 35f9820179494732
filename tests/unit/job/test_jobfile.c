/* test_jobfile.c - fio job files and command lines into job lists: sections,
 * [global], include, comments, aliases, ${VAR}, command-line precedence,
 * stonewall groups, numjobs clones, and errors naming FILE:LINE. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "job/jobfile.h"
#include "job/internal.h"

/* A scratch directory and the job list read in it. */
struct scratch {
	char dir[64];
	struct job_list list;
	char err[1024];
};

/* Writes name with text into the scratch directory; its path in path. */
static void put(struct checks *checks, struct scratch *s, const char *name, const char *text,
		char *path, size_t cap)
{
	CHECK(check_write_file(s->dir, name, text, path, cap));
}

/* A fresh scratch directory and an empty list. */
static void scratch_open(struct checks *checks, struct scratch *s)
{
	memset(s, 0, sizeof(*s));
	CHECK(check_temp_dir(s->dir, sizeof(s->dir), "jobfile"));
}

static void scratch_close(struct scratch *s)
{
	jobfile_free(&s->list);
	check_remove_tree(s->dir);
}

static int parse(struct scratch *s, int argc, char **argv)
{
	jobfile_free(&s->list);
	s->err[0] = '\0';
	return jobfile_parse_argv(&s->list, argc, argv, s->err, sizeof(s->err));
}

static const struct job_options *job(const struct scratch *s, unsigned i)
{
	return &s->list.jobs[i].o;
}

/* The option given last under name in o's "job options", or NULL. */
static const char *given(const struct job_options *o, const char *name)
{
	const char *value = NULL;
	for (unsigned i = 0; i < o->given_count; i++)
		if (!strcmp(o->given[i].name, name))
			value = o->given[i].value;
	return value;
}

static void test_sections_global_and_comments(struct checks *checks)
{
	struct scratch s;
	char path[256];
	scratch_open(checks, &s);
	put(checks, &s, "a.fio",
	    "; fio's comment\n"
	    "# and the other one\n"
	    "[global]\n"
	    "  filename = /tmp/x.dat  \n"
	    "size=1M\n"
	    "direct\n"
	    "\n"
	    "[first]\n"
	    "readwrite=randread\n"
	    "blocksize=16k\n"
	    "timeout=5\n"
	    "fileoffset=1M\n"
	    "[global]\n"
	    "iodepth=8\n"
	    "[second]\n"
	    "rw=write\n",
	    path, sizeof(path));
	char *argv[] = { path };
	CHECK(parse(&s, 1, argv) == 0);
	CHECK_EQ_U64(s.list.count, 2);
	CHECK(!strcmp(job(&s, 0)->name, "first") && !strcmp(job(&s, 1)->name, "second"));
	CHECK(!strcmp(job(&s, 0)->filename, "/tmp/x.dat"));
	CHECK(job(&s, 0)->direct && job(&s, 1)->direct);
	CHECK(job(&s, 0)->rw == RW_RANDREAD && job(&s, 1)->rw == RW_WRITE);
	CHECK_EQ_U64(job(&s, 0)->bs, 16384);
	CHECK_EQ_U64(job(&s, 1)->bs, 4096);
	CHECK_EQ_U64(job(&s, 0)->runtime_ns, 5000000000ull);
	CHECK_EQ_U64(job(&s, 0)->offset, 1u << 20);
	/* A [global] after a job changes only the jobs after it. */
	CHECK_EQ_U64(job(&s, 0)->iodepth, 1);
	CHECK_EQ_U64(job(&s, 1)->iodepth, 8);
	/* "job options" are the job's own, as fio's: not [global]'s, and an
	 * alias under the option's own name. */
	CHECK(given(job(&s, 0), "rw") && !strcmp(given(job(&s, 0), "rw"), "randread"));
	CHECK(given(job(&s, 0), "readwrite") == NULL && given(job(&s, 0), "runtime") != NULL);
	CHECK(given(job(&s, 0), "size") == NULL && given(job(&s, 0), "name") == NULL);
	/* No stonewall: one group, run together. */
	CHECK_EQ_U64(s.list.groups, 1);
	scratch_close(&s);
}

static void test_include_relative_to_the_file(struct checks *checks)
{
	struct scratch s;
	char path[256], sub[300];
	scratch_open(checks, &s);
	snprintf(sub, sizeof(sub), "%s/inc", s.dir);
	CHECK(mkdir(sub, 0700) == 0);
	put(checks, &s, "inc/common.fio", "filename=/tmp/y.dat\ninclude more.fio\n", path,
	    sizeof(path));
	put(checks, &s, "inc/more.fio", "bs=8k\n", path, sizeof(path));
	put(checks, &s, "inc/main.fio", "[global]\ninclude common.fio\n[j]\nrw=read\n", path,
	    sizeof(path));
	char *argv[] = { path };
	if (!CHECK(parse(&s, 1, argv) == 0))
		fprintf(stderr, "error: %s\n", s.err);
	CHECK_EQ_U64(s.list.count, 1);
	CHECK(!strcmp(job(&s, 0)->filename, "/tmp/y.dat"));
	CHECK_EQ_U64(job(&s, 0)->bs, 8192);

	put(checks, &s, "inc/bad.fio", "[j]\ninclude sect.fio\n", path, sizeof(path));
	put(checks, &s, "inc/sect.fio", "bs=4k\n[other]\n", sub, sizeof(sub));
	CHECK(parse(&s, 1, argv) < 0);
	CHECK(strstr(s.err, "sect.fio:2") && strstr(s.err, "no new sections"));
	put(checks, &s, "inc/loop.fio", "[j]\ninclude loop.fio\n", path, sizeof(path));
	put(checks, &s, "inc/loop2.fio", "include loop2.fio\n", sub, sizeof(sub));
	put(checks, &s, "inc/loop.fio", "[j]\ninclude loop2.fio\n", path, sizeof(path));
	CHECK(parse(&s, 1, argv) < 0);
	CHECK(strstr(s.err, "includes nest deeper") != NULL);
	scratch_close(&s);
}

static void test_env_expansion(struct checks *checks)
{
	char out[64];
	setenv("EBSBENCH_T_BS", "64k", 1);
	unsetenv("EBSBENCH_T_UNSET");
	CHECK(jobfile_expand_env("bs=${EBSBENCH_T_BS}", out, sizeof(out)) == 0);
	CHECK(!strcmp(out, "bs=64k"));
	CHECK(jobfile_expand_env("a${EBSBENCH_T_UNSET}b", out, sizeof(out)) == 0);
	CHECK(!strcmp(out, "ab"));
	CHECK(jobfile_expand_env("${}x$y${open", out, sizeof(out)) == 0);
	CHECK(!strcmp(out, "${}x$y${open"));
	CHECK(jobfile_expand_env("${EBSBENCH_T_BS}${EBSBENCH_T_BS}", out, 6) < 0);

	struct scratch s;
	char path[256];
	scratch_open(checks, &s);
	put(checks, &s, "env.fio", "[j]\nfilename=/tmp/z\nbs=${EBSBENCH_T_BS}\n", path,
	    sizeof(path));
	char *argv[] = { path };
	CHECK(parse(&s, 1, argv) == 0);
	CHECK_EQ_U64(job(&s, 0)->bs, 65536);
	scratch_close(&s);
}

/* As measured with fio 3.33: options before the first --name are the
 * defaults of the command-line jobs and of the first file's jobs, which
 * override them; the second file starts from fio's defaults behind a
 * stonewall; command-line jobs come first. */
static void test_command_line_precedence(struct checks *checks)
{
	struct scratch s;
	char a[256], b[256];
	scratch_open(checks, &s);
	put(checks, &s, "a.fio", "[global]\nsize=64k\n[j1]\nbs=16k\n[j2]\n", a, sizeof(a));
	put(checks, &s, "b.fio", "[j3]\nfilename=/tmp/b\n", b, sizeof(b));
	char *argv[] = { "--bs=8k", "--filename=/tmp/a", a, b, "--name=c1", "--rw=write" };
	if (!CHECK(parse(&s, 6, argv) == 0))
		fprintf(stderr, "error: %s\n", s.err);
	CHECK_EQ_U64(s.list.count, 4);
	CHECK(!strcmp(job(&s, 0)->name, "c1") && !strcmp(job(&s, 1)->name, "j1"));
	CHECK(!strcmp(job(&s, 2)->name, "j2") && !strcmp(job(&s, 3)->name, "j3"));
	CHECK_EQ_U64(job(&s, 0)->bs, 8192);
	CHECK(job(&s, 0)->rw == RW_WRITE);
	CHECK_EQ_U64(job(&s, 1)->bs, 16384);
	CHECK_EQ_U64(job(&s, 2)->bs, 8192);
	CHECK_EQ_U64(job(&s, 3)->bs, 4096);
	CHECK(!strcmp(job(&s, 2)->filename, "/tmp/a") && !strcmp(job(&s, 3)->filename, "/tmp/b"));
	CHECK(s.list.jobs[2].groupid == 0 && s.list.jobs[3].groupid == 1);
	/* Options after a --name belong to that job only. */
	char *argv2[] = { "--filename=/tmp/a", "--name=x", "--bs=8k", "--name=y" };
	CHECK(parse(&s, 4, argv2) == 0);
	CHECK_EQ_U64(job(&s, 0)->bs, 8192);
	CHECK_EQ_U64(job(&s, 1)->bs, 4096);
	CHECK(given(job(&s, 0), "filename") == NULL && given(job(&s, 0), "bs") != NULL);
	CHECK(given(job(&s, 0), "name") && !strcmp(given(job(&s, 0), "name"), "x"));
	/* Output options are the run's, wherever they stand. */
	char *argv3[] = { "--name=x", "--filename=/tmp/a", "--output-format=json" };
	CHECK(parse(&s, 3, argv3) == 0);
	CHECK(s.list.run->output_format == OUTPUT_JSON);
	scratch_close(&s);
}

static void test_stonewall_groups_and_clones(struct checks *checks)
{
	char *argv[] = { "--filename=/tmp/a",	"--name=a", "--numjobs=3", "--name=b",
			 "--wait_for_previous", "--name=c", "--name=d",	   "--stonewall=1",
			 "--numjobs=2" };
	struct scratch s = { .dir = "" };
	CHECK(parse(&s, 9, argv) == 0);
	CHECK_EQ_U64(s.list.count, 7);
	static const unsigned group[] = { 0, 0, 0, 1, 1, 2, 2 };
	static const unsigned clone[] = { 0, 1, 2, 0, 0, 0, 1 };
	for (unsigned i = 0; i < 7 && i < s.list.count; i++) {
		CHECK_EQ_U64(s.list.jobs[i].groupid, group[i]);
		CHECK_EQ_U64(s.list.jobs[i].clone, clone[i]);
		CHECK_EQ_U64(s.list.jobs[i].number, i + 1);
		CHECK_EQ_U64(s.list.jobs[i].o.numjobs, 1);
	}
	CHECK_EQ_U64(s.list.groups, 3);
	CHECK(!strcmp(job(&s, 2)->name, "a") && !job(&s, 1)->stonewall);
	/* Each clone draws its own offsets. */
	CHECK(job(&s, 0)->randseed != job(&s, 1)->randseed);
	CHECK(job(&s, 1)->randseed != job(&s, 2)->randseed);
	/* A stonewall on the very first job opens no empty group. */
	char *argv2[] = { "--filename=/tmp/a", "--name=a", "--stonewall" };
	CHECK(parse(&s, 3, argv2) == 0);
	CHECK(s.list.jobs[0].groupid == 0 && s.list.groups == 1);
	jobfile_free(&s.list);
}

/* A job without a filename gets fio's jobname.jobnum.filenum, each clone
 * its own number; a filename given is every clone's. */
static void test_default_filenames_of_clones(struct checks *checks)
{
	char *argv[] = { "--name=x", "--numjobs=3", "--name=y", "--filename=/tmp/y",
			 "--numjobs=2" };
	static const char *const want[] = { "x.0.0", "x.1.0", "x.2.0", "/tmp/y", "/tmp/y" };
	struct scratch s = { .dir = "" };
	CHECK(parse(&s, 5, argv) == 0);
	CHECK_EQ_U64(s.list.count, 5);
	for (unsigned i = 0; i < 5 && i < s.list.count; i++)
		if (!CHECK(!strcmp(job(&s, i)->filename, want[i])))
			fprintf(stderr, "job %u: filename %s, want %s\n", i, job(&s, i)->filename,
				want[i]);
	jobfile_free(&s.list);
}

/* parse must fail with an error containing each of the needles. */
static void expect_file_error(struct checks *checks, const char *text, const char *needle,
			      const char *needle2)
{
	struct scratch s;
	char path[256];
	scratch_open(checks, &s);
	put(checks, &s, "bad.fio", text, path, sizeof(path));
	char *argv[] = { path };
	CHECK(parse(&s, 1, argv) < 0);
	if (!CHECK(strstr(s.err, needle) && strstr(s.err, needle2)))
		fprintf(stderr, "error for %s was: %s\n", text, s.err);
	CHECK(strchr(s.err, '\n') == NULL);
	scratch_close(&s);
}

static void test_errors_name_file_and_line(struct checks *checks)
{
	expect_file_error(checks, "[j]\nfilename=/tmp/a\n\n# c\nnumjob=4\n", "bad.fio:5",
			  "'numjob'");
	expect_file_error(checks, "[j]\nbs=4q\n", "bad.fio:2", "'bs'");
	expect_file_error(checks, "bs=4k\n[j]\n", "bad.fio:1", "outside of a [section]");
	expect_file_error(checks, "[j\n", "bad.fio:1", "[name]");
	expect_file_error(checks, "[j]\ninclude missing.fio\n",
			  "bad.fio:2: cannot open include file", "missing.fio");
	expect_file_error(checks, "[j]\noutput-format=json\n", "bad.fio:2", "command line");
	/* A job that cannot run names itself and where it starts. */
	expect_file_error(checks, "[global]\nbs=4k\n[nodepth]\nrw=read\niodepth=0\n",
			  "job 'nodepth'", "bad.fio:3");

	struct scratch s = { .dir = "" };
	char *missing[] = { "/nonexistent/x.fio" };
	CHECK(parse(&s, 1, missing) < 0 && strstr(s.err, "/nonexistent/x.fio"));
	char *bogus[] = { "--name=a", "--filename=/tmp/a", "--bogus=1" };
	CHECK(parse(&s, 3, bogus) < 0 && strstr(s.err, "'bogus'"));
	char *none[] = { "--filename=/tmp/a" };
	CHECK(parse(&s, 1, none) < 0 && strstr(s.err, "missing --name"));
	jobfile_free(&s.list);
}

CHECK_MAIN(test_sections_global_and_comments, test_include_relative_to_the_file, test_env_expansion,
	   test_command_line_precedence, test_stonewall_groups_and_clones,
	   test_default_filenames_of_clones, test_errors_name_file_and_line)
