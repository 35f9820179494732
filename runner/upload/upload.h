/* upload.h - a run's artifacts to S3 through presigned URLs, over verified
 * HTTPS, with nothing lost.
 *
 * The config's "upload" block (what `ebsbench presign` prints):
 *   {"put": {"results.json": URL, ...}}   one presigned PUT URL per file, or
 *   {"post": {"url": URL, "fields": {...}, "key_prefix": "P/"}}   one POST
 *        policy for every file, key = key_prefix + file name,
 * plus "ca_file" (a private CA bundle), "expires" (ignored: each URL's own
 * X-Amz-Date + X-Amz-Expires, or the policy's expiration, is what counts),
 * the retry limits "max_attempts", "max_retry_s" and "timeout_s", and
 * "resume_get": a presigned GET of the run's own results.json in S3, which
 * `run --resume=auto` reads when the output directory died with its pod.
 *
 * Each phase's IOPS log and results.json go up as soon as the phase ends,
 * so an eviction loses at most the running phase; the end of the run sends
 * summary.md, the SVGs and results.json once more.  Every file also stays
 * in the results directory.  URLs are bearer credentials: they are only
 * ever logged or recorded through url_redact(), without their query. */
#ifndef EBSBENCH_UPLOAD_H
#define EBSBENCH_UPLOAD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define UPLOAD_MAX_ATTEMPTS_DEFAULT 5
#define UPLOAD_MAX_RETRY_S_DEFAULT 120.0
#define UPLOAD_TIMEOUT_S_DEFAULT 30.0
/* How far past the plan's estimated end every URL must stay valid: the
 * estimate is not exact (10 %), and the last uploads take time (5 min). */
#define UPLOAD_EXPIRY_SLACK 0.10
#define UPLOAD_EXPIRY_MARGIN_S 300.0
#define UPLOAD_KEY_MAX 1024

enum upload_mode { UPLOAD_NONE, UPLOAD_PUT, UPLOAD_POST };

struct upload_config {
	enum upload_mode mode;
	json_t *put;  /* PUT: artifact name -> URL */
	json_t *post; /* POST: the block as given (owns the strings below) */
	const char *post_url;
	json_t *post_fields; /* name -> value, sent in this order */
	char key_prefix[UPLOAD_KEY_MAX];
	char ca_file[1024]; /* "" = the system bundle */
	unsigned max_attempts;
	double max_retry_s; /* time budget for one file, attempts and waits included */
	double timeout_s;   /* longest wait for the server within an attempt */
	char *resume_get;   /* NULL, or the presigned GET of results.json */
};

/* The config's "upload" value into u (which config_defaults zeroed).
 * Returns 0, or -1 with a one-line reason that quotes no URL. */
int upload_config_parse(struct upload_config *u, json_t *v, char *err, size_t errlen);
void upload_config_free(struct upload_config *u);

/* ---- before any I/O ---- */

/* Refuses (-1, one line naming the artifact, its expiry and the run's
 * estimated end, ISO UTC) when a URL or the policy expires before the
 * deadline, or when ca_file cannot be read.  0 when all is well. */
int upload_config_check(const struct upload_config *u, time_t now, double planned_s, char *err,
			size_t errlen);

/* ---- a resume from S3 (upload_resume.c) ---- */

/* The stopped run's results.json through u's resume_get, at most max
 * bytes: 1 with the body in *body (malloc'ed, NUL-terminated), 0 when S3
 * holds none (404), -1 with one line in err that quotes no URL. */
int upload_resume_get(const struct upload_config *u, size_t max, char **body, size_t *len,
		      char *err, size_t errlen);

/* ---- during the run (upload.c) ---- */

enum upload_when { UPLOAD_MIDRUN, UPLOAD_FINAL };

struct uploader {
	const struct upload_config *cfg;
	const char *dir;
	json_t *results; /* borrowed; its "uploads" array is kept up to date */
	json_t *retry;	 /* names whose last upload failed for a reason that may pass */
	FILE *log;
	/* A file failed after all its retries: until one succeeds, uploads
	 * try once (but for the final results.json), so a dead endpoint
	 * neither stretches the idle time between phases (which changes what
	 * EBS credits do) nor keeps the run from ending for long. */
	bool degraded;
	bool failed; /* some file is not in S3 as it is on disk */
	/* A PUT's Content-Type by file name (run/'s artifacts_content_type);
	 * NULL: application/octet-stream. */
	const char *(*content_type)(const char *name);
	unsigned uploaded, skipped;
};

/* Nothing happens when cfg->mode is UPLOAD_NONE. */
void upload_init(struct uploader *up, const struct upload_config *cfg, const char *dir,
		 json_t *results, FILE *log);
void upload_free(struct uploader *up);
/* Uploads DIR/name (or reports it skipped): 0, or -1 if it failed. */
int upload_send(struct uploader *up, const char *name, enum upload_when when);
/* The end of the run: files whose upload may yet succeed, then names[]
 * in order, then results.json, saved first so the copy in S3 is the local
 * one.  Returns 0, or -1 when any file failed. */
int upload_finish(struct uploader *up, const char *const *names, size_t count);

/* The rest of the folder's face (last: each sees what is declared above). */
#include "upload/sigv4.h"
#include "upload/aws_credentials.h"
#include "upload/s3_fetch.h"

#endif
