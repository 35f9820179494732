/* cmd_report.c - `ebsbench report`'s arguments, checked, then one call:
 * report_dirs loads results.json from each directory and renders the
 * report; several directories also make the fleet report (fleet.md,
 * fleet.json, fleet.svg) in --out, never in an input.
 *
 * stdout carries only what was asked for: nothing, with --print the
 * summary.md text, or with --json each re-analysed results.json.  Errors
 * are one line on stderr naming the directory. */
#include "cli/cli.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/internal.h"
#include "lib/lib.h"
#include "report/report.h"

static const char usage[] =
	"usage: ebsbench report [--out DIR] [--print | --json] [--config FILE] RESULTS_DIR...\n"
	"Runs the analysis again on each RESULTS_DIR/results.json (its phases, devices and\n"
	"prices) and rebuilds summary.md, iops_timeline.svg, latency_percentiles.svg,\n"
	"latency_heatmap.svg, recommend.md and report.html (all of them in one page).\n"
	"One directory: written into it unless --out says otherwise.  Several (a fleet, one\n"
	"column per run and device): --out is required, outside every input, and also gets\n"
	"fleet.md, fleet.json and fleet.svg: per volume class the distributions over volumes,\n"
	"percentiles from merged histograms, the outliers named; its report.html is the\n"
	"fleet's page.  --config FILE re-prices with that run config's \"prices\".\n"
	"--print also writes summary.md to stdout.\n"
	"--json also writes each results.json with its new analysis to stdout, one document\n"
	"after another in the order given (tests/corpus reads the analysis from it).\n"
	"results.json itself is never rewritten.\n";

struct report_args {
	const char *out;
	const char *config; /* prices to re-price with, or NULL */
	bool print;
	bool json; /* the re-analysed records to stdout */
	const char **dirs;
	size_t ndirs;
};

static int usage_error(const char *what, const char *arg)
{
	return cli_usage_error("report", what, arg);
}

/* path made absolute, symbolic links resolved; a path not there yet is
 * its parent's resolved path and its own last name.  false when neither
 * resolves (the parent is missing: ensure_dir says so later). */
static bool resolve(const char *path, char out[PATH_MAX])
{
	char parent[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (realpath(path, out))
		return true;
	if (!slash)
		return realpath(".", parent) &&
		       snprintf(out, PATH_MAX, "%s/%s", parent, path) < PATH_MAX;
	snprintf(parent, sizeof(parent), "%.*s", (int)(slash - path), path);
	char base[PATH_MAX];
	if (!realpath(slash == path ? "/" : parent, base))
		return false;
	return snprintf(out, PATH_MAX, "%s/%s", base, slash + 1) < PATH_MAX;
}

/* A fleet report is written beside its inputs, never into one of them
 * (an input's own report files would be overwritten): EXIT_USAGE when
 * --out is an input directory or inside one, else 0. */
static int out_outside_inputs(const struct report_args *a)
{
	char out[PATH_MAX], in[PATH_MAX];

	if (a->ndirs < 2 || !resolve(a->out, out))
		return 0;
	for (size_t i = 0; i < a->ndirs; i++) {
		size_t n = realpath(a->dirs[i], in) ? strlen(in) : 0;
		if (n && !strncmp(out, in, n) && (out[n] == '\0' || out[n] == '/' || n == 1)) {
			fprintf(stderr,
				"ebsbench report: --out %s is inside the results directory %s: a "
				"fleet report never writes into its inputs\n",
				a->out, a->dirs[i]);
			return EXIT_USAGE;
		}
	}
	return 0;
}

/* A results directory; an argument starting with '-' is an unknown option. */
static int take_dir(void *base, const char *arg)
{
	struct report_args *a = base;
	if (arg[0] == '-' && arg[1])
		return usage_error("unknown option", arg);
	a->dirs[a->ndirs++] = arg;
	return 0;
}

/* What the arguments mean together: at least one directory, one of
 * --print and --json, a fleet's --out outside its inputs. */
static int check_args(void *base)
{
	struct report_args *a = base;
	if (!a->ndirs)
		return usage_error("no results directory given", NULL);
	if (a->print && a->json)
		return usage_error("--print and --json both write to stdout: give one", NULL);
	if (!a->out && a->ndirs > 1)
		return usage_error("--out DIR is required with several results directories", NULL);
	if (!a->out)
		a->out = a->dirs[0];
	return out_outside_inputs(a);
}

static const struct cli_option options[] = {
	CLI_FLAG("--print", struct report_args, print),
	CLI_FLAG("--json", struct report_args, json),
	CLI_VALUE_NEEDS("--out", "DIR", struct report_args, out, "a directory"),
	CLI_VALUE_NEEDS("-o", "DIR", struct report_args, out, "a directory"),
	CLI_VALUE_NEEDS("--config", "FILE", struct report_args, config, "a file"),
};
static const struct cli_command command = { "report", usage,	 options, ARRAY_SIZE(options),
					    take_dir, check_args };

/* The report of the parsed arguments (report_dirs), and a fleet's counts
 * timed on stderr. */
static int report(const struct report_args *a, uint64_t started_ns)
{
	struct report_request req = { .dirs = a->dirs,
				      .ndirs = a->ndirs,
				      .out = a->out,
				      .config = a->config,
				      .print = a->print ? stdout : NULL,
				      .json = a->json ? stdout : NULL };
	char err[512];
	enum report_outcome rc = report_dirs(&req, err, sizeof(err));

	if (rc) {
		fprintf(stderr, "ebsbench report: %s\n", err);
		return rc == REPORT_BAD_INPUT ? EXIT_USAGE : 1;
	}
	if (a->ndirs > 1)
		fprintf(stderr,
			"ebsbench report: fleet of %zu volumes in %zu class%s from %zu "
			"directories, %zu outlier%s: %s/%s (%.3f s in all)\n",
			req.volumes, req.classes, req.classes == 1 ? "" : "es", a->ndirs,
			req.outliers, req.outliers == 1 ? "" : "s", a->out, FLEET_MD_FILE,
			(double)(clock_now_ns() - started_ns) / 1e9);
	return 0;
}

int cmd_report(int argc, char **argv, const volatile sig_atomic_t *stop)
{
	(void)stop; /* short: it has nothing to stop early */
	struct report_args a = { .dirs = calloc((size_t)argc + 1, sizeof(char *)) };
	int rc = 1;
	uint64_t started_ns = clock_now_ns();

	if (!a.dirs)
		fprintf(stderr, "ebsbench report: out of memory\n");
	else if (!(rc = cli_parse(&command, argc, argv, &a)))
		rc = report(&a, started_ns);
	else if (rc < 0)
		rc = 0;
	free(a.dirs);
	return rc;
}
