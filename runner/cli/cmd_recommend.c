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

#include "lib/lib.h"
#include "report/report.h"
#include "results/results.h"
#include "run/run.h"

#define EXIT_USAGE 2

static const char usage[] =
	"usage: ebsbench recommend RESULTS_DIR|results.json [--iops N] [--mibs M] [--p99-ms X]\n"
	"                          [--gib G] [--region R] [--json] [--out DIR]\n"
	"For every EBS volume of the results, the cheapest gp3, io2 and gp2 that meet the\n"
	"requirement, priced against the volume as measured (the results' prices, or --region's),\n"
	"with the p99 measured at that load or \"not measured at this load\".  Without --iops,\n"
	"--mibs or --p99-ms the requirement is the volume's own, sustained: what it delivered at\n"
	"its burst, kept as a baseline.  --gib prices at that size (default the volume's).\n"
	"A table on stdout, or --json; --out DIR also writes a VolumeAttributesClass per target\n"
	"(vac-NAME.yaml) and apply.md (kubectl patch pvc, aws ec2 modify-volume, the caveats).\n"
	"Exit: 0 done, 2 usage, a results file missing, unreadable or of a newer schema.\n";

struct recommend_args {
	const char *input, *region, *out;
	struct recommend_ask ask;
	bool json;
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

/* Returns 0, -1 after --help, or EXIT_USAGE. */
static int parse_args(int argc, char **argv, struct recommend_args *a)
{
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
	return a->input ? 0 : usage_error("no results directory or results.json given", NULL);
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
		json_t *doc = recommend_json(found, n, prices);
		rc = !doc ||
		     json_dumpf(doc, stdout,
				JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
		fputc('\n', stdout);
		json_decref(doc);
	} else {
		recommend_md_devices(stdout, found, n, prices);
	}
	if (!rc && a->out)
		rc = write_apply(a, run, found, n, prices);
	free(found);
	return rc;
}

int cmd_recommend(int argc, char **argv, const volatile sig_atomic_t *stop)
{
	(void)stop; /* short: it has nothing to stop early */
	struct recommend_args a = { 0 };
	char err[512];
	struct ebs_prices prices;
	struct report_price_names names;

	int rc = parse_args(argc, argv, &a);
	if (rc)
		return rc < 0 ? 0 : rc;
	json_t *run = results_load_any(a.input, err, sizeof(err));
	if (!run || report_reanalyse(run, NULL, err, sizeof(err))) {
		fprintf(stderr, "ebsbench recommend: %s\n", err);
		json_decref(run);
		return EXIT_USAGE;
	}
	report_prices_recorded(run, &prices, &names);
	if (a.region && !ebs_prices_for_region(a.region, &prices))
		fprintf(stderr, "ebsbench recommend: no built-in prices for %s: costs unknown\n",
			a.region);
	if (a.region)
		prices.region = a.region;
	rc = answer(&a, run, &prices);
	json_decref(run);
	return rc;
}
