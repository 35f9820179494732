/* verdict.h - what the console shows at the end of a run: summary.md,
 * then one line a person (or a test reading the EC2 console output) can
 * act on.  The summary goes to the console whatever happened to the
 * upload: an unreachable bucket must not hide what was measured. */
#ifndef EBSBENCH_INIT_VERDICT_H
#define EBSBENCH_INIT_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "supervise.h"

#define VERDICT_SUMMARY_BEGIN "----- summary.md -----"
#define VERDICT_SUMMARY_END "----- end of summary.md -----"

/* What became of the upload.  false/true read as none/uploaded. */
enum verdict_upload {
	VERDICT_NO_UPLOAD = 0,
	VERDICT_UPLOADED = 1,
	/* results.json records a failed upload: a failed phase's exit 1
	 * hides an upload's exit 4, so the record says it. */
	VERDICT_UPLOAD_FAILED = 2,
};

/* The verdict line's text (without the "ebsbench-init: verdict: "
 * prefix) for a run that ended as r after elapsed_s, with phases and
 * devices counted from its results. */
void verdict_line(char *buf, size_t len, const struct supervise_result *r,
		  enum verdict_upload upload, size_t phases, size_t devices, double elapsed_s);

/* summary.md of results_dir, then the verdict line, on stderr. */
void verdict_print(const char *results_dir, const struct supervise_result *r, bool uploads,
		   double elapsed_s);

#endif
