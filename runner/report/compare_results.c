/* compare_results.c - what `ebsbench compare A B` does once its arguments
 * are read: both runs loaded and analysed again, compared phase by phase
 * (decide/compare.h), and the comparison written: Markdown or JSON to
 * one stream, or compare.md, compare.json and report.html into a
 * directory. */
#include "report/report.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/analysis.h"
#include "decide/decide.h"
#include "lib/lib.h"
#include "results/results.h"
#include "report/compare.h"
#include "report/report_analysis.h"

/* The document as indented JSON; 0, or -1 when out failed. */
static int write_json(FILE *out, const json_t *doc)
{
	int rc = json_dumpf(doc, out,
			    JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	fputc('\n', out);
	return rc || fflush(out) || ferror(out) ? -1 : 0;
}

/* DIR/name written by one of the writers; 0, or -1 with a reason. */
static int write_file(const char *dir, const char *name, const json_t *doc,
		      int (*writer)(FILE *, const json_t *), char *err, size_t errlen)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	int rc = f ? writer(f, doc) : -1;

	if (f && fclose(f))
		rc = -1;
	if (rc)
		return error_set(err, errlen, "cannot write %s: %s", path, strerror(errno));
	return 0;
}

/* req->out (made if new, its parent must exist), or req->print. */
static int emit(const struct compare_request *req, const json_t *doc, char *err, size_t errlen)
{
	if (!req->out) {
		/* A stream that failed: nothing to add (the reason stays empty). */
		if ((req->json ? write_json : compare_md_write)(req->print, doc))
			return error_set(err, errlen, "%s", "");
		return 0;
	}
	if (mkdir(req->out, 0755) && errno != EEXIST)
		return error_set(err, errlen, "cannot create %s: %s", req->out, strerror(errno));
	if (write_file(req->out, COMPARE_MD_FILE, doc, compare_md_write, err, errlen) ||
	    write_file(req->out, COMPARE_JSON_FILE, doc, write_json, err, errlen) ||
	    write_file(req->out, COMPARE_HTML_FILE, doc, compare_html_page, err, errlen))
		return -1;
	return 0;
}

enum report_outcome compare_results(const struct compare_request *req, char *err, size_t errlen)
{
	json_t *run[2] = { NULL, NULL };
	enum report_outcome rc = REPORT_DONE;

	for (int i = 0; i < 2 && !rc; i++) {
		run[i] = results_load_any(req->input[i], err, errlen);
		if (!run[i] || report_reanalyse(run[i], NULL, err, errlen))
			rc = REPORT_BAD_INPUT;
	}
	json_t *doc = rc ? NULL : compare_build(run[0], run[1], req->input[0], req->input[1]);
	if (!rc && !doc) {
		error_set(err, errlen, "out of memory");
		rc = REPORT_FAILED;
	}
	if (doc && emit(req, doc, err, errlen))
		rc = REPORT_FAILED;
	json_decref(doc);
	json_decref(run[0]);
	json_decref(run[1]);
	return rc;
}
