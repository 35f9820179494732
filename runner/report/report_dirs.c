/* report_dirs.c - what `ebsbench report DIR...` does once its arguments are
 * read: every results.json loaded and its analysis run again (re-priced by
 * a config's "prices" if asked), the report written into the report
 * directory, and for several directories the fleet's files beside it. */
#include "report/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/analysis.h"
#include "decide/decide.h"
#include "lib/lib.h"
#include "results/results.h"
#include "report/fleet.h"
#include "report/report_analysis.h"
#include "report/summary.h"

/* Loads every results.json and runs its analysis again; stops at the
 * first directory without a readable record. */
static enum report_outcome load_all(const struct report_request *req, json_t **runs, char *err,
				    size_t errlen)
{
	json_t *prices = NULL;
	if (req->config && report_prices_load(req->config, &prices, err, errlen))
		return REPORT_BAD_INPUT;
	enum report_outcome rc = REPORT_DONE;
	for (size_t i = 0; i < req->ndirs && !rc; i++) {
		runs[i] = results_load(req->dirs[i], err, errlen);
		/* results_load names the file, and so the directory. */
		if (!runs[i] || report_reanalyse(runs[i], prices, err, errlen))
			rc = REPORT_FAILED;
	}
	json_decref(prices);
	return rc;
}

/* The report directory may be new; its parent must exist. */
static int ensure_dir(const char *dir, char *err, size_t errlen)
{
	struct stat st;

	if (mkdir(dir, 0755) && errno != EEXIST)
		return error_set(err, errlen, "cannot create %s: %s", dir, strerror(errno));
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return error_set(err, errlen, "%s: not a directory", dir);
	return 0;
}

/* The report of the runs, and summary.md on req->print if asked. */
static int render(const struct report_request *req, json_t *const *runs, char *err, size_t errlen)
{
	if (ensure_dir(req->out, err, errlen) ||
	    report_render(runs, req->ndirs, req->out, err, errlen))
		return -1;
	if (req->print && summary_write(req->print, runs, req->ndirs))
		return error_set(err, errlen, "writing the summary to stdout failed");
	return 0;
}

/* Each run with its new analysis, one JSON document after another, as
 * results_save writes them: what a test reads the analysis from, since
 * results.json itself is never rewritten. */
static int print_json(FILE *out, json_t *const *runs, size_t nruns, char *err, size_t errlen)
{
	for (size_t i = 0; i < nruns; i++)
		if (json_dumpf(runs[i], out,
			       JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15)) ||
		    fputc('\n', out) == EOF)
			return error_set(err, errlen, "writing the analysis to stdout failed");
	return fflush(out) ? error_set(err, errlen, "writing the analysis to stdout failed") : 0;
}

/* The fleet report of several runs into req->out, its counts in req. */
static int render_fleet(struct report_request *req, json_t *const *runs, char *err, size_t errlen)
{
	struct fleet f;
	int rc = fleet_build(&f, runs, req->dirs, req->ndirs, err, errlen) ||
				 fleet_render(&f, req->out, err, errlen)
			 ? -1
			 : 0;

	if (!rc) {
		req->volumes = f.nvolumes;
		req->classes = f.ngroups;
		req->outliers = f.noutliers;
	}
	fleet_free(&f);
	return rc;
}

enum report_outcome report_dirs(struct report_request *req, char *err, size_t errlen)
{
	json_t **runs = calloc(req->ndirs + 1, sizeof(*runs));
	enum report_outcome rc = REPORT_FAILED;

	if (!runs)
		error_set(err, errlen, "out of memory");
	else if (!(rc = load_all(req, runs, err, errlen)) &&
		 (render(req, runs, err, errlen) ||
		  (req->ndirs > 1 && render_fleet(req, runs, err, errlen)) ||
		  (req->json && print_json(req->json, runs, req->ndirs, err, errlen))))
		rc = REPORT_FAILED;
	for (size_t i = 0; runs && i < req->ndirs; i++)
		json_decref(runs[i]);
	free(runs);
	return rc;
}
