/* report.h - the human artifacts of one run or a fleet of runs: summary.md
 * and the SVG charts, written into a results (or report) directory.  What
 * report/'s files share among themselves is in its module headers and
 * report/internal.h, none of them included here. */
#ifndef EBSBENCH_REPORT_H
#define EBSBENCH_REPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "decide/decide.h"
#include "run/run.h"

/* Writes the report's artifacts (artifacts_report_files: summary.md,
 * iops_timeline.svg, latency_percentiles.svg, latency_heatmap.svg, ...,
 * report.html) into dir.  Returns 0, or -1
 * with a one-line reason naming the file. */
int report_render(json_t *const *runs, size_t nruns, const char *dir, char *err, size_t errlen);

/* A report file's writer: 0, or -1 on a write error. */
typedef int report_render_fn(FILE *out, json_t *const *runs, size_t nruns);

/* The TL;DR table for a console: what the user sees whatever else happens. */
void report_print_tldr(FILE *out, json_t *const *runs, size_t nruns);

/* How a subcommand's work here ended, as its exit code. */
enum report_outcome {
	REPORT_DONE = 0,
	REPORT_FAILED = 1,    /* a results directory or an output file failed */
	REPORT_BAD_INPUT = 2, /* a config or a results file the user named is unusable */
};

/* What `ebsbench report` was asked, once its arguments are read. */
struct report_request {
	const char *const *dirs; /* results directories, one results.json each */
	size_t ndirs;
	const char *out;    /* the report directory: made if new, its parent must exist */
	const char *config; /* a run config whose "prices" re-price, or NULL */
	FILE *print;	    /* summary.md also written here (stdout), or NULL */
	FILE *json;	    /* each re-analysed results.json written here (stdout), or NULL */
	/* Filled for a fleet (ndirs > 1): what fleet.md counted. */
	size_t volumes, classes, outliers;
};

/* The fleet report's files, in the --out directory. */
#define FLEET_MD_FILE "fleet.md"
#define FLEET_JSON_FILE "fleet.json"
#define FLEET_SVG_FILE "fleet.svg"

/* Loads each directory's results.json, runs its analysis again and writes
 * the report into req->out; several directories also write the fleet's
 * files (FLEET_*_FILE) there.  REPORT_BAD_INPUT for a bad config; a reason in
 * err for anything but REPORT_DONE. */
enum report_outcome report_dirs(struct report_request *req, char *err, size_t errlen);

/* The files of `ebsbench compare --out DIR`. */
#define COMPARE_MD_FILE "compare.md"
#define COMPARE_JSON_FILE "compare.json"
#define COMPARE_HTML_FILE "report.html"

/* What `ebsbench compare` was asked, once its arguments are read. */
struct compare_request {
	const char *input[2]; /* A and B: results directories or results.json files */
	const char *out;      /* compare.md, compare.json and report.html go here, or NULL */
	bool json;	      /* without out: JSON rather than Markdown */
	FILE *print;	      /* without out: where the comparison goes (stdout) */
};

/* Loads and analyses A and B again, compares them and writes the result.
 * REPORT_BAD_INPUT when a results file is missing, unreadable or of a newer
 * schema; the reason in err (empty when only req->print failed). */
enum report_outcome compare_results(const struct compare_request *req, char *err, size_t errlen);

/* What `ebsbench recommend` was asked, once its arguments are read. */
struct recommend_request {
	const char *input;  /* a results directory or results.json, or NULL (--demand alone) */
	const char *region; /* whose built-in prices, or NULL: the results' */
	const char *out;    /* the ready-to-apply files (and --demand's report) go here, or NULL */
	bool json;	    /* --json rather than the table */
	struct recommend_ask ask;
	const struct demand_question *demand; /* --demand's traces, or NULL */
	FILE *print;			      /* the answer (stdout) */
	FILE *warn;			      /* what was skipped or written (stderr) */
};

/* Loads and analyses the results again (if any), prices them (--region's
 * prices over the results'), searches and writes the answer to req->print
 * and the files to req->out.  REPORT_BAD_INPUT when a results file or a
 * trace is missing, unreadable or of a newer schema; the reason in err
 * for anything but REPORT_DONE (empty when it was said on req->warn). */
enum report_outcome recommend_results(const struct recommend_request *req, char *err,
				      size_t errlen);

#endif
