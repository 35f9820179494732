/* test_sweep_plan.c - the "sweep" plan (seed 002): eight steps per device
 * (O_DIRECT sequential writes at qd1 of 16k..1M, then a 2 MiB read at qd1
 * as hdparm --direct -t), each device in turn at each block size, scaled
 * by time_scale; `--plan sweep` in place of the config's phases; the
 * pattern the sweep sets refused from the config; and the sweep chart
 * signed, rendered and uploaded only when the plan has a sweep. */
#include <jansson.h>
#include <string.h>

#include "check.h"
#include "fixtures/plan_fixture.h"
#include "run/artifacts.h"
#include "run/plan.h"
#include "launch/launch.h"
#include "launch/internal.h"
#include "run/run_devices.h"
#include "run/internal.h"

#define MS 1000000ull /* ns */

static const char sweep_config[] =
	"{\"devices\": [{\"path\": \"/dev/nvme1n1\", \"type\": \"gp2\", \"size_gib\": 100},"
	" {\"path\": \"/dev/nvme2n1\", \"type\": \"gp3\", \"size_gib\": 100}],"
	" \"time_scale\": 0.01, \"phases\": [%s]}";

/* The config with `phases` inside its "phases" array, parsed into c. */
static int config_with(struct run_config *c, const char *phases, char *err, size_t errlen)
{
	char doc[1024];
	snprintf(doc, sizeof(doc), sweep_config, phases);
	json_t *root = json_loads(doc, 0, NULL);
	config_defaults(c);
	int rc = root ? config_from_json(c, root, err, errlen) : -1;
	json_decref(root);
	return rc;
}

/* The plan a run of c makes; returns plan_build's result. */
static int sweep_plan(struct plan *p, const struct run_config *c, char *err, size_t errlen)
{
	struct run_device devs[CONFIG_MAX_DEVICES];
	size_t count = plan_fixture_devices(devs, c);
	memset(p, 0, sizeof(*p));
	return plan_build(p, c, devs, count, err, errlen);
}

/* ["sweep"]: 16 steps, block size by block size, gp2 then gp3 at each;
 * every one a "sweep" phase at qd1, direct, 30 s x 0.01 for the writes
 * and hdparm's 3 s x 0.01 for the read; logs named per step. */
static void test_sweep_expands(struct checks *checks)
{
	static const struct {
		const char *short_name;
		enum rw_pattern rw;
		uint32_t bs;
		uint64_t runtime_ms;
	} want[] = {
		{ "sweep16k", RW_WRITE, 16384, 300 },	{ "sweep32k", RW_WRITE, 32768, 300 },
		{ "sweep64k", RW_WRITE, 65536, 300 },	{ "sweep128k", RW_WRITE, 131072, 300 },
		{ "sweep256k", RW_WRITE, 262144, 300 }, { "sweep512k", RW_WRITE, 524288, 300 },
		{ "sweep1m", RW_WRITE, 1048576, 300 },	{ "sweepread", RW_READ, 2097152, 30 },
	};
	static const char *const labels[] = { "gp2", "gp3" };
	struct run_config c;
	struct plan p;
	char err[256], log[96];
	CHECK(config_with(&c, "\"sweep\"", err, sizeof(err)) == 0);
	CHECK(sweep_plan(&p, &c, err, sizeof(err)) == 0);
	CHECK_EQ_U64(p.count, 16);
	CHECK_EQ_U64(p.phase_count, 1);
	CHECK(plan_has_phase(&p, PLAN_SWEEP) && !plan_has_phase(&p, "randread"));
	CHECK(p.writes); /* the write guard applies */
	for (size_t i = 0; i < p.count && i < 16; i++) {
		const struct plan_step *s = &p.steps[i];
		size_t k = i / 2, d = i % 2;
		snprintf(log, sizeof(log), "%s_%s_iops.1.log", labels[d], want[k].short_name);
		CHECK(!strcmp(s->phase, "sweep"));
		CHECK_EQ_U64(s->device, d);
		CHECK(!strcmp(s->iops_log, log));
		CHECK(s->job.rw == want[k].rw);
		CHECK_EQ_U64(s->job.bs, want[k].bs);
		CHECK_EQ_U64(s->job.iodepth, 1);
		CHECK(s->job.direct && s->job.time_based);
		CHECK_EQ_U64(s->job.runtime_ns, want[k].runtime_ms * MS);
	}
	plan_free(&p);
	config_free(&c);
}

/* A runtime given to the sweep is every step's; other phases keep theirs. */
static void test_sweep_runtime_and_mix(struct checks *checks)
{
	struct run_config c;
	struct plan p;
	char err[256];
	CHECK(config_with(&c, "{\"phase\": \"sweep\", \"runtime\": 200}, {\"phase\": \"lat\"}", err,
			  sizeof(err)) == 0);
	CHECK(sweep_plan(&p, &c, err, sizeof(err)) == 0);
	CHECK_EQ_U64(p.count, 18);
	for (size_t i = 0; i < 16 && i < p.count; i++)
		CHECK_EQ_U64(p.steps[i].job.runtime_ns, 2000 * MS);
	CHECK(p.count == 18 && !strcmp(p.steps[16].phase, "lat") &&
	      p.steps[16].job.runtime_ns == 600 * MS);
	plan_free(&p);
	config_free(&c);
}

/* The sweep's own pattern cannot be changed from the config. */
static void test_sweep_pattern_is_its_own(struct checks *checks)
{
	static const char *const bad[] = { "{\"phase\": \"sweep\", \"bs\": \"4k\"}",
					   "{\"phase\": \"sweep\", \"rw\": \"randwrite\"}",
					   "{\"phase\": \"sweep\", \"iodepth\": 8}" };
	static const char *const named[] = { "\"bs\"", "\"rw\"", "\"iodepth\"" };
	for (size_t i = 0; i < 3; i++) {
		struct run_config c;
		struct plan p;
		char err[256] = "";
		CHECK(config_with(&c, bad[i], err, sizeof(err)) == 0);
		CHECK(sweep_plan(&p, &c, err, sizeof(err)) == -1);
		if (!CHECK(strstr(err, "phase 'sweep' sets its own") && strstr(err, named[i])))
			fprintf(stderr, "  %s -> \"%s\"\n", bad[i], err);
		CHECK(strchr(err, '\n') == NULL);
		config_free(&c);
	}
}

/* --plan sweep replaces the config's phases; another name is refused. */
static void test_plan_select(struct checks *checks)
{
	struct run_config c;
	struct plan p;
	char err[256];
	CHECK(config_with(&c, "{\"phase\": \"randread\"}, {\"phase\": \"lat\"}", err,
			  sizeof(err)) == 0);
	CHECK(plan_select(&c, "loadtest", err, sizeof(err)) == -1);
	CHECK(strstr(err, "--plan 'loadtest'") && strstr(err, "sweep"));
	CHECK(plan_select(&c, "sweep", err, sizeof(err)) == 0);
	CHECK(sweep_plan(&p, &c, err, sizeof(err)) == 0);
	CHECK_EQ_U64(p.count, 16);
	CHECK(plan_has_phase(&p, "sweep") && !plan_has_phase(&p, "randread"));
	plan_free(&p);
	config_free(&c);
}

static bool has_name(const char *const *names, size_t count, const char *name)
{
	for (size_t i = 0; i < count; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

/* The chart of a sweep is among the files a sweep plan writes and presign
 * signs, and among nobody else's. */
static void test_sweep_chart_only_with_a_sweep(struct checks *checks)
{
	const char *chart = artifacts_name(ARTIFACT_SWEEP_SVG);
	static const char *const phases[] = { "\"sweep\"", "{\"phase\": \"randread\"}" };
	CHECK(chart && !strcmp(chart, "throughput_vs_block_size.svg"));
	const char *const *needs = artifacts_needs_phase(ARTIFACT_SWEEP_SVG);
	CHECK(needs && !strcmp(needs[0], "sweep") && !needs[1]);
	CHECK(artifacts_needs_phase(ARTIFACT_SUMMARY) == NULL);
	/* The heatmap draws randread and lat, and needs one of them. */
	CHECK(artifacts_draws_phase(ARTIFACT_HEATMAP_SVG, "randread") &&
	      artifacts_draws_phase(ARTIFACT_HEATMAP_SVG, "lat") &&
	      !artifacts_draws_phase(ARTIFACT_HEATMAP_SVG, "loadcurve"));
	for (size_t i = 0; i < 2; i++) {
		bool sweep = i == 0;
		struct run_config c;
		struct plan p;
		struct presign_names names;
		const char *report[ARTIFACT_REPORT_COUNT];
		char err[256];
		CHECK(config_with(&c, phases[i], err, sizeof(err)) == 0);
		CHECK(sweep_plan(&p, &c, err, sizeof(err)) == 0);
		size_t n = plan_report_files(&p, report);
		/* Neither plan has a load curve, so its chart is never among them;
		 * the sweep has no randread or lat, so no heatmap either. */
		CHECK_EQ_U64(n, ARTIFACT_REPORT_COUNT - 2);
		CHECK(!has_name(report, n, artifacts_name(ARTIFACT_LOAD_SVG)));
		CHECK(has_name(report, n, artifacts_name(ARTIFACT_HEATMAP_SVG)) == !sweep);
		CHECK(has_name(report, n, chart) == sweep);
		CHECK(has_name(report, n, "summary.md"));
		CHECK(presign_names_from_config(&names, &c, err, sizeof(err)) == 0);
		CHECK(has_name((const char *const *)names.names, names.count, chart) == sweep);
		CHECK(has_name((const char *const *)names.names, names.count, "summary.md"));
		presign_names_free(&names);
		plan_free(&p);
		config_free(&c);
	}
}

CHECK_MAIN(test_sweep_expands, test_sweep_runtime_and_mix, test_sweep_pattern_is_its_own,
	   test_plan_select, test_sweep_chart_only_with_a_sweep)
