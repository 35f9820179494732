/* test_artifacts.c - the names of the files a run writes stay in one list:
 * a rendered report, results.json and every step's IOPS log (written by
 * iolog at the path a run gives it) make up exactly the directory presign
 * signs for the same config, and each name is artifacts'. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fixtures/plan_fixture.h"
#include "fixtures/results_fixture.h"
#include "job/iolog.h"
#include "report/report.h"
#include "results/results.h"
#include "run/artifacts.h"
#include "run/plan.h"
#include "launch/launch.h"
#include "launch/internal.h"
#include "run/run_devices.h"
#include "run/internal.h"

/* Two devices (one labelled by type, a second of that type numbered), two
 * phases, one of them the config's own. */
static const char config_doc[] =
	"{\"devices\": [{\"path\": \"/dev/nvme1n1\", \"type\": \"gp2\", \"size_gib\": 100},"
	" {\"path\": \"/dev/nvme2n1\", \"type\": \"gp2\"}, {\"path\": \"/dev/nvme3n1\"}],"
	" \"phases\": [{\"phase\": \"randread\", \"runtime\": 10},"
	" {\"phase\": \"mixed\", \"rw\": \"randrw\"}]}";

static int load_config(struct run_config *c, const char *doc, char *err, size_t errlen)
{
	json_t *root = json_loads(doc, 0, NULL);
	config_defaults(c);
	int rc = root ? config_from_json(c, root, err, errlen) : -1;
	json_decref(root);
	return rc;
}

static bool in_list(const char *name, const char *const *list, size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

/* How many regular entries dir holds, each checked against names[]. */
static size_t count_dir(struct checks *checks, const char *dir, const char *const *names,
			size_t count)
{
	size_t n = 0;
	DIR *d = opendir(dir);
	struct dirent *e;
	CHECK(d != NULL);
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		n++;
		if (!CHECK(in_list(e->d_name, names, count)))
			fprintf(stderr, "  %s is written but not in the list\n", e->d_name);
	}
	if (d)
		closedir(d);
	return n;
}

static void remove_dir(struct checks *checks, const char *dir)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

/* Whether summary.md in dir links the chart named name: "](name)". */
static bool summary_links(const char *dir, const char *name)
{
	char path[128], link[96], text[1 << 16];
	snprintf(path, sizeof(path), "%s/%s", dir, artifacts_name(ARTIFACT_SUMMARY));
	snprintf(link, sizeof(link), "](%s)", name);
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
	if (f)
		fclose(f);
	text[n] = '\0';
	return strstr(text, link) != NULL;
}

/* report_render writes the report's artifacts and nothing else, and the
 * summary links the charts by the names they are written under. */
static void test_report_writes_its_artifacts(struct checks *checks)
{
	char dir[] = "/tmp/ebsbench-artifacts-XXXXXX", err[256];
	json_t *run = fixture_load();
	CHECK(run && mkdtemp(dir));
	CHECK(report_render(&run, 1, dir, err, sizeof(err)) == 0);
	/* Every report file but the sweep's and the load curve's charts: the
	 * fixture (ebsbench 0.1.0's) ran neither. */
	CHECK_EQ_U64(count_dir(checks, dir, artifacts_report_files(), ARTIFACT_REPORT_COUNT),
		     ARTIFACT_REPORT_COUNT - 2);
	CHECK(summary_links(dir, artifacts_name(ARTIFACT_IOPS_SVG)));
	CHECK(summary_links(dir, artifacts_name(ARTIFACT_LATENCY_SVG)));
	CHECK(summary_links(dir, artifacts_name(ARTIFACT_RECOMMEND)));
	CHECK(summary_links(dir, artifacts_name(ARTIFACT_HEATMAP_SVG)));
	json_decref(run);
	remove_dir(checks, dir);
}

/* Writes each step's logs where a run writes them: DIR/step.iops_log, DIR/step.hist_log. */
static void write_step_logs(struct checks *checks, const struct plan *p, const char *dir)
{
	for (size_t i = 0; i < p->count; i++) {
		struct iolog_paths *paths = calloc(1, sizeof(*paths));
		struct iolog log;
		char err[256];
		CHECK(paths != NULL);
		if (!paths)
			return;
		snprintf(paths->path[IOLOG_IOPS], IOLOG_PATH_MAX, "%s/%s", dir,
			 p->steps[i].iops_log);
		if (p->steps[i].hist_log[0])
			snprintf(paths->path[IOLOG_HIST], IOLOG_PATH_MAX, "%s/%s", dir,
				 p->steps[i].hist_log);
		CHECK(iolog_open(&log, &p->steps[i].job, paths, err, sizeof(err)) == 0);
		CHECK(iolog_close(&log, err, sizeof(err)) == 0);
		free(paths);
	}
}

/* results.json, the report and the logs of a plan: presign's names. */
static void test_run_directory_is_what_presign_signs(struct checks *checks)
{
	char dir[] = "/tmp/ebsbench-artifacts-XXXXXX", err[256];
	struct run_config c;
	struct run_device devs[CONFIG_MAX_DEVICES];
	struct presign_names names;
	struct plan p;
	json_t *run = fixture_load();

	CHECK(run && mkdtemp(dir));
	CHECK(load_config(&c, config_doc, err, sizeof(err)) == 0);
	size_t count = plan_fixture_devices(devs, &c);
	CHECK(plan_build(&p, &c, devs, count, err, sizeof(err)) == 0);
	CHECK(presign_names_from_config(&names, &c, err, sizeof(err)) == 0);
	CHECK(results_save(run, dir, err, sizeof(err)) == 0);
	CHECK(report_render(&run, 1, dir, err, sizeof(err)) == 0);
	write_step_logs(checks, &p, dir);
	CHECK_EQ_U64(count_dir(checks, dir, (const char *const *)names.names, names.count),
		     names.count);
	/* The names are artifacts': the once-per-run files first, in order
	 * (those of a phase this plan lacks left out: no sweep, no chart). */
	for (size_t i = 0, k = 0; i < ARTIFACT_COUNT && k < names.count; i++)
		if (!artifacts_needs_phase((enum artifact)i) ||
		    in_list(artifacts_run_files()[i], (const char *const *)names.names,
			    names.count))
			CHECK(!strcmp(names.names[k++], artifacts_run_files()[i]));
	CHECK(!in_list(artifacts_name(ARTIFACT_SWEEP_SVG), (const char *const *)names.names,
		       names.count));
	CHECK(in_list("gp2_rr_iops.1.log", (const char *const *)names.names, names.count));
	CHECK(in_list("gp2-2_mixed_iops.1.log", (const char *const *)names.names, names.count));
	CHECK(in_list("nvme3n1_rr_iops.1.log", (const char *const *)names.names, names.count));
	/* The heatmap's phase keeps a histogram log; the config's own does not. */
	CHECK(in_list("gp2_rr_clat_hist.1.log", (const char *const *)names.names, names.count));
	CHECK(!in_list("gp2-2_mixed_clat_hist.1.log", (const char *const *)names.names,
		       names.count));
	presign_names_free(&names);
	plan_free(&p);
	config_free(&c);
	json_decref(run);
	remove_dir(checks, dir);
}

/* The labelling rule: label, else type, else the kernel's name. */
static void test_label_rule(struct checks *checks)
{
	struct device_config d;
	memset(&d, 0, sizeof(d));
	CHECK(run_devices_label_base(&d, "nvme1n1") &&
	      !strcmp(run_devices_label_base(&d, "nvme1n1"), "nvme1n1"));
	CHECK(run_devices_label_base(&d, NULL) == NULL);
	d.has_type = true;
	d.type = EBS_GP3;
	CHECK(!strcmp(run_devices_label_base(&d, "nvme1n1"), "gp3"));
	snprintf(d.label, sizeof(d.label), "data");
	CHECK(!strcmp(run_devices_label_base(&d, "nvme1n1"), "data"));
	CHECK(!strcmp(run_devices_label_base(NULL, "nvme1n1"), "nvme1n1"));
}

/* A log name that does not fit is refused, and a phase asking fio for
 * logs a run would not name (nor sign, nor upload) is refused. */
static void test_refusals(struct checks *checks)
{
	char name[ARTIFACT_LOG_NAME_MAX], err[256];
	struct run_config c;
	struct run_device devs[CONFIG_MAX_DEVICES];
	struct plan p;
	CHECK(artifacts_iops_log(name, sizeof(name), "gp2", "rr", err, sizeof(err)) == 0 &&
	      !strcmp(name, "gp2_rr_iops.1.log"));
	CHECK(artifacts_iops_log(name, 12, "gp2", "rr", err, sizeof(err)) == -1 &&
	      strstr(err, "too long"));
	CHECK(load_config(&c,
			  "{\"devices\": [{\"path\": \"/dev/nvme1n1\", \"label\": \"v\"}],"
			  " \"phases\": [{\"phase\": \"lat\", \"write_lat_log\": \"x\"}]}",
			  err, sizeof(err)) == 0);
	size_t count = plan_fixture_devices(devs, &c);
	CHECK(plan_build(&p, &c, devs, count, err, sizeof(err)) == -1 &&
	      strstr(err, "write_lat_log"));
	config_free(&c);
}

CHECK_MAIN(test_report_writes_its_artifacts, test_run_directory_is_what_presign_signs,
	   test_label_rule, test_refusals)
