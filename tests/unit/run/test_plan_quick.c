/* test_plan_quick.c - the quick plan (run/plan_quick.c): the default
 * plan's steps on a 1 GiB region, each timed step ending at its ceiling
 * unless SNIA's test (ss=snia_*) finds it steady after its floor; the
 * metric the analysis judges each phase by; no stop on a step a credit
 * bucket may serve (gp2's, a bursting instance's), and the whole plan on
 * a gp3 and a gp2 of 100 GiB within 6 minutes. */
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "check.h"
#include "fixtures/plan_fixture.h"
#include "lib/lib.h"
#include "run/plan.h"
#include "run/internal.h"

#define S 1000000000ull /* ns */

static const char quick_pair[] =
	"{\"plan\": \"quick\", \"environment\": {\"instance_type\": \"%s\"},"
	" \"time_scale\": %g, \"devices\": ["
	"  {\"path\": \"/dev/nvme1n1\", \"type\": \"gp3\", \"size_gib\": 100, \"iops\": 3000,"
	"   \"throughput_mibs\": 125},"
	"  {\"path\": \"/dev/nvme2n1\", \"type\": \"gp2\", \"size_gib\": 100}]}";

static int build(struct plan *p, const char *instance, double scale, char *err, size_t errlen)
{
	struct discovered_device found[2] = { plan_fixture_volume("nvme1n1", 100 * GIB),
					      plan_fixture_volume("nvme2n1", 100 * GIB) };
	struct run_device devices[CONFIG_MAX_DEVICES];
	char doc[sizeof(quick_pair) + 64];
	snprintf(doc, sizeof(doc), quick_pair, instance, scale);
	return plan_fixture_build(p, doc, found, 2, devices, err, errlen);
}

static const char *criterion(const struct plan_step *s)
{
	if (!s->job.ss.dur_ns)
		return "";
	return !s->job.ss.snia ? "fio" : s->job.ss.p99 ? "p99" : s->job.ss.iops ? "iops" : "bw";
}

/* gp3 steps end when steady, on the analysis's metric; gp2's run to their
 * ceiling, all of them drawing on its bucket but the load-curve steps at
 * or below its 300 IOPS baseline. */
static void test_gp3_gp2_quick(struct checks *checks)
{
	struct plan p;
	char err[256];
	if (!CHECK(build(&p, "m5.xlarge", 1, err, sizeof(err)) == 0)) {
		fprintf(stderr, "  %s\n", err);
		return;
	}
	CHECK_EQ_U64(p.count, 24);
	CHECK_EQ_U64(p.phase_count, 7);
	for (size_t i = 0; i < p.count; i++) {
		const struct plan_step *s = &p.steps[i];
		bool gp3 = s->device == 0, lc = !strcmp(s->phase, "loadcurve");
		const char *want = "";
		CHECK_EQ_U64(s->job.size, GIB);
		if (!strcmp(s->phase, "layout")) {
			CHECK(!s->job.time_based && !s->job.ss.dur_ns);
			continue;
		}
		CHECK_EQ_U64(s->job.runtime_ns, (lc ? 10 : 15) * S);
		CHECK_EQ_U64(s->job.ramp_ns, lc ? 0 : S); /* one round, unmeasured */
		/* No lead-in on gp2's 110 %: its bucket is not drained. */
		CHECK_EQ_U64(s->planned_ns, s->job.ramp_ns + s->job.runtime_ns);
		if (gp3 || (lc && !s->load.above_sustained))
			want = lc || !strcmp(s->phase, "lat") ? "p99"
			       : !strncmp(s->phase, "seq", 3) ? "bw"
							      : "iops";
		if (!CHECK(!strcmp(criterion(s), want)))
			fprintf(stderr, "  step %zu (%s on %s): %s, want %s\n", i, s->phase,
				gp3 ? "gp3" : "gp2", criterion(s), want);
		if (!*want)
			continue;
		CHECK_EQ_U64(s->job.ss.interval_ns, S);
		CHECK_EQ_U64(s->job.ss.dur_ns, 5 * S);
		CHECK_EQ_U64(s->job.ss.floor_ns, (lc ? 5 : 10) * S);
		CHECK_EQ_U64(s->job.ss.ramp_ns, 0);
	}
	/* gp2's 110 % step (330 of 300 IOPS) is on its bucket: no stop, no ramp. */
	CHECK(!strcmp(p.steps[10].phase, "loadcurve") && p.steps[10].load.percent == 110);
	CHECK(!p.steps[10].job.ss.dur_ns);
	CHECK(plan_load_ramp_ns(&p.steps[10], 60 * S) == 0);
	/* Both 1 GiB regions laid out and read first at the volumes' baseline
	 * throughput (8.19 s, 13.65 s each), 5 x 16 s of phases and 60 s of
	 * load curve per volume: 323.7 s, the default's 5,363 s in minutes. */
	CHECK_NEAR((double)p.total_ns / 1e9, 2 * (1024.0 / 125 + 1024.0 / 75) + 2 * (80 + 60),
		   1e-6);
	CHECK(p.total_ns <= 360 * S);
	plan_free(&p);
}

/* An m5.large bursts above 81.25 MB/s, below the gp3's 125 MiB/s: every
 * gp3 step that may ask more runs to its ceiling too, only the load curve's
 * steps at or below the sustained rate (the instance's 3,600 IOPS are
 * above the gp3's 3,000) may stop. */
static void test_instance_burst(struct checks *checks)
{
	struct plan p;
	char err[256];
	if (!CHECK(build(&p, "m5.large", 1, err, sizeof(err)) == 0)) {
		fprintf(stderr, "  %s\n", err);
		return;
	}
	size_t stops = 0;
	for (size_t i = 0; i < p.count; i++) {
		const struct plan_step *s = &p.steps[i];
		bool may = !strcmp(s->phase, "loadcurve") && !s->load.above_sustained;
		CHECK(!s->job.ss.dur_ns || may);
		stops += s->job.ss.dur_ns > 0;
	}
	CHECK_EQ_U64(stops, 10); /* 5 of gp3's load steps, 5 of gp2's */
	plan_free(&p);
}

/* Time-scaled, the quick plan never runs faster than 0.2: rounds of 0.2 s
 * of real time, floors of 2 s (1 s), and load-curve steps of 3 s at
 * least, as the default plan's. */
static void test_time_scale(struct checks *checks)
{
	struct plan p;
	char err[256];
	if (!CHECK(build(&p, "m5.xlarge", 0.01, err, sizeof(err)) == 0)) {
		fprintf(stderr, "  %s\n", err);
		return;
	}
	const struct plan_step *rr = &p.steps[2], *lc = &p.steps[3];
	CHECK(!strcmp(rr->phase, "randread") && !strcmp(lc->phase, "loadcurve"));
	CHECK_EQ_U64(rr->job.runtime_ns, 3 * S);
	/* Every timed phase alike, whatever its default runtime (randwrite's
	 * 120 s, seqwrite's 60 s). */
	CHECK(!strcmp(p.steps[16].phase, "randwrite") && !strcmp(p.steps[23].phase, "seqwrite"));
	CHECK_EQ_U64(p.steps[16].job.runtime_ns, 3 * S);
	CHECK_EQ_U64(p.steps[23].job.runtime_ns, 3 * S);
	CHECK_EQ_U64(rr->job.ramp_ns, S / 5);
	CHECK_EQ_U64(rr->job.ss.interval_ns, S / 5);
	CHECK_EQ_U64(rr->job.ss.dur_ns, S);
	CHECK_EQ_U64(rr->job.ss.floor_ns, 2 * S);
	CHECK_EQ_U64(lc->job.runtime_ns, 3 * S);
	CHECK_EQ_U64(lc->job.ss.floor_ns, S);
	plan_free(&p);
	/* Above 0.2, the plan's times are scaled as every other. */
	if (!CHECK(build(&p, "m5.xlarge", 0.5, err, sizeof(err)) == 0))
		return;
	CHECK_EQ_U64(p.steps[2].job.runtime_ns, 7500000000ull);
	CHECK_EQ_U64(p.steps[2].job.ss.interval_ns, S / 2);
	plan_free(&p);
}

/* The config's phases, quick: the sweep's 30 s writes end at the ceiling
 * or when their MiB/s is steady; its 3 s read (hdparm's) stays 3 s. */
static void test_sweep_quick(struct checks *checks)
{
	struct discovered_device found[1] = { plan_fixture_volume("nvme1n1", 100 * GIB) };
	struct run_device devices[CONFIG_MAX_DEVICES];
	struct plan p;
	char err[256];
	if (!CHECK(plan_fixture_build(&p,
				      "{\"plan\": \"quick\", \"phases\": [\"sweep\"], \"devices\": "
				      "[{\"path\": \"/dev/nvme1n1\", \"type\": \"gp3\"}]}",
				      found, 1, devices, err, sizeof(err)) == 0)) {
		fprintf(stderr, "  %s\n", err);
		return;
	}
	CHECK_EQ_U64(p.count, 8);
	for (size_t i = 0; i < p.count; i++) {
		bool read = i == p.count - 1;
		CHECK_EQ_U64(p.steps[i].job.runtime_ns, (read ? 3 : 15) * S);
		CHECK(!strcmp(criterion(&p.steps[i]), "bw"));
	}
	plan_free(&p);
}

/* --plan quick and the config's "plan": the same plan; nothing else is a
 * config's plan, and --plan names the plans there are. */
static void test_select(struct checks *checks)
{
	struct run_config c;
	char err[256];
	config_defaults(&c);
	CHECK(!c.quick);
	CHECK(plan_select(&c, "quick", err, sizeof(err)) == 0 && c.quick && !c.phases);
	CHECK_EQ_U64(plan_test_size(&c), GIB);
	c.test_size = 512ull << 20; /* a smaller region stays */
	CHECK_EQ_U64(plan_test_size(&c), 512ull << 20);
	CHECK(plan_select(&c, "fast", err, sizeof(err)) != 0 && strstr(err, "quick"));
	config_free(&c);
	config_defaults(&c);
	CHECK_EQ_U64(plan_test_size(&c), 8 * GIB);
	json_t *doc = json_pack("{ss}", "plan", "quick");
	CHECK(config_from_json(&c, doc, err, sizeof(err)) == 0 && c.quick);
	json_decref(doc);
	doc = json_pack("{ss}", "plan", "sweep");
	err[0] = '\0';
	CHECK(config_from_json(&c, doc, err, sizeof(err)) != 0 && strstr(err, "'plan'"));
	json_decref(doc);
	config_free(&c);
}

CHECK_MAIN(test_gp3_gp2_quick, test_instance_burst, test_time_scale, test_sweep_quick, test_select)
