/* test_loadcurve_plan.c - the loadcurve phase's steps: offered rates from
 * each volume's sustained rate (gp2's baseline, gp3's provisioned IOPS,
 * the instance's baseline when lower, a non-EBS device's configured
 * iops or none), poisson arrivals, a queue deep enough for 110 %, step
 * lengths that give the p99 enough samples and scale with time_scale
 * down to 3 s of real time,
 * the order on a bursting gp2 (right after its own randread, highest
 * load first), "loads" and "runtime" from the config, and what is
 * refused. */
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "check.h"
#include "fixtures/plan_fixture.h"
#include "lib/lib.h"
#include "run/plan.h"
#include "run/run_devices.h"
#include "run/internal.h"

#define MS 1000000ull /* ns */

/* A 100 GiB volume /dev/NAME: EBS, or an instance store the model does
 * not cover. */
static struct discovered_device volume(const char *name, bool ebs)
{
	struct discovered_device d = plan_fixture_volume(name, 100 * GIB);
	d.ebs_like = ebs;
	d.kind = ebs ? NVME_CTRL_EBS : NVME_CTRL_INSTANCE_STORE;
	return d;
}

/* Config text over the volumes in found -> plan.  plan_build's result. */
static int plan_of(struct plan *p, const char *doc, struct discovered_device *found, size_t n,
		   char *err, size_t errlen)
{
	struct run_device devices[CONFIG_MAX_DEVICES];
	return plan_fixture_build(p, doc, found, n, devices, err, errlen);
}

/* One loadcurve step as it should be planned. */
struct want_lc {
	size_t device;
	double percent, offered;
	unsigned iodepth;
	uint64_t runtime_ms;
	const char *log;
};

static void check_lc(struct checks *checks, const struct plan_step *s, const struct want_lc *w)
{
	if (!CHECK(!strcmp(s->phase, "loadcurve")))
		fprintf(stderr, "  step is %s\n", s->phase);
	CHECK_EQ_U64(s->device, w->device);
	CHECK_NEAR(s->load.percent, w->percent, 1e-9);
	CHECK_NEAR(s->load.offered_iops, w->offered, 1e-9);
	CHECK(s->load.above_sustained == (w->percent > 100));
	CHECK_EQ_U64(s->job.rate_iops[DDIR_READ], (uint64_t)w->offered);
	CHECK(s->job.rate_process == RATE_POISSON);
	CHECK(s->job.rw == RW_RANDREAD);
	CHECK_EQ_U64(s->job.bs, 4096);
	CHECK_EQ_U64(s->job.iodepth, w->iodepth);
	CHECK(s->job.time_based);
	if (!CHECK(s->job.runtime_ns == w->runtime_ms * MS))
		fprintf(stderr, "  %.0f %%: runtime %llu ms, want %llu\n", w->percent,
			(unsigned long long)(s->job.runtime_ns / MS),
			(unsigned long long)w->runtime_ms);
	if (!CHECK(!strcmp(s->iops_log, w->log)))
		fprintf(stderr, "  log %s, want %s\n", s->iops_log, w->log);
	/* A step keeps no histogram or per-I/O log, whatever its slot held
	 * before the randread steps moved (gp2's 110 % step had taken gp3's
	 * randread histogram log). */
	if (!CHECK(!s->hist_log[0] && !s->lat_log[0]))
		fprintf(stderr, "  %.0f %%: hist_log '%s', lat_log '%s'\n", w->percent, s->hist_log,
			s->lat_log);
	/* A bursting volume's steps above its baseline hold a minute for their lead-in. */
	CHECK(s->load.bursting == (w->device == 0));
	CHECK_EQ_U64(s->planned_ns,
		     w->runtime_ms * MS + (s->load.bursting && w->percent > 100 ? 60000 * MS : 0));
}

static const char gp2_gp3[] =
	"{\"devices\": [{\"path\": \"/dev/nvme1n1\", \"type\": \"gp2\", \"size_gib\": 100},"
	"              {\"path\": \"/dev/nvme2n1\", \"type\": \"gp3\", \"size_gib\": 100}],"
	" \"phases\": [{\"phase\": \"randread\"}, {\"phase\": \"loadcurve\"}]}";

/* gp2 100 GiB sustains its 300 IOPS baseline: 75 ... 330, run from 110 %
 * down right after its randread; the 25 % step runs 20,000 / 75 = 267 s.
 * gp3 sustains 3,000: 750 ... 3,300, rising, a minute each. */
static void test_rates_order_and_lengths(struct checks *checks)
{
	static const struct want_lc want[] = {
		{ 0, 110, 330, 32, 61000, "gp2_lc110_iops.1.log" },
		{ 0, 100, 300, 32, 67000, "gp2_lc100_iops.1.log" },
		{ 0, 90, 270, 32, 75000, "gp2_lc90_iops.1.log" },
		{ 0, 75, 225, 32, 89000, "gp2_lc75_iops.1.log" },
		{ 0, 50, 150, 32, 134000, "gp2_lc50_iops.1.log" },
		{ 0, 25, 75, 32, 267000, "gp2_lc25_iops.1.log" },
		{ 1, 25, 750, 32, 60000, "gp3_lc25_iops.1.log" },
		{ 1, 50, 1500, 32, 60000, "gp3_lc50_iops.1.log" },
		{ 1, 75, 2250, 32, 60000, "gp3_lc75_iops.1.log" },
		{ 1, 90, 2700, 32, 60000, "gp3_lc90_iops.1.log" },
		{ 1, 100, 3000, 32, 60000, "gp3_lc100_iops.1.log" },
		{ 1, 110, 3300, 32, 60000, "gp3_lc110_iops.1.log" },
	};
	struct discovered_device found[2] = { volume("nvme1n1", true), volume("nvme2n1", true) };
	struct plan p;
	char err[256];
	if (!CHECK(plan_of(&p, gp2_gp3, found, 2, err, sizeof(err)) == 0)) {
		fprintf(stderr, "  %s\n", err);
		return;
	}
	CHECK_EQ_U64(p.count, 14);
	CHECK_EQ_U64(p.phase_count, 2);
	/* randread(gp2), its six steps, randread(gp3), its six. */
	CHECK(!strcmp(p.steps[0].phase, "randread") && p.steps[0].device == 0);
	CHECK(!strcmp(p.steps[7].phase, "randread") && p.steps[7].device == 1);
	for (size_t i = 0; i < 12 && p.count == 14; i++)
		check_lc(checks, &p.steps[i < 6 ? i + 1 : i + 2], &want[i]);
	CHECK_NEAR(p.steps[1].load.sustained_iops, 300, 1e-9);
	CHECK(!strcmp(p.steps[1].load.sustained_from, "the volume's baseline"));
	CHECK(!strcmp(p.steps[8].load.sustained_from, "the volume's provisioned IOPS"));
	CHECK(!p.writes);
	/* The lead-in spends what the gap refilled at the step's own surplus:
	 * 2 s at 300 IOPS is 600 credits, 20 s at 330 - 300; a gap of 7 s would
	 * need 70 s, over the minute: none, the step runs on burst. */
	CHECK_EQ_U64(plan_load_ramp_ns(&p.steps[1], 2000 * MS), 20000 * MS);
	CHECK_EQ_U64(plan_load_ramp_ns(&p.steps[1], 7000 * MS), 0);
	CHECK_EQ_U64(plan_load_ramp_ns(&p.steps[1], 0), 0);
	CHECK_EQ_U64(plan_load_ramp_ns(&p.steps[2], 2000 * MS), 0);  /* 100 %: not above */
	CHECK_EQ_U64(plan_load_ramp_ns(&p.steps[13], 2000 * MS), 0); /* gp3: no bucket */
	plan_free(&p);
}

/* time_scale 0.02 scales every step like the other phases, 267 s -> 5.34 s,
 * but no step runs under 3 s of real time (150 s here): 61 ... 134 s -> 3 s,
 * long enough for a cap to hold (a minute at 0.01 was 0.6 s, no knee). */
static void test_time_scale(struct checks *checks)
{
	static const char doc[] =
		"{\"devices\": [{\"path\": \"/dev/nvme1n1\", \"type\": \"gp2\", \"size_gib\": "
		"100}],"
		" \"time_scale\": 0.02, \"phases\": [{\"phase\": \"loadcurve\"}]}";
	static const uint64_t want_ms[6] = { 3000, 3000, 3000, 3000, 3000, 5340 };
	struct discovered_device found[1] = { volume("nvme1n1", true) };
	struct plan p;
	char err[256];
	if (!CHECK(plan_of(&p, doc, found, 1, err, sizeof(err)) == 0))
		return;
	CHECK_EQ_U64(p.count, 6);
	for (size_t i = 0; i < p.count && i < 6; i++)
		CHECK_EQ_U64(p.steps[i].job.runtime_ns, want_ms[i] * MS);
	/* Not after randread: the steps still run from the top down on gp2. */
	CHECK_NEAR(p.steps[0].load.percent, 110, 1e-9);
	/* The lead-in is not scaled (the gap is not): 20 s after a 2 s gap,
	 * though the step itself lasts 3 s. */
	CHECK_EQ_U64(plan_load_ramp_ns(&p.steps[0], 2000 * MS), 20000 * MS);
	plan_free(&p);
}

/* The length and depth rules: a minute at least, 600 s at most, and 3 s
 * of real time whatever the time scale (over the 600 s when it must be);
 * 4 ms of the offered load in the queue, 32 to 1,024. */
static void test_length_and_depth_rules(struct checks *checks)
{
	CHECK_NEAR(plan_loadcurve_step_seconds(3300, 1), 60, 1e-9);
	CHECK_NEAR(plan_loadcurve_step_seconds(75, 1), 267, 1e-9);
	CHECK_NEAR(plan_loadcurve_step_seconds(25, 1), 600, 1e-9);
	CHECK_NEAR(plan_loadcurve_step_seconds(0, 1), 600, 1e-9);
	CHECK_NEAR(plan_loadcurve_step_seconds(3300, 0.05), 60, 1e-9);	/* 3 s real */
	CHECK_NEAR(plan_loadcurve_step_seconds(3300, 0.01), 300, 1e-9); /* 3 s, not 0.6 */
	CHECK_NEAR(plan_loadcurve_step_seconds(75, 0.01), 300, 1e-9);
	CHECK_NEAR(plan_loadcurve_step_seconds(75, 0.02), 267, 1e-9);
	CHECK_NEAR(plan_loadcurve_step_seconds(25, 0.001), 3000, 1e-9);
	CHECK_EQ_U64(plan_loadcurve_iodepth(330), 32);
	CHECK_EQ_U64(plan_loadcurve_iodepth(88000), 352);
	CHECK_EQ_U64(plan_loadcurve_iodepth(1e7), 1024);
}

/* A gp3 of 16,000 IOPS on an m5.large is held to the instance's 3,600
 * baseline; an io2 of 10,000 IOPS at 110 % queues 44 deep. */
static void test_instance_and_depth(struct checks *checks)
{
	static const char doc[] =
		"{\"devices\": [{\"path\": \"/dev/nvme1n1\", \"type\": \"gp3\", \"iops\": 16000},"
		"              {\"path\": \"/dev/nvme2n1\", \"type\": \"io2\", \"iops\": 10000}],"
		" \"environment\": {\"instance_type\": \"m5.large\"},"
		" \"phases\": [{\"phase\": \"loadcurve\", \"loads\": [50, 110]}]}";
	static const char no_instance[] =
		"{\"devices\": [{\"path\": \"/dev/nvme2n1\", \"type\": \"io2\", \"iops\": 10000}],"
		" \"phases\": [{\"phase\": \"loadcurve\", \"loads\": [50, 110]}]}";
	struct discovered_device found[2] = { volume("nvme1n1", true), volume("nvme2n1", true) };
	struct plan p;
	char err[256];
	if (!CHECK(plan_of(&p, doc, found, 2, err, sizeof(err)) == 0)) {
		fprintf(stderr, "  %s\n", err);
		return;
	}
	CHECK_EQ_U64(p.count, 4);
	CHECK_NEAR(p.steps[0].load.sustained_iops, 3600, 1e-9);
	CHECK(!strcmp(p.steps[0].load.sustained_from, "the instance's baseline EBS IOPS"));
	CHECK_NEAR(p.steps[1].load.offered_iops, 3960, 1e-9);
	CHECK_NEAR(p.steps[3].load.offered_iops, 3960, 1e-9); /* io2 held there too */
	plan_free(&p);
	if (!CHECK(plan_of(&p, no_instance, found + 1, 1, err, sizeof(err)) == 0))
		return;
	CHECK_NEAR(p.steps[1].load.offered_iops, 11000, 1e-9);
	CHECK_EQ_U64(p.steps[1].job.iodepth, 44);
	plan_free(&p);
}

/* A device the model does not cover gets steps only from its config's
 * iops; without one it gets none (and stderr says why). */
static void test_not_ebs(struct checks *checks)
{
	static const char given[] = "{\"devices\": [{\"path\": \"/dev/nvme1n1\", \"iops\": 20000},"
				    "              {\"path\": \"/dev/nvme2n1\"}],"
				    " \"phases\": [{\"phase\": \"loadcurve\", \"runtime\": 5}]}";
	struct discovered_device found[2] = { volume("nvme1n1", false), volume("nvme2n1", false) };
	struct plan p;
	char err[256];
	if (!CHECK(plan_of(&p, given, found, 2, err, sizeof(err)) == 0)) {
		fprintf(stderr, "  %s\n", err);
		return;
	}
	CHECK_EQ_U64(p.count, 6); /* nvme2n1: none, and a note the run prints once it starts */
	CHECK(strstr(p.notes, "no load curve on nvme2n1: ") && strchr(p.notes, '\n') &&
	      !strstr(p.notes, "nvme1n1"));
	for (size_t i = 0; i < p.count; i++) {
		CHECK_EQ_U64(p.steps[i].device, 0);
		CHECK_EQ_U64(p.steps[i].job.runtime_ns, 5000 * MS); /* the config's runtime */
	}
	CHECK_NEAR(p.steps[0].load.offered_iops, 5000, 1e-9); /* 25 %, rising */
	CHECK(!strcmp(p.steps[0].load.sustained_from, "the config's iops"));
	plan_free(&p);
}

/* A device the model does not cover, typed gp2 with its size in its config
 * (an emulated 100 GiB gp2 on a loop device): its steps from the baseline
 * that size gives, 300 IOPS, as if its iops (300) were given; typed
 * without a size, none. */
static void test_not_ebs_typed(struct checks *checks)
{
	static const char doc[] =
		"{\"devices\": [{\"path\": \"/dev/nvme1n1\", \"type\": \"gp2\", \"size_gib\": 100},"
		"              {\"path\": \"/dev/nvme2n1\", \"type\": \"gp2\"}],"
		" \"phases\": [{\"phase\": \"loadcurve\", \"loads\": [50, 100]}]}";
	struct discovered_device found[2] = { volume("nvme1n1", false), volume("nvme2n1", false) };
	struct plan p;
	char err[256];
	if (!CHECK(plan_of(&p, doc, found, 2, err, sizeof(err)) == 0)) {
		fprintf(stderr, "  %s\n", err);
		return;
	}
	CHECK_EQ_U64(p.count, 2);
	CHECK_NEAR(p.steps[0].load.sustained_iops, 300, 1e-9);
	CHECK(!strcmp(p.steps[0].load.sustained_from,
		      "the baseline of the config's type and size"));
	CHECK_NEAR(p.steps[0].load.offered_iops + p.steps[1].load.offered_iops, 450, 1e-9);
	CHECK(strstr(p.notes, "no load curve on gp2-2: ") && !strstr(p.notes, "on gp2:"));
	plan_free(&p);
}

/* The config may change the arrivals and the depth, never the rate. */
static void test_config_options(struct checks *checks)
{
	static const char doc[] =
		"{\"devices\": [{\"path\": \"/dev/nvme1n1\", \"type\": \"gp3\"}],"
		" \"phases\": [{\"phase\": \"loadcurve\", \"rate_process\": \"linear\","
		" \"iodepth\": 8, \"loads\": [10, 200]}]}";
	static const char *const bad[][2] = {
		{ "{\"phase\": \"loadcurve\", \"rate_iops\": 100}", "sets each step's rate_iops" },
		{ "{\"phase\": \"loadcurve\", \"loads\": [50, 25]}", "\"loads\" must be" },
		{ "{\"phase\": \"loadcurve\", \"loads\": []}", "\"loads\" must be" },
		{ "{\"phase\": \"loadcurve\", \"loads\": [\"x\"]}", "\"loads\" must be" },
		{ "{\"phase\": \"loadcurve\", \"loads\": 50}", "\"loads\" must be" },
		{ "{\"phase\": \"loadcurve\", \"write_iops_log\": \"x\"}",
		  "drop \"write_iops_log\"" },
	};
	struct discovered_device found[1] = { volume("nvme1n1", true) };
	struct plan p;
	char err[256], text[512];
	if (!CHECK(plan_of(&p, doc, found, 1, err, sizeof(err)) == 0)) {
		fprintf(stderr, "  %s\n", err);
		return;
	}
	CHECK_EQ_U64(p.count, 2);
	CHECK(p.steps[0].job.rate_process == RATE_LINEAR);
	CHECK_EQ_U64(p.steps[0].job.iodepth, 8);
	CHECK_EQ_U64(p.steps[1].job.rate_iops[DDIR_READ], 6000);
	plan_free(&p);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(text, sizeof(text),
			 "{\"devices\": [{\"path\": \"/dev/nvme1n1\"}], \"phases\": [%s]}",
			 bad[i][0]);
		int rc = plan_of(&p, text, found, 1, err, sizeof(err));
		if (!CHECK(rc == -1) || !CHECK(strstr(err, bad[i][1]) != NULL))
			fprintf(stderr, "  %s -> %d \"%s\"\n", bad[i][0], rc, err);
		CHECK(strchr(err, '\n') == NULL);
	}
}

/* results.json's "load": on_burst only above the sustained rate and when
 * the step was served nearer the offered rate than the sustained one. */
static void test_load_json(struct checks *checks)
{
	struct plan_load l = { .percent = 110,
			       .offered_iops = 330,
			       .sustained_iops = 300,
			       .above_sustained = true,
			       .sustained_from = "the volume's baseline" };
	json_t *o = plan_load_json(&l, 329.5);
	CHECK(json_is_true(json_object_get(o, "on_burst")));
	CHECK_NEAR(json_number_value(json_object_get(o, "percent")), 110, 1e-9);
	CHECK_NEAR(json_number_value(json_object_get(o, "offered_iops")), 330, 1e-9);
	json_decref(o);
	o = plan_load_json(&l, 301);
	CHECK(json_is_false(json_object_get(o, "on_burst")));
	json_decref(o);
	o = plan_load_json(&l, NAN); /* the dry run: not measured yet */
	CHECK(json_is_null(json_object_get(o, "on_burst")));
	json_decref(o);
	struct plan_load below = { .percent = 90,
				   .offered_iops = 270,
				   .sustained_iops = 300,
				   .sustained_from = "the volume's baseline" };
	o = plan_load_json(&below, 270);
	CHECK(json_is_false(json_object_get(o, "on_burst")));
	json_decref(o);
}

CHECK_MAIN(test_rates_order_and_lengths, test_time_scale, test_length_and_depth_rules,
	   test_instance_and_depth, test_not_ebs, test_not_ebs_typed, test_config_options,
	   test_load_json)
