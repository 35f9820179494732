/* cmd_recommend.c - `ebsbench recommend`: a results directory (or file)
 * and a requirement in, the cheapest volume per type out: a table (or
 * --json) on stdout, the ready-to-apply files with --out DIR.  Errors are
 * one line on stderr and exit 2; stdout carries only the answer. */
#include "cli/cli.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "demand/demand.h"
#include "lib/lib.h"
#include "report/report.h"
#include "results/results.h"
#include "launch/launch.h"
#include "run/run.h"

#define EXIT_USAGE 2

static const char usage[] =
	"usage: ebsbench recommend RESULTS_DIR|results.json [--iops N] [--mibs M] [--p99-ms X]\n"
	"                          [--gib G] [--region R] [--json] [--out DIR]\n"
	"       ebsbench recommend --demand TRACE... [RESULTS_DIR] [--volume "
	"TYPE:SIZE[:IOPS[:MIBPS]]]\n"
	"                          [--throttle-budget P] [--peak-factor F | --peak-from TRACE]\n"
	"                          [--instance TYPE] [--gib G] [--region R] [--json] [--out DIR]\n"
	"For every EBS volume of the results, the cheapest gp3, io2 and gp2 that meet the\n"
	"requirement, priced against the volume as measured (the results' prices, or --region's),\n"
	"with the p99 measured at that load or \"not measured at this load\".  Without --iops,\n"
	"--mibs or --p99-ms the requirement is the volume's own, sustained: what it delivered at\n"
	"its burst, kept as a baseline.  --gib prices at that size (default the volume's).\n"
	"A table on stdout, or --json; --out DIR also writes a VolumeAttributesClass per target\n"
	"(vac-NAME.yaml) and apply.md (kubectl patch pvc, aws ec2 modify-volume, the caveats).\n"
	"--demand replays a volume's real demand (CloudWatch get-metric-data or "
	"get-metric-statistics\n"
	"JSON as the AWS CLI prints it, or the CSV of docs/demand.md; repeat it for several "
	"files)\n"
	"through each candidate's limits: the cheapest that never throttles (or at most P % of "
	"the\n"
	"time), what the current volume (--volume, or the results') did and costs, the gp2 "
	"bucket.\n"
	"Exit: 0 done, 2 usage, a results file missing, unreadable or of a newer schema, a bad "
	"trace.\n";

#define MAX_DEMAND_FILES 16

struct recommend_args {
	const char *input, *region, *out;
	struct recommend_ask ask;
	bool json;
	/* --demand and its options. */
	const char *demand[MAX_DEMAND_FILES];
	size_t ndemand;
	const char *volume, *budget, *peak_factor, *peak_from, *instance;
};

static int usage_error(const char *what, const char *arg)
{
	return cli_usage_error("recommend", what, arg);
}

/* A positive number for option `name`, at most max (unit: its unit);
 * EXIT_USAGE otherwise, with one line naming the range. */
static int positive(const char *name, const char *text, double max, const char *unit, double *out)
{
	char *end = NULL;
	errno = 0;
	double v = text ? strtod(text, &end) : NAN;
	if (!text || end == text || *end || errno || !isfinite(v) || v <= 0) {
		fprintf(stderr, "ebsbench recommend: %s needs a positive number, not '%s'\n", name,
			text ? text : "");
		return EXIT_USAGE;
	}
	if (v > max) {
		fprintf(stderr, "ebsbench recommend: %s is %s, outside 0..%g %s\n", name, text, max,
			unit);
		return EXIT_USAGE;
	}
	*out = v;
	return 0;
}

/* The option's number target and its range, or NULL for an option that
 * takes none: a volume's numbers up to the most any EBS type allows. */
static double *number_option(struct recommend_args *a, const char *arg, double *max,
			     const char **unit)
{
	const struct {
		const char *name, *unit;
		double *target, max;
	} opts[] = {
		{ "--iops", "IOPS", &a->ask.iops, config_volume_max(VOLUME_IOPS) },
		{ "--mibs", "MiB/s", &a->ask.mibs, config_volume_max(VOLUME_MIBS) },
		{ "--p99-ms", "ms", &a->ask.p99_ms, CONFIG_P99_MS_MAX },
		{ "--gib", "GiB", &a->ask.gib, config_volume_max(VOLUME_SIZE_GIB) },
	};
	for (size_t k = 0; k < ARRAY_SIZE(opts); k++)
		if (!strcmp(arg, opts[k].name)) {
			*max = opts[k].max;
			*unit = opts[k].unit;
			return opts[k].target;
		}
	return NULL;
}

/* --demand's options at argv[*i]: 0 taken, 1 not one of them, or
 * EXIT_USAGE. */
static int demand_option(int argc, char **argv, int *i, struct recommend_args *a)
{
	const struct {
		const char *name;
		const char **slot;
	} opts[] = {
		{ "--volume", &a->volume },	      { "--throttle-budget", &a->budget },
		{ "--peak-factor", &a->peak_factor }, { "--peak-from", &a->peak_from },
		{ "--instance", &a->instance },
	};
	const char *file = NULL;
	int rc = cli_take_value("recommend", argc, argv, i, "--demand", &file);
	if (rc != 1) {
		if (rc)
			return rc;
		if (a->ndemand == MAX_DEMAND_FILES)
			return usage_error("at most 16 --demand files", NULL);
		a->demand[a->ndemand++] = file;
		return 0;
	}
	for (size_t k = 0; k < ARRAY_SIZE(opts); k++)
		if ((rc = cli_take_value("recommend", argc, argv, i, opts[k].name, opts[k].slot)) !=
		    1)
			return rc;
	return 1;
}

/* Returns 0, -1 after --help, or EXIT_USAGE. */
static int parse_args(int argc, char **argv, struct recommend_args *a)
{
	int rc;

	for (int i = 0; i < argc; i++) {
		const char *arg = argv[i], *unit = "";
		double max = 0, *num = number_option(a, arg, &max, &unit);
		if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
			fputs(usage, stdout);
			return -1;
		} else if (num) {
			if (positive(arg, i + 1 < argc ? argv[++i] : NULL, max, unit, num))
				return EXIT_USAGE;
		} else if (!strcmp(arg, "--json")) {
			a->json = true;
		} else if ((rc = demand_option(argc, argv, &i, a)) != 1) {
			if (rc)
				return rc;
		} else if (!strcmp(arg, "--region") || !strcmp(arg, "--out")) {
			if (++i == argc || !argv[i][0])
				return usage_error(arg[2] == 'r' ? "--region needs a region"
								 : "--out needs a directory",
						   NULL);
			*(arg[2] == 'r' ? &a->region : &a->out) = argv[i];
		} else if (arg[0] == '-' && arg[1]) {
			return usage_error("unknown option", arg);
		} else if (a->input) {
			return usage_error("one results directory or file, not two:", arg);
		} else {
			a->input = arg;
		}
	}
	if (!a->ndemand &&
	    (a->volume || a->budget || a->peak_factor || a->peak_from || a->instance))
		return usage_error("--volume, --throttle-budget, --peak-factor, --peak-from and "
				   "--instance go with --demand",
				   NULL);
	return a->input || a->ndemand
		       ? 0
		       : usage_error("no results directory or results.json given", NULL);
}

/* --out DIR: made if new (its parent must exist), then the files. */
static int write_apply(const struct recommend_args *a, const json_t *run,
		       const struct recommend_device *d, size_t n, const struct ebs_prices *p)
{
	char err[512];

	if (mkdir(a->out, 0755) && errno != EEXIST) {
		fprintf(stderr, "ebsbench recommend: cannot create %s: %s\n", a->out,
			strerror(errno));
		return 1;
	}
	if (recommend_apply_write(a->out, run, d, n, p, err, sizeof(err))) {
		fprintf(stderr, "ebsbench recommend: %s\n", err);
		return 1;
	}
	fprintf(stderr, "ebsbench recommend: apply.md and the VolumeAttributesClass files in %s/\n",
		a->out);
	return 0;
}

/* --json's document on stdout (taken: freed here); 0, or 1 when it could
 * not be made or written. */
static int print_json(json_t *doc)
{
	int rc = !doc || json_dumpf(doc, stdout,
				    JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	fputc('\n', stdout);
	json_decref(doc);
	return rc;
}

/* The search and its outputs, once the results are loaded and analysed. */
static int answer(const struct recommend_args *a, const json_t *run,
		  const struct ebs_prices *prices)
{
	struct recommend_device *found = calloc(RECOMMEND_MAX_DEVICES, sizeof(*found));
	int rc = 0;

	if (!found)
		return 1;
	size_t n = recommend_all(run, &a->ask, prices, found, RECOMMEND_MAX_DEVICES);
	if (a->json) {
		rc = print_json(recommend_json(found, n, prices));
	} else {
		recommend_md_devices(stdout, found, n, prices);
	}
	if (!rc && a->out)
		rc = write_apply(a, run, found, n, prices);
	free(found);
	return rc;
}

/* A number from text within lo..hi for option name; EXIT_USAGE otherwise. */
static int number_in(const char *name, const char *text, double lo, double hi, double *out)
{
	char *end = NULL;
	errno = 0;
	double v = strtod(text, &end);
	if (end == text || *end || errno || !(v >= lo && v <= hi)) {
		fprintf(stderr, "ebsbench recommend: %s needs a number from %g to %g, not '%s'\n",
			name, lo, hi, text);
		return EXIT_USAGE;
	}
	*out = v;
	return 0;
}

/* The results' device whose volume ID is the trace's, else its only EBS
 * device; NULL when neither. */
static const json_t *device_for(const json_t *run, const char *volume)
{
	const json_t *d, *only = NULL;
	size_t i, ebs = 0;

	json_array_foreach(json_object_get(run, "devices"), i, d)
	{
		const char *id = json_string_value(json_object_get(d, "volume_id"));
		if (id && !strcmp(id, volume))
			return d;
		if (id && !strncmp(id, "vol-", 4)) {
			only = d;
			ebs++;
		}
	}
	return ebs == 1 ? only : NULL;
}

/* --demand's settings: budget, peak factor (given, or from a fine
 * trace at the first trace's interval), instance, the volume given. */
static int demand_settings(const struct recommend_args *a, const json_t *run,
			   const struct demand_set *set, struct demand_recommend_opts *o,
			   struct ebs_volume *given)
{
	char err[512];
	double pct = 0;

	o->sim.peak_factor = 1;
	if (a->budget && number_in("--throttle-budget", a->budget, 0, 99.99, &pct))
		return EXIT_USAGE;
	o->budget = pct / 100;
	if (a->peak_factor &&
	    number_in("--peak-factor", a->peak_factor, 1, 1000, &o->sim.peak_factor))
		return EXIT_USAGE;
	if (a->peak_from) {
		struct demand_set fine = { 0 };
		if (demand_read_file(a->peak_from, &fine, err, sizeof(err))) {
			fprintf(stderr, "ebsbench recommend: %s\n", err);
			demand_set_free(&fine);
			return EXIT_USAGE;
		}
		for (size_t i = 0; i < fine.n; i++)
			o->sim.peak_factor =
				fmax(o->sim.peak_factor,
				     demand_peak_to_mean(&fine.v[i], set->v[0].interval_s));
		demand_set_free(&fine);
	}
	const char *inst =
		a->instance ? a->instance
			    : json_string_value(RESULTS_GET(run, "environment", "instance_type"));
	o->sim.instance = inst ? ebs_instance_limits_find(inst) : NULL;
	if (a->instance && !o->sim.instance)
		return usage_error("--instance: not in the instance table:", a->instance);
	if (a->volume && launch_parse_volume(a->volume, given, err, sizeof(err)))
		return usage_error(err, NULL);
	return 0;
}

/* --out with --demand: the apply files, then recommend.md, the charts and
 * report.html; each answer's trace found by its volume's name. */
static int write_demand_out(const struct recommend_args *a, const json_t *run,
			    const struct demand_set *set, const struct demand_answer *ans, size_t n,
			    const struct ebs_prices *prices)
{
	struct recommend_device *recs = calloc(n ? n : 1, sizeof(*recs));
	const struct demand_trace **traces = calloc(n ? n : 1, sizeof(*traces));
	char err[512];
	int rc = 1;

	if (recs && traces) {
		for (size_t i = 0, k = 0; i < n; i++) {
			recs[i] = ans[i].rec;
			while (k < set->n && strcmp(set->v[k].volume, ans[i].rec.label))
				k++;
			traces[i] = &set->v[k < set->n ? k : 0];
		}
		rc = write_apply(a, run, recs, n, prices);
	}
	if (!rc && recommend_md_demand_write(a->out, ans, traces, n, prices, err, sizeof(err))) {
		fprintf(stderr, "ebsbench recommend: %s\n", err);
		rc = 1;
	} else if (!rc) {
		fprintf(stderr,
			"ebsbench recommend: recommend.md, report.html and the demand charts in "
			"%s/\n",
			a->out);
	}
	free(traces);
	free(recs);
	return rc;
}

/* Each trace searched, its current volume --volume's (given) or the
 * results' (read into from_results, which o->current may point at). */
static size_t search_all(const struct recommend_args *a, const json_t *run,
			 const struct demand_set *set, struct demand_recommend_opts *o,
			 const struct ebs_volume *given, struct ebs_volume *from_results,
			 const struct ebs_prices *prices, struct demand_answer *ans)
{
	char err[512];
	size_t n = 0;

	for (size_t i = 0; i < set->n; i++) {
		const json_t *dev = a->volume ? NULL : device_for(run, set->v[i].volume);
		o->current = a->volume ? given : NULL;
		if (dev) {
			analysis_volume_from_json(dev, from_results);
			o->current = from_results;
		}
		if (demand_recommend(&set->v[i], o, prices, &ans[n], err, sizeof(err)))
			fprintf(stderr, "ebsbench recommend: %s: skipped\n", err);
		else
			n++;
	}
	return n;
}

/* --demand: the traces read, each replayed and searched, the answer on
 * stdout (and --out's files). */
static int answer_demand(const struct recommend_args *a, const json_t *run,
			 const struct ebs_prices *prices)
{
	struct demand_set set = { 0 };
	struct demand_recommend_opts o = { .gib = a->ask.gib, .results = run };
	struct ebs_volume given = { 0 }, from_results;
	struct demand_answer *ans = NULL;
	char err[512];
	int rc = 0;
	size_t n = 0;

	for (size_t f = 0; f < a->ndemand && !rc; f++)
		if (demand_read_file(a->demand[f], &set, err, sizeof(err))) {
			fprintf(stderr, "ebsbench recommend: %s\n", err);
			rc = EXIT_USAGE;
		}
	if (!rc)
		rc = demand_settings(a, run, &set, &o, &given);
	if (!rc && !(ans = calloc(set.n ? set.n : 1, sizeof(*ans))))
		rc = 1;
	if (!rc)
		n = search_all(a, run, &set, &o, &given, &from_results, prices, ans);
	if (!rc && a->json) {
		rc = print_json(recommend_demand_json(ans, n, prices));
	} else if (!rc) {
		recommend_md_demand(stdout, ans, n, prices, false);
	}
	if (!rc && a->out)
		rc = write_demand_out(a, run, &set, ans, n, prices);
	free(ans);
	demand_set_free(&set);
	return rc;
}

int cmd_recommend(int argc, char **argv, const volatile sig_atomic_t *stop)
{
	(void)stop; /* short: it has nothing to stop early */
	struct recommend_args a = { 0 };
	struct ebs_prices prices = ebs_prices_default();
	struct report_price_names names;
	json_t *run = NULL;

	int rc = parse_args(argc, argv, &a);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (a.input) {
		char err[512];
		run = results_load_any(a.input, err, sizeof(err));
		if (!run || report_reanalyse(run, NULL, err, sizeof(err))) {
			fprintf(stderr, "ebsbench recommend: %s\n", err);
			json_decref(run);
			return EXIT_USAGE;
		}
		report_prices_recorded(run, &prices, &names);
	}
	if (a.region && !ebs_prices_for_region(a.region, &prices))
		fprintf(stderr, "ebsbench recommend: no built-in prices for %s: costs unknown\n",
			a.region);
	if (a.region)
		prices.region = a.region;
	rc = a.ndemand ? answer_demand(&a, run, &prices) : answer(&a, run, &prices);
	json_decref(run);
	return rc;
}
