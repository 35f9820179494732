/* run_resume_fetch.c - `run --resume=auto`: the stopped run's results.json
 * from S3 (the upload block's resume_get) when the output directory died
 * with the pod that ran it, or the word that there is nothing to resume
 * (run_resume.h). */
#include "run/run_resume.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/lib.h"
#include "results/results.h"

/* A results.json is kilobytes (a long plan's: under a megabyte). */
#define FETCH_MAX (16u << 20)

int run_resume_fetch(const struct upload_config *u, const char *out_dir, char *line, size_t linelen,
		     char *err, size_t errlen)
{
	char path[4200], why[512];
	snprintf(path, sizeof(path), "%s/%s", out_dir, RESULTS_FILE);
	line[0] = '\0';
	if (!access(path, F_OK))
		return RUN_RESUME_LOCAL;
	if (errno != ENOENT)
		return error_set(err, errlen, "%s: %s", path, strerror(errno));
	if (!u->resume_get) {
		snprintf(line, linelen,
			 "no %s in %s and no upload.resume_get to fetch it with: nothing to "
			 "resume, the run starts from its start",
			 RESULTS_FILE, out_dir);
		return RUN_RESUME_NONE;
	}
	char *body;
	size_t len;
	int got = upload_resume_get(u, FETCH_MAX, &body, &len, why, sizeof(why));
	if (got < 0)
		return error_set(err, errlen, "the stopped run's %s from S3: %s", RESULTS_FILE,
				 why);
	if (!got) {
		snprintf(line, linelen,
			 "S3 holds no %s of this run: nothing to resume, the run starts from its "
			 "start",
			 RESULTS_FILE);
		return RUN_RESUME_NONE;
	}
	json_error_t jerr;
	json_t *prev = json_loadb(body, len, 0, &jerr);
	free(body);
	int rc = RUN_RESUME_LOCAL;
	if (!prev || results_schema_check(prev, why, sizeof(why)))
		rc = error_set(err, errlen, "the %s in S3 is not a run's results: %s", RESULTS_FILE,
			       prev ? why : jerr.text);
	else if (run_resume_finished(prev)) {
		snprintf(line, linelen, "the run in S3 finished: nothing to resume");
		rc = RUN_RESUME_FINISHED;
	} else if (results_save(prev, out_dir, why, sizeof(why)))
		rc = error_set(err, errlen, "%s", why);
	else
		snprintf(line, linelen, "the stopped run's %s fetched from S3 into %s",
			 RESULTS_FILE, out_dir);
	json_decref(prev);
	return rc;
}
