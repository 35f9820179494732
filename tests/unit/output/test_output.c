/* test_output.c - fio-shaped JSON, JSON+ and normal reports from hand-made stats. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/lib.h"
#include "output/output.h"
#include "output/internal.h"

static const double fio_percentiles[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
};

/* fio 3.33's key order, as consumers that read positionally rely on. */
static const char *const top_keys[] = {
	"fio version", "timestamp", "timestamp_ms", "time", "jobs", "disk_util",
};

static const char *const job_keys[] = {
	"jobname",
	"groupid",
	"error",
	"eta",
	"elapsed",
	"job options",
	"read",
	"write",
	"trim",
	"sync",
	"job_runtime",
	"usr_cpu",
	"sys_cpu",
	"ctx",
	"majf",
	"minf",
	"iodepth_level",
	"iodepth_submit",
	"iodepth_complete",
	"latency_ns",
	"latency_us",
	"latency_ms",
	"latency_depth",
	"latency_target",
	"latency_percentile",
	"latency_window",
};

static const char *const dir_keys[] = {
	"io_bytes",  "io_kbytes", "bw_bytes",  "bw",	      "iops",	      "runtime",
	"total_ios", "short_ios", "drop_ios",  "slat_ns",     "clat_ns",      "lat_ns",
	"bw_min",    "bw_max",	  "bw_agg",    "bw_mean",     "bw_dev",	      "bw_samples",
	"iops_min",  "iops_max",  "iops_mean", "iops_stddev", "iops_samples",
};

static const char *const disk_keys[] = {
	"name",	      "read_ios",    "write_ios", "read_merges", "write_merges",
	"read_ticks", "write_ticks", "in_queue",  "util",
};

static void give(struct job_options *o, const char *name, const char *value)
{
	struct given_option *g = &o->given[o->given_count++];

	snprintf(g->name, sizeof(g->name), "%s", name);
	snprintf(g->value, sizeof(g->value), "%s", value);
}

static void make_options(struct job_options *o)
{
	memset(o, 0, sizeof(*o));
	snprintf(o->name, sizeof(o->name), "x");
	snprintf(o->filename, sizeof(o->filename), "/tmp/fiot");
	o->rw = RW_RANDRW;
	o->rwmixread = 50;
	o->bs = 4096;
	o->iodepth = 8;
	o->ioengine = &engine_libaio_ops;
	o->runtime_ns = 2000000000;
	o->clat_percentiles = true; /* fio's default */
	memcpy(o->percentiles, fio_percentiles, sizeof(fio_percentiles));
	o->percentile_count = ARRAY_SIZE(fio_percentiles);
	give(o, "name", "x");
	give(o, "filename", "/tmp/fiot");
	give(o, "rw", "randrw");
	give(o, "bs", "4k");
	give(o, "iodepth", "8");
}

/* n completions spread from base ns upwards, with fixed submission cost. */
static void add_ios(struct job_stats *s, enum ddir d, unsigned n, uint64_t base)
{
	struct direction_stats *ds = &s->dir[d];
	unsigned i;

	for (i = 0; i < n; i++) {
		uint64_t clat = base + (uint64_t)i * 997 % 200000, slat = 3000 + i % 50;

		stats_running_add(&ds->slat, slat);
		stats_running_add(&ds->clat, clat);
		stats_running_add(&ds->lat, slat + clat);
		histogram_add(&ds->slat_hist, slat);
		histogram_add(&ds->clat_hist, clat);
		histogram_add(&ds->lat_hist, slat + clat);
		stats_count_latency(s, slat + clat);
		s->depth_level[stats_depth_level_index(8)]++;
		ds->ios++;
		ds->bytes += 4096;
	}
	stats_sample_add(&ds->iops_samples, n / 2.0 - 10);
	stats_sample_add(&ds->iops_samples, n / 2.0 + 10);
	stats_sample_add(&ds->bw_samples, (n / 2.0 - 10) * 4);
	stats_sample_add(&ds->bw_samples, (n / 2.0 + 10) * 4);
}

static void make_stats(struct job_stats *s)
{
	stats_job_init(s);
	s->runtime_ns = 2000500000; /* rounds up to 2001 ms, as fio's would */
	s->elapsed_ns = 2300000000;
	s->usr_cpu = 10.5;
	s->sys_cpu = 60.25;
	s->ctx = 9615;
	s->minf = 13;
	s->start_unix_ms = 1795988247046;
	snprintf(s->engine_ran, sizeof(s->engine_ran), "libaio");
	add_ios(s, DDIR_READ, 1000, 40000);
	add_ios(s, DDIR_WRITE, 500, 80000);
	s->disk.valid = true;
	snprintf(s->disk.name, sizeof(s->disk.name), "vda");
	s->disk.read_ios = 990;
	s->disk.write_ios = 495;
	s->disk.util = 68.82;
}

static json_t *render_json(const struct job_options *o, const struct job_stats *s, bool plus)
{
	FILE *f = tmpfile();
	json_error_t err;
	json_t *root = NULL;

	if (!f)
		return NULL;
	if (output_json(f, o, s, plus) == 0) {
		rewind(f);
		root = json_loadf(f, 0, &err);
		if (!root)
			fprintf(stderr, "json_loadf: %s at line %d\n", err.text, err.line);
	}
	fclose(f);
	return root;
}

static char *render_normal(const struct job_options *o, const struct job_stats *s)
{
	FILE *f = tmpfile();
	char *text = NULL;
	long len;

	if (!f)
		return NULL;
	if (output_normal(f, o, s) == 0 && (len = ftell(f)) >= 0 && (text = calloc(1, len + 1))) {
		rewind(f);
		if (fread(text, 1, (size_t)len, f) != (size_t)len)
			text[0] = '\0';
	}
	fclose(f);
	return text;
}

/* The object's keys, in file order, start with the expected list. */
static bool keys_in_order(json_t *obj, const char *const *keys, size_t n)
{
	void *it = json_object_iter(obj);
	size_t i;

	for (i = 0; i < n; i++, it = json_object_iter_next(obj, it)) {
		if (!it || strcmp(json_object_iter_key(it), keys[i]) != 0) {
			fprintf(stderr, "key %zu: want \"%s\", got \"%s\"\n", i, keys[i],
				it ? json_object_iter_key(it) : "(end)");
			return false;
		}
	}
	return true;
}

static json_t *first_job(json_t *root)
{
	return json_array_get(json_object_get(root, "jobs"), 0);
}

static json_t *path(json_t *root, const char *dir, const char *key)
{
	json_t *job = first_job(root);

	return json_object_get(dir ? json_object_get(job, dir) : job, key);
}

static uint64_t bins_sum(json_t *bins)
{
	const char *key;
	json_t *v;
	uint64_t sum = 0;

	json_object_foreach(bins, key, v) sum += (uint64_t)json_integer_value(v);
	return sum;
}

static void test_key_order(struct checks *checks)
{
	struct job_options o;
	struct job_stats s;
	json_t *root;

	make_options(&o);
	make_stats(&s);
	root = render_json(&o, &s, false);
	if (!CHECK(root != NULL))
		return;
	CHECK(keys_in_order(root, top_keys, ARRAY_SIZE(top_keys)));
	CHECK(keys_in_order(first_job(root), job_keys, ARRAY_SIZE(job_keys)));
	CHECK(keys_in_order(path(root, NULL, "read"), dir_keys, ARRAY_SIZE(dir_keys)));
	CHECK(keys_in_order(path(root, NULL, "trim"), dir_keys, ARRAY_SIZE(dir_keys)));
	CHECK(keys_in_order(json_array_get(json_object_get(root, "disk_util"), 0), disk_keys,
			    ARRAY_SIZE(disk_keys)));
	json_decref(root);
}

static void test_json_values(struct checks *checks)
{
	struct job_options o;
	struct job_stats s;
	json_t *root, *opts;

	make_options(&o);
	make_stats(&s);
	root = render_json(&o, &s, false);
	if (!CHECK(root != NULL))
		return;
	CHECK(strncmp(json_string_value(json_object_get(root, "fio version")), "ebsbench-", 9) ==
	      0);
	CHECK_EQ_U64(json_integer_value(json_object_get(root, "timestamp")), 1795988247);
	CHECK_EQ_U64(json_integer_value(path(root, NULL, "elapsed")), 3);
	CHECK_EQ_U64(json_integer_value(path(root, NULL, "job_runtime")), 2000);
	CHECK_EQ_U64(json_integer_value(path(root, "read", "runtime")), 2001);
	CHECK_EQ_U64(json_integer_value(path(root, "read", "total_ios")), 1000);
	CHECK_EQ_U64(json_integer_value(path(root, "write", "io_kbytes")), 2000);
	CHECK(json_is_real(path(root, "read", "iops")));
	CHECK_NEAR(json_real_value(path(root, "read", "iops")), 1000 * 1e9 / 2000500000, 1e-6);
	CHECK_EQ_U64(json_integer_value(path(root, "read", "bw")),
		     4096000 * 1e9 / 2000500000 / 1024);
	CHECK_EQ_U64(json_integer_value(path(root, "read", "iops_min")), 490);
	CHECK_NEAR(json_real_value(path(root, "read", "iops_mean")), 500.0, 1e-9);
	CHECK_EQ_U64(json_integer_value(path(root, "trim", "runtime")), 0);
	CHECK(json_object_get(path(root, "trim", "clat_ns"), "percentile") == NULL);
	CHECK(json_object_get(path(root, "read", "clat_ns"), "bins") == NULL);
	CHECK_NEAR(json_real_value(json_object_get(path(root, NULL, "iodepth_level"), "8")), 100.0,
		   1e-9);
	CHECK_EQ_U64(json_integer_value(path(root, NULL, "latency_depth")), 8);
	CHECK_EQ_U64(json_array_size(json_object_get(root, "disk_util")), 1);
	CHECK(strcmp(json_string_value(json_object_get(path(root, NULL, "ebsbench"), "ioengine")),
		     "libaio") == 0);
	CHECK(json_object_get(path(root, NULL, "ebsbench"), "engine_note") == NULL);
	opts = path(root, NULL, "job options");
	CHECK(keys_in_order(opts,
			    (const char *const[]){ "name", "filename", "rw", "bs", "iodepth" }, 5));
	CHECK(strcmp(json_string_value(json_object_get(opts, "bs")), "4k") == 0);
	json_decref(root);
}

static void test_percentiles_and_bins(struct checks *checks)
{
	struct job_options o;
	struct job_stats s;
	json_t *root, *clat, *p99;

	make_options(&o);
	make_stats(&s);
	root = render_json(&o, &s, true);
	if (!CHECK(root != NULL))
		return;
	clat = path(root, "read", "clat_ns");
	p99 = json_object_get(json_object_get(clat, "percentile"), "99.000000");
	CHECK(json_is_integer(p99));
	CHECK(json_integer_value(p99) >= json_integer_value(json_object_get(clat, "min")));
	CHECK(json_integer_value(p99) <= json_integer_value(json_object_get(clat, "max")));
	CHECK_EQ_U64(json_object_size(json_object_get(clat, "percentile")),
		     ARRAY_SIZE(fio_percentiles));
	CHECK(json_object_get(json_object_get(clat, "percentile"), "99.990000") != NULL);
	CHECK_EQ_U64(bins_sum(json_object_get(clat, "bins")), 1000);
	CHECK_EQ_U64(bins_sum(json_object_get(path(root, "write", "clat_ns"), "bins")), 500);
	CHECK(json_object_get(path(root, "trim", "clat_ns"), "bins") == NULL);
	json_decref(root);
}

static void test_empty_job(struct checks *checks)
{
	struct job_options o;
	struct job_stats s;
	json_t *root;

	make_options(&o);
	stats_job_init(&s);
	snprintf(s.engine_note, sizeof(s.engine_note), "io_uring unavailable, ran psync");
	root = render_json(&o, &s, true);
	if (!CHECK(root != NULL))
		return;
	CHECK_EQ_U64(json_integer_value(path(root, "read", "bw_min")), 0);
	CHECK_NEAR(json_real_value(path(root, "read", "bw_agg")), 0.0, 0.0);
	CHECK(json_object_get(path(root, "read", "clat_ns"), "percentile") == NULL);
	CHECK(json_object_get(path(root, "read", "clat_ns"), "bins") == NULL);
	CHECK_EQ_U64(json_array_size(json_object_get(root, "disk_util")), 0);
	CHECK(json_object_get(path(root, NULL, "ebsbench"), "engine_note") != NULL);
	CHECK_NEAR(json_real_value(json_object_get(path(root, NULL, "iodepth_submit"), "4")), 0.0,
		   0.0);
	json_decref(root);
}

static void test_normal(struct checks *checks)
{
	struct job_options o;
	struct job_stats s;
	char *text;

	make_options(&o);
	make_stats(&s);
	text = render_normal(&o, &s);
	if (!CHECK(text != NULL))
		return;
	CHECK(strstr(text, "x: (g=0): rw=randrw, bs=(R) 4096B-4096B") != NULL);
	CHECK(strstr(text, "ioengine=libaio, iodepth=8\n") != NULL);
	CHECK(strstr(text, "  read: IOPS=") != NULL);
	CHECK(strstr(text, "  write: IOPS=") != NULL);
	CHECK(strstr(text, "    clat percentiles (usec):\n     |  1.00th=[") != NULL);
	CHECK(strstr(text, "| 99.99th=[") != NULL);
	CHECK(strstr(text, "  IO depths    : 1=0.0%, 2=0.0%, 4=0.0%, 8=100.0%,") != NULL);
	CHECK(strstr(text, "issued rwts: total=1000,500,0,0") != NULL);
	CHECK(strstr(text, "\nRun status group 0 (all jobs):\n   READ: bw=") != NULL);
	CHECK(strstr(text, "run=2001-2001msec") != NULL);
	CHECK(strstr(text, "\nDisk stats (read/write):\n  vda: ios=990/495") != NULL);
	free(text);
}

/* fio's num2str figures for a known rate: 19579 IOPS of 4 KiB in 1 s. */
static void test_normal_numbers(struct checks *checks)
{
	struct job_options o;
	struct job_stats s;
	char *text;

	make_options(&o);
	o.rw = RW_READ;
	stats_job_init(&s);
	s.runtime_ns = 1000000000;
	snprintf(s.engine_ran, sizeof(s.engine_ran), "io_uring");
	s.dir[DDIR_READ].ios = 19579;
	s.dir[DDIR_READ].bytes = 19579ull * 4096;
	text = render_normal(&o, &s);
	if (!CHECK(text != NULL))
		return;
	CHECK(strstr(text, "  read: IOPS=19.6k, BW=76.5MiB/s (80.2MB/s)(76.5MiB/1000msec)\n") !=
	      NULL);
	CHECK(strstr(text, "write:") == NULL);
	CHECK(strstr(text,
		     "   READ: bw=76.5MiB/s (80.2MB/s), 76.5MiB/s-76.5MiB/s "
		     "(80.2MB/s-80.2MB/s), io=76.5MiB (80.2MB), run=1000-1000msec\n") != NULL);
	free(text);
}

/* make_stats on the heap (a job's stats hold several histograms); NULL,
 * after a failed check, when out of memory. */
static struct job_stats *new_stats(struct checks *checks)
{
	struct job_stats *s = malloc(sizeof(*s));
	CHECK(s != NULL);
	if (s)
		make_stats(s);
	return s;
}

/* Whether block has percentiles and bins: 0 neither, 1 percentiles only,
 * 2 both, 3 bins only (never right). */
static int blocks_of(json_t *block)
{
	bool pct = json_object_get(block, "percentile") != NULL;
	bool bins = json_object_get(block, "bins") != NULL;
	return pct ? 1 + bins : bins ? 3 : 0;
}

/* Each *_percentiles flag gives its block percentiles and, in json+ only,
 * bins whose counts sum to the block's N, as fio's add_ddir_lat_json. */
static void test_percentile_blocks(struct checks *checks)
{
	static const char *const blocks[] = { "slat_ns", "clat_ns", "lat_ns" };
	struct job_options o;
	struct job_stats *s = new_stats(checks);
	if (!s)
		return;
	for (unsigned flags = 0; flags < 8; flags++) {
		for (int plus = 0; plus < 2; plus++) {
			make_options(&o);
			o.slat_percentiles = flags & 1;
			o.clat_percentiles = flags & 2;
			o.lat_percentiles = flags & 4;
			json_t *root = render_json(&o, s, plus);
			for (unsigned b = 0; b < 3; b++) {
				json_t *block = path(root, "write", blocks[b]);
				int want = (flags & (1u << b)) ? 1 + plus : 0;
				if (!CHECK(blocks_of(block) == want))
					fprintf(stderr, "flags %u plus %d: %s\n", flags, plus,
						blocks[b]);
				if (want == 2)
					CHECK_EQ_U64(bins_sum(json_object_get(block, "bins")), 500);
			}
			json_decref(root);
		}
	}
	free(s);
}

/* unified_rw_reporting: "mixed" in place of read/write/trim, holding both
 * directions; "both" keeps them and adds mixed after sync. */
static void test_unified_rw_reporting(struct checks *checks)
{
	struct job_options o;
	struct job_stats *s = new_stats(checks);
	if (!s)
		return;
	make_options(&o);
	o.unified_rw_reporting = UNIFIED_MIXED;
	o.lat_percentiles = true;
	json_t *root = render_json(&o, s, true), *job = first_job(root);
	CHECK(keys_in_order(job,
			    (const char *const[]){ "jobname", "groupid", "error", "eta", "elapsed",
						   "job options", "mixed", "sync" },
			    8));
	CHECK(!json_object_get(job, "read") && !json_object_get(job, "trim"));
	CHECK_EQ_U64(json_integer_value(path(root, "mixed", "total_ios")), 1500);
	CHECK_EQ_U64(json_integer_value(path(root, "mixed", "io_bytes")), 1500 * 4096);
	json_t *clat = path(root, "mixed", "clat_ns");
	CHECK_EQ_U64(json_integer_value(json_object_get(clat, "N")), 1500);
	CHECK_EQ_U64(json_integer_value(json_object_get(clat, "min")), 40000);
	CHECK_EQ_U64(bins_sum(json_object_get(path(root, "mixed", "lat_ns"), "bins")), 1500);
	json_decref(root);
	o.unified_rw_reporting = UNIFIED_BOTH;
	root = render_json(&o, s, false);
	CHECK(keys_in_order(first_job(root),
			    (const char *const[]){ "jobname", "groupid", "error", "eta", "elapsed",
						   "job options", "read", "write", "trim", "sync",
						   "mixed" },
			    11));
	CHECK_EQ_U64(json_integer_value(path(root, "read", "total_ios")), 1000);
	CHECK_EQ_U64(json_integer_value(path(root, "mixed", "total_ios")), 1500);
	json_decref(root);
	free(s);
}

/* Two priorities with I/O give "prios": class and level from ioprio, the
 * latency under lat_ns with lat_percentiles, else clat_ns; one gives none. */
static void test_prios(struct checks *checks)
{
	struct job_options o;
	struct job_stats *s = new_stats(checks);
	if (!s)
		return;
	make_options(&o);
	struct direction_stats *r = &s->dir[DDIR_READ];
	r->prio[1].ioprio = 1u << 13 | 4;
	for (unsigned i = 0; i < 30; i++) {
		stats_running_add(&r->prio[i % 3 == 0].lat, 1000 + i);
		histogram_add(&r->prio[i % 3 == 0].hist, 1000 + i);
	}
	json_t *root = render_json(&o, s, true);
	json_t *prios = path(root, "read", "prios");
	CHECK_EQ_U64(json_array_size(prios), 2);
	json_t *rt = json_array_get(prios, 1);
	CHECK_EQ_U64(json_integer_value(json_object_get(rt, "prioclass")), 1);
	CHECK_EQ_U64(json_integer_value(json_object_get(rt, "prio")), 4);
	CHECK_EQ_U64(json_integer_value(json_object_get(json_object_get(rt, "clat_ns"), "N")), 10);
	CHECK(blocks_of(json_object_get(rt, "clat_ns")) == 2);
	CHECK(path(root, "write", "prios") == NULL);
	json_decref(root);
	o.lat_percentiles = true;
	root = render_json(&o, s, false);
	rt = json_array_get(path(root, "read", "prios"), 0);
	CHECK(json_object_get(rt, "clat_ns") == NULL &&
	      blocks_of(json_object_get(rt, "lat_ns")) == 1);
	json_decref(root);
	free(s);
}

/* fio's terse v3: 130 fields with a disk; the percentiles at 17-33 (read)
 * and 58-74 (write) are the JSON's lat (or clat) percentiles in us. */
static void test_terse(struct checks *checks)
{
	struct job_options o;
	struct job_stats *s = new_stats(checks);
	char line[8192], *fields[200];
	FILE *f = tmpfile();
	CHECK(f != NULL);
	if (!s || !f) {
		free(s);
		if (f)
			fclose(f);
		return;
	}
	make_options(&o);
	o.lat_percentiles = true;
	o.output_format = OUTPUT_TERSE | OUTPUT_JSON;
	struct run_report run;
	struct job_report one;
	output_run_of_job(&run, &one, &o, s);
	CHECK(output_formats(f, &run, o.output_format) == 0);
	rewind(f);
	CHECK(fgets(line, sizeof(line), f) != NULL);
	json_error_t jerr;
	json_t *root = json_loadf(f, 0, &jerr); /* the JSON follows the terse line */
	CHECK(root != NULL);
	unsigned n = 0;
	for (char *tok = strtok(line, ";\n"); tok && n < 200; tok = strtok(NULL, ";\n"))
		fields[n++] = tok;
	CHECK_EQ_U64(n, 130);
	CHECK(!strcmp(fields[0], "3") && !strcmp(fields[2], "x") && !strcmp(fields[121], "vda"));
	CHECK_EQ_U64(strtoull(fields[5], NULL, 10), 1000 * 4096 / 1024);
	for (unsigned i = 0; i < ARRAY_SIZE(fio_percentiles) && n == 130; i++) {
		char key[32];
		snprintf(key, sizeof(key), "%f", fio_percentiles[i]);
		json_t *rp = json_object_get(path(root, "read", "lat_ns"), "percentile");
		json_t *wp = json_object_get(path(root, "write", "lat_ns"), "percentile");
		char *eq = strchr(fields[17 + i], '=');
		CHECK(eq && !strncmp(fields[17 + i], key, strlen(key)));
		CHECK(eq && strtoull(eq + 1, NULL, 10) ==
				    (uint64_t)json_integer_value(json_object_get(rp, key)) / 1000);
		eq = strchr(fields[58 + i], '=');
		CHECK(eq && strtoull(eq + 1, NULL, 10) ==
				    (uint64_t)json_integer_value(json_object_get(wp, key)) / 1000);
	}
	CHECK(n == 130 && !strcmp(fields[36], "0%=0"));
	json_decref(root);
	fclose(f);
	free(s);
}

CHECK_MAIN(test_key_order, test_json_values, test_percentiles_and_bins, test_empty_job, test_normal,
	   test_normal_numbers, test_percentile_blocks, test_unified_rw_reporting, test_prios,
	   test_terse)
