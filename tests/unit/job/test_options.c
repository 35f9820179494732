/* test_options.c - the option table: values, units and one-line errors. */
#include <string.h>

#include "check.h"
#include "job/options.h"
#include "job/options_json.h"
#include "job/internal.h"
#include "lib/lib.h"

static int parse(struct job_options *o, char *err, int argc, char **argv)
{
	options_defaults(o);
	return options_parse_argv(o, argc, argv, err, 256);
}

static void test_benchmark_command(struct checks *checks)
{
	char *argv[] = { "--name=gp2-randread",
			 "--filename=/dev/nvme1n1",
			 "--size=8G",
			 "--rw=randread",
			 "--bs=4k",
			 "--iodepth=32",
			 "--runtime=2700",
			 "--time_based",
			 "--write_iops_log=gp2_rr",
			 "--log_avg_msec=1000",
			 "--ioengine=libaio",
			 "--direct=1",
			 "--group_reporting",
			 "--output-format=json" };
	struct job_options o;
	char err[256] = "";
	CHECK(parse(&o, err, 14, argv) == 0);
	CHECK(options_validate(&o, err, sizeof(err)) == 0);
	CHECK(!strcmp(o.name, "gp2-randread"));
	CHECK_EQ_U64(o.size, 8ull << 30);
	CHECK(o.rw == RW_RANDREAD);
	CHECK_EQ_U64(o.bs, 4096);
	CHECK_EQ_U64(o.iodepth, 32);
	CHECK_EQ_U64(o.runtime_ns, 2700ull * 1000000000ull);
	CHECK(o.time_based && o.direct && o.group_reporting);
	CHECK(o.ioengine == &engine_libaio_ops);
	CHECK(o.output_format == OUTPUT_JSON);
	CHECK_EQ_U64(o.log_avg_msec, 1000);
	CHECK(!strcmp(o.iops_log, "gp2_rr"));
	CHECK_EQ_U64(o.given_count, 14);
	CHECK(!strcmp(o.given[2].name, "size") && !strcmp(o.given[2].value, "8G"));
}

static void test_units(struct checks *checks)
{
	uint64_t v;
	CHECK(options_parse_size("4k", &v) == 0 && v == 4096);
	CHECK(options_parse_size("1M", &v) == 0 && v == 1048576);
	CHECK(options_parse_size("1MiB", &v) == 0 && v == 1048576);
	CHECK(options_parse_size("512", &v) == 0 && v == 512);
	CHECK(options_parse_size("2t", &v) == 0 && v == 2ull << 40);
	CHECK(options_parse_size("", &v) < 0);
	CHECK(options_parse_size("k", &v) < 0);
	CHECK(options_parse_size("4x", &v) < 0);
	CHECK(options_parse_size("-4k", &v) < 0);
	CHECK(options_parse_size("99999999999999999999", &v) < 0);
	CHECK(options_parse_size("16777216P", &v) < 0); /* 2^24 PiB overflows */
	CHECK(options_parse_duration_ns("60", &v) == 0 && v == 60000000000ull);
	CHECK(options_parse_duration_ns("500ms", &v) == 0 && v == 500000000ull);
	CHECK(options_parse_duration_ns("2m", &v) == 0 && v == 120000000000ull);
	CHECK(options_parse_duration_ns("1h", &v) == 0 && v == 3600000000000ull);
	CHECK(options_parse_duration_ns("10 s", &v) < 0);
	CHECK(options_parse_duration_ns("1y", &v) < 0);
}

/* Sizes and offsets up to 1 EiB, runtime and ramp_time up to ten years: so
 * offset + size, and a start time plus ramp and runtime, never wrap. */
static void test_limits(struct checks *checks)
{
	struct job_options o;
	char err[256];
	char *ok[] = { "--name=a", "--size=1024p", "--offset=1024p", "--runtime=3650d",
		       "--ramp_time=87600h" };
	CHECK(parse(&o, err, 5, ok) == 0);
	CHECK_EQ_U64(o.size, OPTIONS_MAX_SIZE);
	CHECK_EQ_U64(o.runtime_ns, OPTIONS_MAX_DURATION_NS);
	CHECK_EQ_U64(o.ramp_ns, OPTIONS_MAX_DURATION_NS);
	const char *too_big[][2] = { { "--size=1025p", "'size'" },
				     { "--offset=2048p", "'offset'" },
				     { "--runtime=3651d", "'runtime'" },
				     { "--ramp_time=18446744073s", "'ramp_time'" } };
	for (size_t i = 0; i < ARRAY_SIZE(too_big); i++) {
		char *argv[] = { "--name=a", (char *)too_big[i][0] };
		err[0] = '\0';
		CHECK(parse(&o, err, 2, argv) < 0);
		if (!CHECK(strstr(err, too_big[i][1]) && strstr(err, "at most")))
			fprintf(stderr, "error for %s was: %s\n", too_big[i][0], err);
	}
}

static void expect_error(struct checks *checks, const char *word, const char *needle)
{
	struct job_options o;
	char err[256] = "";
	char *argv[] = { (char *)word };
	CHECK(parse(&o, err, 1, argv) < 0);
	if (!CHECK(strstr(err, needle) != NULL))
		fprintf(stderr, "error for %s was: %s\n", word, err);
	CHECK(strchr(err, '\n') == NULL);
}

static void test_errors_name_the_option(struct checks *checks)
{
	expect_error(checks, "--numjobs=300", "'numjobs'");
	expect_error(checks, "--bogus", "'bogus'");
	expect_error(checks, "--bs=abc", "'bs'");
	expect_error(checks, "--bs=0", "'bs'");
	expect_error(checks, "--rw=sideways", "'rw'");
	expect_error(checks, "--iodepth=5000", "'iodepth'");
	expect_error(checks, "--ioengine=sync", "'ioengine'");
	expect_error(checks, "--rwmixread=101", "'rwmixread'");
	expect_error(checks, "--direct=maybe", "'direct'");
	expect_error(checks, "--percentile_list=50:abc", "'percentile_list'");
	expect_error(checks, "--output-format=xml", "'output-format'");
	expect_error(checks, "--output-format=terse,", "'output-format'");
	expect_error(checks, "--output-format=json,,normal", "'output-format'");
	expect_error(checks, "--unified_rw_reporting=3", "'unified_rw_reporting'");
	expect_error(checks, "--verify=crc32c", "'verify'");
	expect_error(checks, "--idle-prof=calibrate", "'idle-prof'");
	expect_error(checks, "--cmdprio_class=0", "'cmdprio_class'");
	expect_error(checks, "--cmdprio_class=4", "'cmdprio_class'");
	expect_error(checks, "--cmdprio_percentage=101", "'cmdprio_percentage'");
	expect_error(checks, "--cmdprio=8", "'cmdprio'");
	expect_error(checks, "--max-jobs=0", "'max-jobs'");
	expect_error(checks, "--slat_percentiles=maybe", "'slat_percentiles'");
	expect_error(checks, "--size", "'size'");
	expect_error(checks, "jobfile.fio", "jobfile.fio");
	expect_error(checks, "--", "'--'");
}

static void test_second_job_is_refused(struct checks *checks)
{
	char *argv[] = { "--name=a", "--filename=/tmp/x", "--name=b" };
	struct job_options o;
	char err[256] = "";
	CHECK(parse(&o, err, 3, argv) < 0);
	CHECK(strstr(err, "second --name") != NULL);
}

static void test_validate(struct checks *checks)
{
	struct job_options o;
	char err[256];
	options_defaults(&o);
	CHECK(options_validate(&o, err, sizeof(err)) < 0 && strstr(err, "--name"));
	options_set(&o, "name", "x", err, sizeof(err));
	CHECK(options_validate(&o, err, sizeof(err)) < 0 && strstr(err, "--filename"));
	options_set(&o, "filename", "/dev/null", err, sizeof(err));
	CHECK(options_validate(&o, err, sizeof(err)) == 0);
	options_set(&o, "time_based", NULL, err, sizeof(err));
	CHECK(options_validate(&o, err, sizeof(err)) < 0 && strstr(err, "runtime"));
	options_set(&o, "runtime", "5", err, sizeof(err));
	options_set(&o, "write_iops_log", "p", err, sizeof(err));
	CHECK(options_validate(&o, err, sizeof(err)) < 0 && strstr(err, "log_avg_msec"));
	options_set(&o, "log_avg_msec", "1000", err, sizeof(err));
	CHECK(options_validate(&o, err, sizeof(err)) == 0);
}

static void test_percentile_list(struct checks *checks)
{
	struct job_options o;
	char err[256];
	options_defaults(&o);
	CHECK_EQ_U64(o.percentile_count, 17);
	CHECK(options_set(&o, "percentile_list", "50:99.9:99.99", err, sizeof(err)) == 0);
	CHECK_EQ_U64(o.percentile_count, 3);
	CHECK_NEAR(o.percentiles[1], 99.9, 1e-12);
}

static void test_json_job_uses_the_same_table(struct checks *checks)
{
	const char *text = "{\"name\": \"gp3-lat\", \"filename\": \"/dev/nvme2n1\", "
			   "\"size\": \"8G\", \"rw\": \"randread\", \"bs\": 4096, "
			   "\"iodepth\": 1, \"runtime\": 60, \"time_based\": true, "
			   "\"direct\": 1, \"norandommap\": false}";
	json_error_t jerr;
	json_t *obj = json_loads(text, JSON_PRESERVE_ORDER, &jerr);
	struct job_options o;
	char err[256] = "";
	options_defaults(&o);
	CHECK(obj != NULL);
	CHECK(options_apply_json(&o, obj, err, sizeof(err)) == 0);
	CHECK(options_validate(&o, err, sizeof(err)) == 0);
	CHECK(!strcmp(o.name, "gp3-lat") && o.rw == RW_RANDREAD);
	CHECK_EQ_U64(o.size, 8ull << 30);
	CHECK_EQ_U64(o.bs, 4096);
	CHECK_EQ_U64(o.runtime_ns, 60ull * 1000000000ull);
	CHECK(o.time_based && o.direct && !o.norandommap);
	json_decref(obj);

	/* One table: numjobs parses, but one job is all a JSON job can be. */
	obj = json_loads("{\"name\": \"x\", \"numjobs\": 4}", 0, &jerr);
	CHECK(options_apply_json(&o, obj, err, sizeof(err)) < 0 && strstr(err, "'numjobs'"));
	json_decref(obj);
	obj = json_loads("{\"name\": \"x\", \"numjobs\": 1, \"idle-prof\": \"system\"}", 0, &jerr);
	CHECK(options_apply_json(&o, obj, err, sizeof(err)) < 0 && strstr(err, "'idle-prof'"));
	json_decref(obj);
	o.idle_prof = IDLE_PROF_NONE;
	/* fio's steady state ends and reports only `ebsbench fio`'s jobs. */
	obj = json_loads("{\"ss\": \"iops:10%\", \"ss_dur\": 30}", 0, &jerr);
	CHECK(options_apply_json(&o, obj, err, sizeof(err)) < 0 && strstr(err, "'ss_dur'"));
	json_decref(obj);
	o.ss.dur_ns = 0;
	obj = json_loads("{\"name\": \"x\", \"numjobs\": 1, \"stonewall\": true}", 0, &jerr);
	CHECK(options_apply_json(&o, obj, err, sizeof(err)) == 0);
	json_decref(obj);
	obj = json_loads("{\"bs\": [4096]}", 0, &jerr);
	CHECK(options_apply_json(&o, obj, err, sizeof(err)) < 0 && strstr(err, "'bs'"));
	json_decref(obj);
	obj = json_loads("[1]", 0, &jerr);
	CHECK(options_apply_json(&o, obj, err, sizeof(err)) < 0);
	json_decref(obj);
}

/* What fio's t/latency_percentiles.py passes, with fio's meanings. */
static void test_fio_script_options(struct checks *checks)
{
	char *argv[] = { "--max-jobs=16",
			 "--name=latency",
			 "--ioengine=null",
			 "--size=16M",
			 "--output-format=terse,json+",
			 "--slat_percentiles=1",
			 "--clat_percentiles=0",
			 "--lat_percentiles=1",
			 "--unified_rw_reporting=1",
			 "--thread",
			 "--verify=0",
			 "--idle-prof=percpu" };
	struct job_options o;
	char err[256] = "";
	options_defaults(&o);
	CHECK(o.clat_percentiles && !o.slat_percentiles && !o.lat_percentiles);
	CHECK(o.unified_rw_reporting == UNIFIED_NONE && o.idle_prof == IDLE_PROF_NONE);
	CHECK(options_parse_argv(&o, 12, argv, err, sizeof(err)) == 0);
	CHECK_EQ_U64(o.output_format, OUTPUT_TERSE | OUTPUT_JSON_PLUS);
	CHECK(o.slat_percentiles && !o.clat_percentiles && o.lat_percentiles);
	CHECK(o.unified_rw_reporting == UNIFIED_MIXED);
	CHECK(o.thread && o.max_jobs == 16 && o.idle_prof == IDLE_PROF_PERCPU);
	CHECK(o.ioengine == engine_find("null"));
	/* No --filename: fio's jobname.jobnum.filenum; a given one stays. */
	CHECK(options_validate(&o, err, sizeof(err)) < 0 && strstr(err, "--filename"));
	options_default_filename(&o, 0);
	CHECK(!strcmp(o.filename, "latency.0.0"));
	options_default_filename(&o, 3);
	CHECK(!strcmp(o.filename, "latency.0.0"));
	CHECK(options_validate(&o, err, sizeof(err)) == 0);
	CHECK(options_set(&o, "unified_rw_reporting", "both", err, sizeof(err)) == 0);
	CHECK(o.unified_rw_reporting == UNIFIED_BOTH);
	CHECK(options_set(&o, "unified_rw_reporting", "none", err, sizeof(err)) == 0);
	CHECK(o.unified_rw_reporting == UNIFIED_NONE);
	CHECK(options_set(&o, "output-format", "normal,json,terse", err, sizeof(err)) == 0);
	CHECK_EQ_U64(o.output_format, OUTPUT_NORMAL | OUTPUT_JSON | OUTPUT_TERSE);
}

/* cmdprio_percentage marks I/Os with class << 13 | level; only engines
 * that pass a priority to the kernel take it. */
static void test_cmdprio(struct checks *checks)
{
	struct job_options o;
	char err[256] = "";
	options_defaults(&o);
	options_set(&o, "name", "p", err, sizeof(err));
	options_set(&o, "filename", "/dev/null", err, sizeof(err));
	CHECK_EQ_U64(o.cmdprio_class, 1);
	CHECK_EQ_U64(options_cmdprio_ioprio(&o), 1u << 13);
	CHECK(options_set(&o, "cmdprio_percentage", "50", err, sizeof(err)) == 0);
	CHECK(options_set(&o, "cmdprio_class", "3", err, sizeof(err)) == 0);
	CHECK(options_set(&o, "cmdprio", "5", err, sizeof(err)) == 0);
	CHECK_EQ_U64(options_cmdprio_ioprio(&o), 3u << 13 | 5);
	CHECK(options_validate(&o, err, sizeof(err)) == 0);
	CHECK(options_set(&o, "ioengine", "psync", err, sizeof(err)) == 0);
	CHECK(options_validate(&o, err, sizeof(err)) < 0 && strstr(err, "cmdprio_percentage") &&
	      strstr(err, "psync"));
	CHECK(options_set(&o, "ioengine", "libaio", err, sizeof(err)) == 0);
	CHECK(options_validate(&o, err, sizeof(err)) == 0);
}

/* bssplit's shares make 100 %; cmdprio_bssplit's at most 100 % per size,
 * with their own class and level or cmdprio_class and cmdprio's. */
static void test_bssplit(struct checks *checks)
{
	struct job_options o;
	char err[256] = "";
	uint16_t prios[8];
	options_defaults(&o);
	CHECK_EQ_U64(options_max_bs(&o), 4096);
	CHECK(options_set(&o, "bssplit", "64k/40:1024k/60", err, sizeof(err)) == 0);
	CHECK_EQ_U64(o.bssplit_count, 2);
	CHECK_EQ_U64(o.bssplit[1].bs, 1u << 20);
	CHECK_EQ_U64(o.bssplit[1].percent, 60);
	CHECK_EQ_U64(options_min_bs(&o), 65536);
	CHECK_EQ_U64(options_max_bs(&o), 1u << 20);
	CHECK(options_set(&o, "bssplit", "64k/40:1024k/50", err, sizeof(err)) < 0);
	CHECK(strstr(err, "'bssplit'") != NULL);
	CHECK(options_set(&o, "bssplit", "64k", err, sizeof(err)) < 0);
	CHECK(options_set(&o, "bssplit", "64k/40:", err, sizeof(err)) < 0);
	CHECK(options_set(&o, "bssplit", "64k/40,1m/60", err, sizeof(err)) < 0);
	CHECK(options_set(&o, "cmdprio_bssplit", "64k/25/1/1:64k/75/3/2:1024k/0", err,
			  sizeof(err)) == 0);
	CHECK_EQ_U64(o.cmdprio_bssplit_count, 3);
	CHECK_EQ_U64(options_share_ioprio(&o, &o.cmdprio_bssplit[1]), 3u << 13 | 2);
	CHECK_EQ_U64(options_ioprios(&o, prios, 8), 2);
	CHECK_EQ_U64(prios[0], 1u << 13 | 1);
	CHECK_EQ_U64(prios[1], 3u << 13 | 2);
	CHECK(options_cmdprio(&o));
	/* SIZE/PERCENT takes cmdprio_class and cmdprio, whenever they are set. */
	CHECK(options_set(&o, "cmdprio_bssplit", "64k/30", err, sizeof(err)) == 0);
	CHECK(options_set(&o, "cmdprio_class", "2", err, sizeof(err)) == 0);
	CHECK_EQ_U64(options_share_ioprio(&o, &o.cmdprio_bssplit[0]), 2u << 13);
	CHECK(options_set(&o, "cmdprio_bssplit", "64k/60/1/1:64k/50/1/2", err, sizeof(err)) < 0);
	CHECK(options_set(&o, "cmdprio_bssplit", "64k/50/1", err, sizeof(err)) < 0);
	CHECK(options_set(&o, "cmdprio_bssplit", "64k/50/0/1", err, sizeof(err)) < 0);
	CHECK(options_set(&o, "cmdprio_bssplit", "64k/50/1/8", err, sizeof(err)) < 0);
	/* Sizes for sequential patterns would overlap: refused, named. */
	options_set(&o, "name", "b", err, sizeof(err));
	options_set(&o, "filename", "/dev/null", err, sizeof(err));
	options_set(&o, "ioengine", "libaio", err, sizeof(err));
	CHECK(options_validate(&o, err, sizeof(err)) < 0 && strstr(err, "'bssplit'"));
	options_set(&o, "rw", "randrw", err, sizeof(err));
	CHECK(options_validate(&o, err, sizeof(err)) == 0);
}

CHECK_MAIN(test_benchmark_command, test_units, test_errors_name_the_option,
	   test_second_job_is_refused, test_validate, test_percentile_list,
	   test_json_job_uses_the_same_table, test_fio_script_options, test_cmdprio, test_bssplit,
	   test_limits)
