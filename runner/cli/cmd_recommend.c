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

#include "cli/internal.h"
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
	"For every EBS volume of the results, the cheapest gp3, io2, gp2, st1 and sc1 that meet "
	"the\n"
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
	double v = strtod(text, &end);
	if (end == text || *end || errno || !isfinite(v) || v <= 0) {
		fprintf(stderr, "ebsbench recommend: %s needs a positive number, not '%s'\n", name,
			text);
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

/* The numbers of the requirement, each up to the most any EBS type allows. */
enum ask_number { ASK_IOPS, ASK_MIBS, ASK_P99_MS, ASK_GIB };

static int take_number(void *base, const char *text, enum ask_number n)
{
	struct recommend_args *a = base;
	const struct {
		const char *name, *unit;
		double *target, max;
	} opts[] = {
		{ "--iops", "IOPS", &a->ask.iops, config_volume_max(VOLUME_IOPS) },
		{ "--mibs", "MiB/s", &a->ask.mibs, config_volume_max(VOLUME_MIBS) },
		{ "--p99-ms", "ms", &a->ask.p99_ms, CONFIG_P99_MS_MAX },
		{ "--gib", "GiB", &a->ask.gib, config_volume_max(VOLUME_SIZE_GIB) },
	};
	return positive(opts[n].name, text, opts[n].max, opts[n].unit, opts[n].target);
}

static int take_iops(void *base, const char *text)
{
	return take_number(base, text, ASK_IOPS);
}

static int take_mibs(void *base, const char *text)
{
	return take_number(base, text, ASK_MIBS);
}

static int take_p99(void *base, const char *text)
{
	return take_number(base, text, ASK_P99_MS);
}

static int take_gib(void *base, const char *text)
{
	return take_number(base, text, ASK_GIB);
}

/* --demand TRACE, repeatable. */
static int take_demand(void *base, const char *file)
{
	struct recommend_args *a = base;
	if (a->ndemand == MAX_DEMAND_FILES)
		return usage_error("at most 16 --demand files", NULL);
	a->demand[a->ndemand++] = file;
	return 0;
}

/* The results directory or file: one; an argument starting with '-' is
 * an unknown option. */
static int take_input(void *base, const char *arg)
{
	struct recommend_args *a = base;
	if (arg[0] == '-' && arg[1])
		return usage_error("unknown option", arg);
	if (a->input)
		return usage_error("one results directory or file, not two:", arg);
	a->input = arg;
	return 0;
}

/* --demand's options only with --demand; something to answer from. */
static int check_args(void *base)
{
	struct recommend_args *a = base;
	if (!a->ndemand &&
	    (a->volume || a->budget || a->peak_factor || a->peak_from || a->instance))
		return usage_error("--volume, --throttle-budget, --peak-factor, --peak-from and "
				   "--instance go with --demand",
				   NULL);
	return a->input || a->ndemand
		       ? 0
		       : usage_error("no results directory or results.json given", NULL);
}

#define POSITIVE "a positive number, not ''"
static const struct cli_option options[] = {
	CLI_TAKE_NEEDS("--iops", "N", take_iops, POSITIVE),
	CLI_TAKE_NEEDS("--mibs", "M", take_mibs, POSITIVE),
	CLI_TAKE_NEEDS("--p99-ms", "X", take_p99, POSITIVE),
	CLI_TAKE_NEEDS("--gib", "G", take_gib, POSITIVE),
	CLI_FLAG("--json", struct recommend_args, json),
	CLI_TAKE("--demand", "TRACE", take_demand),
	CLI_VALUE("--volume", "TYPE:SIZE[:IOPS[:MIBPS]]", struct recommend_args, volume),
	CLI_VALUE("--throttle-budget", "P", struct recommend_args, budget),
	CLI_VALUE("--peak-factor", "F", struct recommend_args, peak_factor),
	CLI_VALUE("--peak-from", "TRACE", struct recommend_args, peak_from),
	CLI_VALUE("--instance", "TYPE", struct recommend_args, instance),
	CLI_VALUE_NEEDS("--region", "R", struct recommend_args, region, "a region"),
	CLI_VALUE_NEEDS("--out", "DIR", struct recommend_args, out, "a directory"),
};
static const struct cli_command command = { "recommend",	 usage,	     options,
					    ARRAY_SIZE(options), take_input, check_args };

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

	int rc = cli_parse(&command, argc, argv, &a);
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
