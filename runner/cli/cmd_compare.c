/* cmd_compare.c - `ebsbench compare A B`'s arguments, checked, then one
 * call: compare_results analyses two results directories (or results.json
 * files) again and compares them phase by phase (analysis/compare.h):
 * Markdown on stdout, or --json; --out DIR writes compare.md, compare.json
 * and report.html instead.  Errors are one line on stderr and
 * exit 2; stdout carries only the comparison. */
#include "cli/cli.h"

#include <stdbool.h>
#include <stdio.h>

#include "cli/internal.h"
#include "lib/lib.h"
#include "report/report.h"

static const char usage[] =
	"usage: ebsbench compare A B [--json] [--out DIR]\n"
	"A and B are results directories or results.json files (schema 1 or 2).  Phase by\n"
	"phase (matched by device label or volume type, phase and load step), B's change from\n"
	"A in IOPS, throughput, p50 and p99, each run's figure with a 95 % batch-means interval\n"
	"from its per-window samples (\"not significant\" where the intervals overlap), a gp2\n"
	"burst and its level after the cliff compared apart, the cliff time's change with its\n"
	"resolution (one window), and a warning for every way the runs are not comparable.\n"
	"Markdown on stdout, or JSON with --json; --out DIR writes compare.md, compare.json and "
	"report.html.\n"
	"Exit: 0 done, 1 an output could not be written, 2 usage or a results file missing,\n"
	"unreadable or of a newer schema.\n";

struct compare_args {
	const char *input[2], *out;
	size_t inputs;
	bool json;
};

/* A (then B): two, not more; an argument starting with '-' is an unknown
 * option. */
static int take_input(void *base, const char *arg)
{
	struct compare_args *a = base;
	if (arg[0] == '-' && arg[1])
		return cli_usage_error("compare", "unknown option", arg);
	if (a->inputs == 2)
		return cli_usage_error("compare", "two results to compare, not more:", arg);
	a->input[a->inputs++] = arg;
	return 0;
}

/* A and B both given. */
static int two_inputs(void *base)
{
	if (((struct compare_args *)base)->inputs == 2)
		return 0;
	return cli_usage_error("compare", "needs two results: A and B", NULL);
}

static const struct cli_option options[] = {
	CLI_FLAG("--json", struct compare_args, json),
	CLI_VALUE_NEEDS("--out", "DIR", struct compare_args, out, "a directory"),
};
static const struct cli_command command = { "compare",		 usage,	     options,
					    ARRAY_SIZE(options), take_input, two_inputs };

/* Both runs loaded and analysed again, compared, written out. */
int cmd_compare(int argc, char **argv, const volatile sig_atomic_t *stop)
{
	(void)stop; /* short: it has nothing to stop early */
	struct compare_args a = { 0 };
	char err[512];
	int rc = cli_parse(&command, argc, argv, &a);

	if (rc)
		return rc < 0 ? 0 : rc;
	struct compare_request req = { { a.input[0], a.input[1] }, a.out, a.json, stdout };
	enum report_outcome outcome = compare_results(&req, err, sizeof(err));
	if (outcome && err[0])
		fprintf(stderr, "ebsbench compare: %s\n", err);
	else if (!outcome && a.out)
		fprintf(stderr, "ebsbench compare: %s, %s and %s in %s/\n", COMPARE_MD_FILE,
			COMPARE_JSON_FILE, COMPARE_HTML_FILE, a.out);
	return outcome == REPORT_BAD_INPUT ? EXIT_USAGE : outcome ? 1 : 0;
}
