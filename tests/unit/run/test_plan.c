/* test_plan.c - the plan a config makes: the EKS gp2/gp3 benchmark's six
 * phases, each on every device in turn; randread long enough to pass a
 * bursting volume's predicted cliff; time_scale on every duration and
 * window but no size; the config's "phases" replacing the sequence; a
 * read-only plan; and a bad phase or duration refused with one line. */
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "check.h"
#include "fixtures/plan_fixture.h"
#include "engine/engine.h"
#include "lib/lib.h"
#include "run/plan.h"
#include "run/run_devices.h"
#include "job/internal.h"
#include "run/internal.h"

#define MS 1000000ull /* ns */

/* What one step should be, as docs/run.md describes the sequence. */
struct want_step {
	const char *phase, *short_name;
	size_t device;
	enum rw_pattern rw;
	uint32_t bs;
	unsigned iodepth;
	uint64_t runtime_ms; /* 0: not time based, one pass over the region */
};

static void check_step(struct checks *checks, const struct plan_step *s, const struct want_step *w,
		       const char *label)
{
	char name[64], log[96];

	snprintf(name, sizeof(name), "%s-%s", label, w->phase);
	snprintf(log, sizeof(log), "%s_%s_iops.1.log", label, w->short_name);
	if (!CHECK(!strcmp(s->phase, w->phase)))
		fprintf(stderr, "  step is %s, want %s\n", s->phase, w->phase);
	CHECK(!strcmp(s->short_name, w->short_name));
	CHECK_EQ_U64(s->device, w->device);
	CHECK(!strcmp(s->job.name, name));
	CHECK(!strcmp(s->iops_log, log)); /* artifacts_iops_log names it */
	CHECK(!s->job.iops_log[0]);	  /* the run, not the job, places it */
	CHECK(s->job.rw == w->rw);
	CHECK_EQ_U64(s->job.bs, w->bs);
	CHECK_EQ_U64(s->job.iodepth, w->iodepth);
	CHECK_EQ_U64(s->job.runtime_ns, w->runtime_ms * MS);
	CHECK(s->job.time_based == (w->runtime_ms > 0));
	CHECK(s->job.direct);
}

static const char two_volumes[] =
	"{\"devices\": [{\"path\": \"/dev/nvme1n1\", \"type\": \"gp2\", \"size_gib\": 100},"
	"              {\"path\": \"/dev/nvme2n1\", \"type\": \"gp3\", \"size_gib\": 100}]}";

/* The whole sequence on a 100 GiB gp2 and a gp3: seven phases, gp2 then
 * gp3 in each; gp2's randread runs 1.35 x its 2,000 s burst (5.4 M
 * credits / (3,000 - 300) IOPS) = 2,700 s, gp3's the default 600 s; each
 * device's six loadcurve steps follow its own randread
 * (test_loadcurve_plan.c checks them). */
static void test_gp2_gp3_sequence(struct checks *checks)
{
	static const struct want_step want[] = {
		{ "layout", "layout", 0, RW_WRITE, 1 << 20, 1, 0 },
		{ "layout", "layout", 1, RW_WRITE, 1 << 20, 1, 0 },
		{ "randread", "rr", 0, RW_RANDREAD, 4096, 32, 2700000 },
		{ "randread", "rr", 1, RW_RANDREAD, 4096, 32, 600000 },
		{ "randwrite", "rw", 0, RW_RANDWRITE, 4096, 32, 120000 },
		{ "randwrite", "rw", 1, RW_RANDWRITE, 4096, 32, 120000 },
		{ "lat", "lat", 0, RW_RANDREAD, 4096, 1, 60000 },
		{ "lat", "lat", 1, RW_RANDREAD, 4096, 1, 60000 },
		{ "seqread", "sr", 0, RW_READ, 1 << 20, 8, 60000 },
		{ "seqread", "sr", 1, RW_READ, 1 << 20, 8, 60000 },
		{ "seqwrite", "sw", 0, RW_WRITE, 1 << 20, 8, 60000 },
		{ "seqwrite", "sw", 1, RW_WRITE, 1 << 20, 8, 60000 },
	};
	static const char *const labels[] = { "gp2", "gp3" };
	struct discovered_device found[2] = { plan_fixture_volume("nvme1n1", 100 * GIB),
					      plan_fixture_volume("nvme2n1", 100 * GIB) };
	struct run_device devices[CONFIG_MAX_DEVICES];
	struct plan p;
	char err[256];
	uint64_t total = 0;

	if (!CHECK(plan_fixture_build(&p, two_volumes, found, 2, devices, err, sizeof(err)) == 0)) {
		fprintf(stderr, "  %s\n", err);
		return;
	}
	CHECK_EQ_U64(p.count, 24);
	for (size_t i = 0, w = 0; i < p.count && w < 12; i++) {
		const struct plan_step *s = &p.steps[i];
		total += s->planned_ns;
		if (!strcmp(s->phase, "loadcurve")) {
			CHECK(i >= 3 && i != 9 && i <= 15); /* after rr(gp2), after rr(gp3) */
			CHECK_EQ_U64(s->device, i < 9 ? 0 : 1);
			continue;
		}
		check_step(checks, s, &want[w], labels[want[w].device]);
		w++;
		CHECK(!strcmp(s->job.filename, found[want[w - 1].device].dev_path));
		CHECK_EQ_U64(s->job.size, 8 * GIB); /* the test region, not the volume */
		CHECK_EQ_U64(s->job.log_avg_msec, 1000);
		CHECK(s->job.ioengine == engine_find("io_uring"));
	}
	CHECK_EQ_U64(p.phase_count, 7);
	CHECK(!strcmp(p.phases[0], "layout") && !strcmp(p.phases[2], "loadcurve") &&
	      !strcmp(p.phases[6], "seqwrite"));
	CHECK(p.writes);
	CHECK_EQ_U64(p.log_avg_msec, 1000);
	/* Before its first write each volume's 8 GiB test region is read,
	 * planned as the layout is (below). */
	for (size_t d = 0; d < 2; d++) {
		CHECK_EQ_U64(p.read_first[d].offset, 0);
		CHECK_EQ_U64(p.read_first[d].length, 8 * GIB);
		CHECK_EQ_U64(p.read_first[d].planned_ns, p.steps[d].planned_ns);
		total += p.read_first[d].planned_ns;
	}
	CHECK_EQ_U64(p.read_first[2].length, 0);
	CHECK_EQ_U64(p.total_ns, total);
	/* A timed step is planned at its runtime; the layout at one pass
	 * over 8 GiB at the volume's baseline throughput: gp2 100 GiB's 300
	 * IOPS of 256 KiB units is 75 MiB/s (under its 128 MiB/s cap), so
	 * 109.23 s; gp3's 125 MiB/s 65.536 s. */
	CHECK_EQ_U64(p.steps[2].planned_ns, 2700000 * MS);
	CHECK(!strcmp(p.steps[9].phase, "randread") && p.steps[9].device == 1);
	CHECK_NEAR((double)p.steps[0].planned_ns / 1e9, 8192.0 / (300 * 0.25), 1e-6);
	CHECK_NEAR((double)p.steps[1].planned_ns / 1e9, 8192.0 / 125, 1e-6);
	plan_free(&p);
	CHECK(p.steps == NULL && p.count == 0);
}

/* randread's length from each volume's own burst: a 200 GiB gp2
 * (baseline 600, 5.4 M / 2,400 = 2,250 s, x 1.35 = 3,037.5, rounded up
 * to 3,038 s), a gp2 that never bursts (1,000 GiB: 3,000 baseline) and
 * an io2: both the default 600 s. */
static void test_randread_follows_the_burst(struct checks *checks)
{
	static const char doc[] =
		"{\"devices\": [{\"path\": \"/dev/nvme1n1\", \"type\": \"gp2\", \"size_gib\": 200},"
		"              {\"path\": \"/dev/nvme2n1\", \"type\": \"gp2\", \"size_gib\": 1000},"
		"              {\"path\": \"/dev/nvme3n1\", \"type\": \"io2\", \"size_gib\": 100,"
		"               \"iops\": 10000}],"
		" \"phases\": [{\"phase\": \"randread\"}]}";
	struct discovered_device found[3] = { plan_fixture_volume("nvme1n1", 200 * GIB),
					      plan_fixture_volume("nvme2n1", 1000 * GIB),
					      plan_fixture_volume("nvme3n1", 100 * GIB) };
	struct run_device devices[CONFIG_MAX_DEVICES];
	struct plan p;
	char err[256];

	if (!CHECK(plan_fixture_build(&p, doc, found, 3, devices, err, sizeof(err)) == 0)) {
		fprintf(stderr, "  %s\n", err);
		return;
	}
	CHECK_EQ_U64(p.count, 3);
	if (p.count == 3) {
		check_step(
			checks, &p.steps[0],
			&(struct want_step){ "randread", "rr", 0, RW_RANDREAD, 4096, 32, 3038000 },
			"gp2");
		check_step(
			checks, &p.steps[1],
			&(struct want_step){ "randread", "rr", 1, RW_RANDREAD, 4096, 32, 600000 },
			"gp2-2");
		check_step(
			checks, &p.steps[2],
			&(struct want_step){ "randread", "rr", 2, RW_RANDREAD, 4096, 32, 600000 },
			"io2");
	}
	CHECK(!p.writes);
	plan_free(&p);
}

/* An st1 of 500 GiB beside a gp2: the st1 gets HDD's plan, its layout,
 * then 1 MiB sequential reads at qd8 past its throughput cliff (512,000
 * MiB of credit / (122.07 - 19.53) MiB/s = 4,993.1 s, x 1.35 = 6,740.7,
 * rounded up to 6,741 s) and writes; no 4k phase (the gp2 keeps all of
 * them, its load curve unpaired).  An sc1 alone: three phases, its cliff
 * 512,000 / (39.06 - 5.86) = 15,420 s, so 20,818 s of seqread. */
static void test_hdd_plan(struct checks *checks)
{
	static const char doc[] =
		"{\"devices\": [{\"path\": \"/dev/nvme1n1\", \"type\": \"st1\", \"size_gib\": 500},"
		"              {\"path\": \"/dev/nvme2n1\", \"type\": \"gp2\", \"size_gib\": "
		"100}]}";
	static const char *const phases[] = { "layout",	   "layout",	"randread",  "loadcurve",
					      "loadcurve", "loadcurve", "loadcurve", "loadcurve",
					      "loadcurve", "randwrite", "lat",	     "seqread",
					      "seqread",   "seqwrite",	"seqwrite" };
	struct discovered_device found[2] = { plan_fixture_volume("nvme1n1", 500 * GIB),
					      plan_fixture_volume("nvme2n1", 100 * GIB) };
	struct run_device devices[CONFIG_MAX_DEVICES];
	struct plan p;
	char err[256];

	if (!CHECK(plan_fixture_build(&p, doc, found, 2, devices, err, sizeof(err)) == 0)) {
		fprintf(stderr, "  %s\n", err);
		return;
	}
	CHECK_EQ_U64(p.count, ARRAY_SIZE(phases));
	for (size_t i = 0; i < p.count && i < ARRAY_SIZE(phases); i++)
		if (!CHECK(!strcmp(p.steps[i].phase, phases[i])))
			fprintf(stderr, "  step %zu is %s, want %s\n", i, p.steps[i].phase,
				phases[i]);
	CHECK_EQ_U64(p.phase_count, 7);
	if (p.count == ARRAY_SIZE(phases)) {
		CHECK_EQ_U64(p.steps[2].device, 1);
		check_step(checks, &p.steps[11],
			   &(struct want_step){ "seqread", "sr", 0, RW_READ, 1 << 20, 8, 6741000 },
			   "st1");
		check_step(checks, &p.steps[13],
			   &(struct want_step){ "seqwrite", "sw", 0, RW_WRITE, 1 << 20, 8, 60000 },
			   "st1");
		CHECK_EQ_U64(p.steps[12].job.runtime_ns, 60000 * MS); /* gp2's seqread as ever */
	}
	plan_free(&p);
	static const char sc1[] = "{\"devices\": [{\"path\": \"/dev/nvme1n1\", \"type\": \"sc1\","
				  " \"size_gib\": 500}]}";
	if (!CHECK(plan_fixture_build(&p, sc1, found, 1, devices, err, sizeof(err)) == 0))
		return;
	CHECK_EQ_U64(p.count, 3);
	CHECK_EQ_U64(p.phase_count, 3);
	CHECK(!strcmp(p.phases[1], "seqread"));
	if (p.count == 3)
		CHECK_EQ_U64(p.steps[1].job.runtime_ns, 20818000 * MS);
	plan_free(&p);
}

/* time_scale 0.01: 2,700 s becomes 27 s, 600 s 6 s, the 1 s log windows
 * 10 ms; the test region keeps its size. */
static void test_time_scale(struct checks *checks)
{
	static const char doc[] =
		"{\"devices\": [{\"path\": \"/dev/nvme1n1\", \"type\": \"gp2\", \"size_gib\": 100},"
		"              {\"path\": \"/dev/nvme2n1\", \"type\": \"gp3\", \"size_gib\": 100}],"
		" \"time_scale\": 0.01}";
	static const uint64_t want_ms[12] = { 0,   0,	27000, 6000, 1200, 1200,
					      600, 600, 600,   600,  600,  600 };
	struct discovered_device found[2] = { plan_fixture_volume("nvme1n1", 100 * GIB),
					      plan_fixture_volume("nvme2n1", 100 * GIB) };
	struct run_device devices[CONFIG_MAX_DEVICES];
	struct plan p;
	char err[256];

	if (!CHECK(plan_fixture_build(&p, doc, found, 2, devices, err, sizeof(err)) == 0))
		return;
	CHECK_EQ_U64(p.log_avg_msec, 10);
	for (size_t i = 0, w = 0; i < p.count && w < 12; i++) {
		CHECK_EQ_U64(p.steps[i].job.log_avg_msec, 10);
		CHECK_EQ_U64(p.steps[i].job.size, 8 * GIB);
		if (strcmp(p.steps[i].phase, "loadcurve")) /* test_loadcurve_plan.c */
			CHECK_EQ_U64(p.steps[i].job.runtime_ns, want_ms[w++] * MS);
	}
	plan_free(&p);
	/* Scaled below a millisecond, a window and a runtime stay 1 ms (a
	 * zero would mean "no limit" to the job): 60 s x 1e-6 = 0.06 ms. */
	static const char tiny[] =
		"{\"devices\": [{\"path\": \"/dev/nvme2n1\", \"type\": \"gp3\"}],"
		" \"time_scale\": 0.000001, \"phases\": [{\"phase\": \"lat\"}]}";
	if (!CHECK(plan_fixture_build(&p, tiny, found + 1, 1, devices, err, sizeof(err)) == 0))
		return;
	CHECK_EQ_U64(p.log_avg_msec, 1);
	CHECK_EQ_U64(p.steps[0].job.runtime_ns, 1 * MS);
	plan_free(&p);
}

/* The test region: test_size, or the volume when smaller, in whole MiB. */
static void test_region_size(struct checks *checks)
{
	static const char doc[] = "{\"devices\": [{\"path\": \"/dev/nvme1n1\"}],"
				  " \"phases\": [{\"phase\": \"layout\"}]}";
	struct discovered_device found[1] = { plan_fixture_volume("nvme1n1", GIB + 4096) };
	struct run_device devices[CONFIG_MAX_DEVICES];
	struct plan p;
	char err[256];

	if (!CHECK(plan_fixture_build(&p, doc, found, 1, devices, err, sizeof(err)) == 0))
		return;
	CHECK_EQ_U64(p.steps[0].job.size, GIB);
	CHECK(!strcmp(p.steps[0].job.name, "nvme1n1-layout")); /* no type: the device's name */
	plan_free(&p);
}

/* "phases" replaces the sequence: a known phase with fio options on top
 * (its runtime wins over the cliff margin), a new one with its own rw. */
static void test_phases_override(struct checks *checks)
{
	static const char doc[] =
		"{\"devices\": [{\"path\": \"/dev/nvme1n1\", \"type\": \"gp2\", \"size_gib\": "
		"100}],"
		" \"ioengine\": \"libaio\","
		" \"phases\": [{\"phase\": \"randread\", \"runtime\": 900, \"iodepth\": 2},"
		"             {\"phase\": \"mixed\", \"rw\": \"randrw\", \"bs\": \"8k\","
		"              \"runtime\": 30}]}";
	struct discovered_device found[1] = { plan_fixture_volume("nvme1n1", 100 * GIB) };
	struct run_device devices[CONFIG_MAX_DEVICES];
	struct plan p;
	char err[256];

	if (!CHECK(plan_fixture_build(&p, doc, found, 1, devices, err, sizeof(err)) == 0)) {
		fprintf(stderr, "  %s\n", err);
		return;
	}
	CHECK_EQ_U64(p.count, 2);
	CHECK_EQ_U64(p.phase_count, 2);
	check_step(checks, &p.steps[0],
		   &(struct want_step){ "randread", "rr", 0, RW_RANDREAD, 4096, 2, 900000 }, "gp2");
	check_step(checks, &p.steps[1],
		   &(struct want_step){ "mixed", "mixed", 0, RW_RANDRW, 8192, 1, 30000 }, "gp2");
	CHECK(p.steps[1].job.ioengine == engine_find("libaio"));
	CHECK(p.writes); /* randrw writes */
	/* Only "mixed" writes: its 8 GiB region is read first, 109.23 s at gp2
	 * 100 GiB's 75 MiB/s. */
	CHECK_EQ_U64(p.read_first[0].length, 8 * GIB);
	CHECK_NEAR((double)p.read_first[0].planned_ns / 1e9, 8192.0 / 75, 1e-6);
	CHECK_EQ_U64(p.total_ns, 930000 * MS + p.read_first[0].planned_ns);
	plan_free(&p);
}

/* Only reading phases: a read-only plan (no write guard); one writing
 * phase among them makes it a writing plan. */
static void test_read_only(struct checks *checks)
{
	static const char reads[] =
		"{\"devices\": [{\"path\": \"/dev/nvme2n1\", \"type\": \"gp3\"}],"
		" \"phases\": [{\"phase\": \"randread\"}, {\"phase\": \"lat\"}, {\"phase\": "
		"\"seqread\"}]}";
	static const char one_write[] =
		"{\"devices\": [{\"path\": \"/dev/nvme2n1\", \"type\": \"gp3\"}],"
		" \"phases\": [{\"phase\": \"randread\"}, {\"phase\": \"seqwrite\"}]}";
	struct discovered_device found[1] = { plan_fixture_volume("nvme2n1", 100 * GIB) };
	struct run_device devices[CONFIG_MAX_DEVICES];
	struct plan p;
	char err[256];

	if (!CHECK(plan_fixture_build(&p, reads, found, 1, devices, err, sizeof(err)) == 0))
		return;
	CHECK(!p.writes);
	CHECK_EQ_U64(p.count, 3);
	for (size_t i = 0; i < p.count; i++)
		CHECK(!options_rw_writes(p.steps[i].job.rw));
	CHECK_EQ_U64(p.read_first[0].length, 0); /* nothing written, nothing read first */
	plan_free(&p);
	if (!CHECK(plan_fixture_build(&p, one_write, found, 1, devices, err, sizeof(err)) == 0))
		return;
	CHECK(p.writes);
	plan_free(&p);
}

/* The together phase: a step per device, marked as one group, read-only,
 * the plan's time counting the group once (on its first step). */
static void test_together(struct checks *checks)
{
	static const char doc[] = "{\"devices\": [{\"path\": \"/dev/nvme1n1\", \"type\": \"gp3\"},"
				  "              {\"path\": \"/dev/nvme2n1\", \"type\": \"gp3\"},"
				  "              {\"path\": \"/dev/nvme3n1\", \"type\": \"gp3\"}],"
				  " \"phases\": [{\"phase\": \"lat\"}, {\"phase\": \"together\"}]}";
	struct discovered_device found[3] = { plan_fixture_volume("nvme1n1", 100 * GIB),
					      plan_fixture_volume("nvme2n1", 100 * GIB),
					      plan_fixture_volume("nvme3n1", 100 * GIB) };
	struct run_device devices[CONFIG_MAX_DEVICES];
	struct plan p;
	char err[256];

	if (!CHECK(plan_fixture_build(&p, doc, found, 3, devices, err, sizeof(err)) == 0)) {
		fprintf(stderr, "  %s\n", err);
		return;
	}
	CHECK_EQ_U64(p.count, 6);
	CHECK(!p.writes);
	uint64_t lat = 0;
	for (size_t i = 0; i < 3; i++) {
		const struct plan_step *s = &p.steps[3 + i];
		CHECK(!strcmp(s->phase, "together"));
		CHECK_EQ_U64(s->device, i);
		CHECK_EQ_U64(s->together, 3);
		CHECK_EQ_U64(s->group_first, 3);
		CHECK(s->job.rw == RW_RANDREAD);
		CHECK_EQ_U64(s->job.bs, 4096);
		CHECK_EQ_U64(s->job.runtime_ns, 600 * 1000 * MS);
		CHECK_EQ_U64(p.steps[i].together, 0);
		lat += p.steps[i].planned_ns;
	}
	CHECK(p.steps[3].planned_ns > 0);
	CHECK_EQ_U64(p.steps[4].planned_ns + p.steps[5].planned_ns, 0);
	CHECK_EQ_U64(p.total_ns, lat + p.steps[3].planned_ns);
	plan_free(&p);
}

/* What is read first spans every writing step's region on its device, from
 * the lowest offset to the highest end, and nothing when allow_destroy
 * names the device. */
static void test_read_first_span(struct checks *checks)
{
	static const char spans[] =
		"{\"devices\": [{\"path\": \"/dev/nvme1n1\"}, {\"path\": \"/dev/nvme2n1\"}],"
		" %s \"phases\": [{\"phase\": \"w1\", \"rw\": \"write\", \"offset\": \"1G\","
		" \"size\": \"1G\"}, {\"phase\": \"randread\", \"offset\": \"20G\"},"
		" {\"phase\": \"w2\", \"rw\": \"randtrim\", \"offset\": \"4G\", \"size\": "
		"\"512M\", \"runtime\": 10}]}";
	struct discovered_device found[2] = { plan_fixture_volume("nvme1n1", 100 * GIB),
					      plan_fixture_volume("nvme2n1", 100 * GIB) };
	struct run_device devices[CONFIG_MAX_DEVICES];
	struct plan p;
	char doc[1024], err[256];

	snprintf(doc, sizeof(doc), spans, "");
	if (!CHECK(plan_fixture_build(&p, doc, found, 2, devices, err, sizeof(err)) == 0)) {
		fprintf(stderr, "  %s\n", err);
		return;
	}
	for (size_t d = 0; d < 2; d++) {
		CHECK_EQ_U64(p.read_first[d].offset, GIB);
		CHECK_EQ_U64(p.read_first[d].length, 3 * GIB + GIB / 2); /* to 4.5 GiB */
	}
	plan_free(&p);
	snprintf(doc, sizeof(doc), spans, "\"allow_destroy\": [\"/dev/nvme2n1\"],");
	if (!CHECK(plan_fixture_build(&p, doc, found, 2, devices, err, sizeof(err)) == 0)) {
		fprintf(stderr, "  %s\n", err);
		return;
	}
	CHECK_EQ_U64(p.read_first[0].length, 3 * GIB + GIB / 2);
	CHECK_EQ_U64(p.read_first[1].length, 0);
	plan_free(&p);
}

/* A "phases" entry the plan refuses, and what its one line must name. */
static const struct {
	const char *phases;
	const char *names;
} bad_phases[] = {
	{ "[{\"phase\": \"bogus\"}]", "phase 'bogus'" },
	{ "[{\"runtime\": 10}]", "phases[0] needs a \"phase\" name" },
	{ "[{\"phase\": \"lat\"}, \"seqread\"]", "phases[1] needs a \"phase\" name" },
	{ "[{\"phase\": \"lat\", \"runtime\": \"10m\"}]", "phases[0].runtime must be seconds" },
	{ "[{\"phase\": \"lat\", \"runtime\": 0}]", "phases[0].runtime must be seconds" },
	{ "[{\"phase\": \"lat\", \"runtime\": -5}]", "phases[0].runtime must be seconds" },
	{ "[{\"phase\": \"lat\"}, {\"phase\": \"lat\", \"runtime\": 1e300}]",
	  "config: 'phases[1].runtime' is 1e+300, outside 0..604800 s (a week)" },
	{ "[{\"phase\": \"lat\", \"runtime\": 604800.5}]",
	  "config: 'phases[0].runtime' is 604800.5, outside 0..604800 s (a week)" },
	{ "[{\"phase\": \"lat\", \"iodepth\": \"deep\"}]",
	  "option 'iodepth': invalid value 'deep'" },
	{ "[{\"phase\": \"lat\", \"bs\": \"4q\"}]", "option 'bs': invalid value '4q'" },
	{ "[{\"phase\": \"lat\", \"ramp_time\": \"soon\"}]",
	  "option 'ramp_time': invalid value 'soon'" },
	{ "[{\"phase\": \"lat\", \"numjobs\": 4}]", "option 'numjobs'" },
	{ "[{\"phase\": \"randwrite\", \"allow_destroy\": true}]",
	  "phase 'randwrite': allow_destroy is the config's list" },
};

static void test_bad_phases(struct checks *checks)
{
	struct discovered_device found[1] = { plan_fixture_volume("nvme2n1", 100 * GIB) };
	struct run_device devices[CONFIG_MAX_DEVICES];

	for (size_t i = 0; i < ARRAY_SIZE(bad_phases); i++) {
		char doc[512], err[256];
		struct plan p;
		int rc;

		snprintf(doc, sizeof(doc),
			 "{\"devices\": [{\"path\": \"/dev/nvme2n1\"}], \"phases\": %s}",
			 bad_phases[i].phases);
		rc = plan_fixture_build(&p, doc, found, 1, devices, err, sizeof(err));
		if (!CHECK(rc == -1) || !CHECK(strstr(err, bad_phases[i].names) != NULL))
			fprintf(stderr, "  %s -> %d \"%s\"\n", bad_phases[i].phases, rc, err);
		CHECK(strchr(err, '\n') == NULL);
		CHECK(p.steps == NULL);
	}
}

/* At most PLAN_MAX_PHASES phases. */
static void test_phase_limit(struct checks *checks)
{
	struct discovered_device found[1] = { plan_fixture_volume("nvme2n1", 100 * GIB) };
	struct run_device devices[CONFIG_MAX_DEVICES];
	char doc[2048] = "{\"devices\": [{\"path\": \"/dev/nvme2n1\"}], \"phases\": [", err[256];
	struct plan p;

	for (int i = 0; i <= PLAN_MAX_PHASES; i++)
		strcat(doc, i ? ", {\"phase\": \"lat\"}" : "{\"phase\": \"lat\"}");
	strcat(doc, "]}");
	CHECK(plan_fixture_build(&p, doc, found, 1, devices, err, sizeof(err)) == -1);
	CHECK(strstr(err, "more than 16 phases") != NULL);
}

/* Sixteen phases with ten years of ramp_time each on sixteen devices: 2,560
 * years, past what a uint64_t of ns holds (584).  The total stops there, so
 * the URL expiry check sees a plan that never ends, not one that wrapped
 * to a few years. */
static void test_total_saturates(struct checks *checks)
{
	struct discovered_device found[CONFIG_MAX_DEVICES];
	struct run_device devices[CONFIG_MAX_DEVICES];
	char doc[8192] = "{\"devices\": [", err[256];
	struct plan p;

	for (int i = 0; i < CONFIG_MAX_DEVICES; i++) {
		char name[16], entry[64];
		snprintf(name, sizeof(name), "nvme%dn1", i + 1);
		found[i] = plan_fixture_volume(name, 100 * GIB);
		snprintf(entry, sizeof(entry), "%s{\"path\": \"/dev/%s\"}", i ? ", " : "", name);
		strcat(doc, entry);
	}
	strcat(doc, "], \"phases\": [");
	for (int i = 0; i < PLAN_MAX_PHASES; i++)
		strcat(doc, i ? ", {\"phase\": \"lat\", \"ramp_time\": \"3650d\"}"
			      : "{\"phase\": \"lat\", \"ramp_time\": \"3650d\"}");
	strcat(doc, "]}");
	if (!CHECK(plan_fixture_build(&p, doc, found, CONFIG_MAX_DEVICES, devices, err,
				      sizeof(err)) == 0)) {
		fprintf(stderr, "  %s\n", err);
		return;
	}
	CHECK_EQ_U64(p.count, CONFIG_MAX_DEVICES * PLAN_MAX_PHASES);
	CHECK_EQ_U64(p.total_ns, UINT64_MAX);
	plan_free(&p);
}

CHECK_MAIN(test_gp2_gp3_sequence, test_hdd_plan, test_randread_follows_the_burst, test_time_scale,
	   test_region_size, test_phases_override, test_read_only, test_bad_phases,
	   test_phase_limit, test_total_saturates, test_read_first_span, test_together)
