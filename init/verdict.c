/* verdict.c - summary and verdict on the console. */
#include "verdict.h"

#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot.h"
#include "config_source.h"
#include "lib/lib.h"

static const char *upload_words(int status, enum verdict_upload upload)
{
	if (upload == VERDICT_NO_UPLOAD)
		return "no upload configured: results only in this machine's RAM";
	if (status == 4 || upload == VERDICT_UPLOAD_FAILED)
		return "the upload FAILED: the summary above is all that left this machine";
	return "results uploaded";
}

void verdict_line(char *buf, size_t len, const struct supervise_result *r,
		  enum verdict_upload upload, size_t phases, size_t devices, double elapsed_s)
{
	int s = r->status;
	char done[96];
	snprintf(done, sizeof(done), "%zu phase(s) on %zu device(s) in %.0f s", phases, devices,
		 elapsed_s);
	if (r->timed_out)
		snprintf(buf, len, "STOPPED by the watchdog deadline after %.0f s: %s; %s",
			 elapsed_s, done, upload_words(s, upload));
	else if (r->forwarded)
		snprintf(buf, len, "STOPPED by signal %d: %s; %s", r->forwarded, done,
			 upload_words(s, upload));
	else if (s == 0 || s == 4)
		snprintf(buf, len, "%s: %s; %s", s ? "MEASURED" : "OK", done,
			 upload_words(s, upload));
	else if (s == 1)
		snprintf(buf, len, "FAILED: a phase failed (ebsbench run exit 1): %s; %s", done,
			 upload_words(s, upload));
	else if (s == 2)
		snprintf(buf, len, "FAILED: the config or plan was refused (exit 2): see above");
	else if (s == 3)
		snprintf(buf, len,
			 "REFUSED: a device holds data the config did not allow to "
			 "destroy (exit 3): see above");
	else if (s == EXIT_STOPPED)
		snprintf(buf, len, "STOPPED before its end (ebsbench run exit %d): %s; %s", s, done,
			 upload_words(s, upload));
	else if (s > 128)
		snprintf(buf, len, "FAILED: ebsbench run was killed by signal %d: %s", s - 128,
			 done);
	else
		snprintf(buf, len, "FAILED: ebsbench run exit %d: %s", s, done);
}

static size_t array_size_of(json_t *doc, const char *key)
{
	json_t *a = json_object_get(doc, key);
	return json_is_array(a) ? json_array_size(a) : 0;
}

/* Whether results.json's "uploads" records a file that failed to go up. */
static bool upload_failed_in(json_t *doc)
{
	size_t i;
	json_t *e;
	json_array_foreach(json_object_get(doc, "uploads"), i, e)
	{
		const char *status = json_string_value(json_object_get(e, "status"));
		if (status && !strcmp(status, "failed"))
			return true;
	}
	return false;
}

void verdict_print(const char *results_dir, const struct supervise_result *r, bool uploads,
		   double elapsed_s)
{
	char path[512], line[512];
	snprintf(path, sizeof(path), "%s/summary.md", results_dir);
	char *summary = read_small_file(path, 1024 * 1024);
	if (summary) {
		fprintf(stderr, "%s\n%s%s%s\n", VERDICT_SUMMARY_BEGIN, summary,
			summary[0] && summary[strlen(summary) - 1] == '\n' ? "" : "\n",
			VERDICT_SUMMARY_END);
		free(summary);
	}
	snprintf(path, sizeof(path), "%s/results.json", results_dir);
	json_t *doc = json_load_file(path, 0, NULL);
	enum verdict_upload upload = !uploads		     ? VERDICT_NO_UPLOAD
				     : upload_failed_in(doc) ? VERDICT_UPLOAD_FAILED
							     : VERDICT_UPLOADED;
	verdict_line(line, sizeof(line), r, upload, array_size_of(doc, "phases"),
		     array_size_of(doc, "devices"), elapsed_s);
	json_decref(doc);
	say("verdict: %s", line);
}
