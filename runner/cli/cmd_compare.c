/* cmd_compare.c - `ebsbench compare A B`: two results directories (or
 * results.json files) analysed again and compared phase by phase
 * (analysis/compare.h): Markdown on stdout, or --json; --out DIR writes
 * compare.md and compare.json instead.  Errors are one line on stderr and
 * exit 2; stdout carries only the comparison. */
#include "cli/cli.h"

#include <errno.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "report/report.h"
#include "results/results.h"

#define EXIT_USAGE 2
#define COMPARE_MD "compare.md"
#define COMPARE_JSON "compare.json"
#define COMPARE_HTML "report.html"

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
	bool json;
};

/* One line naming the problem on stderr; EXIT_USAGE. */
static int usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "ebsbench compare: %s%s%s (try ebsbench compare --help)\n", what,
		arg ? " " : "", arg ? arg : "");
	return EXIT_USAGE;
}

/* Returns 0, -1 after --help, or EXIT_USAGE. */
static int parse_args(int argc, char **argv, struct compare_args *a)
{
	size_t inputs = 0;

	for (int i = 0; i < argc; i++) {
		const char *arg = argv[i];
		if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
			fputs(usage, stdout);
			return -1;
		} else if (!strcmp(arg, "--json")) {
			a->json = true;
		} else if (!strcmp(arg, "--out")) {
			if (++i == argc || !argv[i][0])
				return usage_error("--out needs a directory", NULL);
			a->out = argv[i];
		} else if (arg[0] == '-' && arg[1]) {
			return usage_error("unknown option", arg);
		} else if (inputs == 2) {
			return usage_error("two results to compare, not more:", arg);
		} else {
			a->input[inputs++] = arg;
		}
	}
	return inputs == 2 ? 0 : usage_error("needs two results: A and B", NULL);
}

/* The document as indented JSON; 0, or -1 when out failed. */
static int write_json(FILE *out, const json_t *doc)
{
	int rc = json_dumpf(doc, out,
			    JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	fputc('\n', out);
	return rc || fflush(out) || ferror(out) ? -1 : 0;
}

/* DIR/name written by one of the writers; 0, or 1 with a line on stderr. */
static int write_file(const char *dir, const char *name, const json_t *doc,
		      int (*writer)(FILE *, const json_t *))
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	int rc = f ? writer(f, doc) : -1;

	if (f && fclose(f))
		rc = -1;
	if (rc)
		fprintf(stderr, "ebsbench compare: cannot write %s: %s\n", path, strerror(errno));
	return rc ? 1 : 0;
}

/* --out DIR (made if new, its parent must exist), or stdout. */
static int emit(const struct compare_args *a, const json_t *doc)
{
	if (!a->out)
		return (a->json ? write_json : compare_md_write)(stdout, doc) ? 1 : 0;
	if (mkdir(a->out, 0755) && errno != EEXIST) {
		fprintf(stderr, "ebsbench compare: cannot create %s: %s\n", a->out,
			strerror(errno));
		return 1;
	}
	if (write_file(a->out, COMPARE_MD, doc, compare_md_write) ||
	    write_file(a->out, COMPARE_JSON, doc, write_json) ||
	    write_file(a->out, COMPARE_HTML, doc, compare_html_page))
		return 1;
	fprintf(stderr, "ebsbench compare: %s, %s and %s in %s/\n", COMPARE_MD, COMPARE_JSON,
		COMPARE_HTML, a->out);
	return 0;
}

/* Both runs loaded and analysed again, compared, written out. */
int cmd_compare(int argc, char **argv, const volatile sig_atomic_t *stop)
{
	(void)stop; /* short: it has nothing to stop early */
	struct compare_args a = { 0 };
	json_t *run[2] = { NULL, NULL };
	char err[512];
	int rc = parse_args(argc, argv, &a);

	if (rc)
		return rc < 0 ? 0 : rc;
	for (int i = 0; i < 2 && !rc; i++) {
		run[i] = results_load_any(a.input[i], err, sizeof(err));
		if (!run[i] || report_reanalyse(run[i], NULL, err, sizeof(err))) {
			fprintf(stderr, "ebsbench compare: %s\n", err);
			rc = EXIT_USAGE;
		}
	}
	json_t *doc = rc ? NULL : compare_build(run[0], run[1], a.input[0], a.input[1]);
	if (!rc && !doc) {
		fprintf(stderr, "ebsbench compare: out of memory\n");
		rc = 1;
	}
	if (doc)
		rc = emit(&a, doc);
	json_decref(doc);
	json_decref(run[0]);
	json_decref(run[1]);
	return rc;
}
