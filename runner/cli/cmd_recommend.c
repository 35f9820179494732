/* cmd_recommend.c - `ebsbench recommend`: a results directory (or file)
 * and a requirement in, the cheapest volume per type out: a table (or
 * --json) on stdout, the ready-to-apply files with --out DIR.  Errors are
 * one line on stderr and exit 2; stdout carries only the answer.  Here the
 * arguments are read and checked; report/recommend_results.c does the
 * work, decide/ the search. */
#include "cli/cli.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lib.h"
#include "report/report.h"
#include "launch/launch.h"
#include "run/run.h"

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

/* --demand's options as the question decide/ answers: the budget, the
 * peak factor, the instance and the volume checked here.  0, or
 * EXIT_USAGE. */
static int demand_question(const struct recommend_args *a, struct demand_question *q,
			   struct ebs_volume *given)
{
	char err[512];
	double pct = 0;

	*q = (struct demand_question){ .files = a->demand,
				       .nfiles = a->ndemand,
				       .peak_from = a->peak_from,
				       .gib = a->ask.gib };
	if (a->budget && number_in("--throttle-budget", a->budget, 0, 99.99, &pct))
		return EXIT_USAGE;
	q->budget = pct / 100;
	if (a->peak_factor && number_in("--peak-factor", a->peak_factor, 1, 1000, &q->peak_factor))
		return EXIT_USAGE;
	if (a->instance && !(q->instance = ebs_instance_limits_find(a->instance)))
		return usage_error("--instance: not in the instance table:", a->instance);
	if (a->volume && launch_parse_volume(a->volume, given, err, sizeof(err)))
		return usage_error(err, NULL);
	q->volume = a->volume ? given : NULL;
	return 0;
}

int cmd_recommend(int argc, char **argv, const volatile sig_atomic_t *stop)
{
	(void)stop; /* short: it has nothing to stop early */
	struct recommend_args a = { 0 };
	struct demand_question q;
	struct ebs_volume given = { 0 };
	char err[512];

	int rc = parse_args(argc, argv, &a);
	if (!rc && a.ndemand)
		rc = demand_question(&a, &q, &given);
	if (rc)
		return rc < 0 ? 0 : rc;
	struct recommend_request req = { a.input, a.region, a.out,
					 a.json,  a.ask,    a.ndemand ? &q : NULL,
					 stdout,  stderr };
	enum report_outcome outcome = recommend_results(&req, err, sizeof(err));
	if (outcome && err[0])
		fprintf(stderr, "ebsbench recommend: %s\n", err);
	return outcome == REPORT_BAD_INPUT ? EXIT_USAGE : outcome ? 1 : 0;
}
