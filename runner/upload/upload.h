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
#define UPLOAD_MD5_B64_LEN 24 /* base64 of 16 bytes */

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

/* When a presigned URL stops working: X-Amz-Date + X-Amz-Expires (SigV4)
 * or Expires (SigV2).  1 with *expires set, 0 when the URL says nothing,
 * -1 when it says something unreadable. */
int upload_config_url_expiry(const char *url, time_t *expires);
/* The "expiration" of a base64 POST policy: 0, or -1. */
int upload_config_policy_expiry(const char *policy_b64, time_t *expires);
/* The latest time a run started at now and planned to last planned_s may
 * end: the estimate, plus UPLOAD_EXPIRY_SLACK of it, plus the margin. */
time_t upload_config_deadline(time_t now, double planned_s);
/* Refuses (-1, one line naming the artifact, its expiry and the run's
 * estimated end, ISO UTC) when a URL or the policy expires before the
 * deadline, or when ca_file cannot be read.  0 when all is well. */
int upload_config_check(const struct upload_config *u, time_t now, double planned_s, char *err,
			size_t errlen);

/* ---- the request bodies and replies (upload_body.c) ---- */

/* base64(MD5) of len bytes of fd from offset 0, for Content-MD5. */
int upload_body_content_md5(int fd, uint64_t len, char out[UPLOAD_MD5_B64_LEN + 1]);
/* Whether "--" boundary occurs neither in len bytes of fd nor in the
 * fields or the key, so it cannot end a part early. */
bool upload_body_boundary_free(const char *boundary, int fd, uint64_t len, const json_t *fields,
			       const char *key);
/* A multipart/form-data body for an S3 POST: the fields in their order
 * ("key" replaced by key, or added after them), then the file, last, as S3
 * requires, named filename.  0, or -1 on a write or read error. */
int upload_body_multipart_write(FILE *out, const char *boundary, const json_t *fields,
				const char *key, const char *filename, int fd, uint64_t len);
/* The text of the first <tag>...</tag> in xml with XML's five entities
 * decoded and any control byte made a space, so it fits in one log line:
 * 0, or -1 when there is none. */
int upload_body_xml_text(const char *xml, const char *tag, char *out, size_t outlen);
/* S3's <Error><Code> and <Message> from an XML body; 0 if a Code was found. */
int upload_body_s3_error(const char *xml, char *code, size_t codelen, char *msg, size_t msglen);

/* ---- a resume from S3 (upload_resume.c) ---- */

/* The stopped run's results.json through u's resume_get, at most max
 * bytes: 1 with the body in *body (malloc'ed, NUL-terminated), 0 when S3
 * holds none (404), -1 with one line in err that quotes no URL. */
int upload_resume_get(const struct upload_config *u, size_t max, char **body, size_t *len,
		      char *err, size_t errlen);

/* ---- during the run (upload.c) ---- */

enum upload_when { UPLOAD_MIDRUN, UPLOAD_FINAL };

/* The wait before retry number attempt (1 = after the first failure):
 * exponential from 500 ms, capped at 20 s, half of it random (from rnd). */
unsigned upload_backoff_ms(unsigned attempt, uint32_t rnd);
/* A results.json "uploads" entry; the URL goes in redacted, without query. */
json_t *upload_record(const char *artifact, const char *url, const char *status, unsigned attempts,
		      int http_status, const char *error);
/* Whether a run's results.json (results) records artifact as uploaded. */
bool upload_recorded_ok(const json_t *results, const char *artifact);
/* S3 may echo parts of a request in an error message: every value of a
 * secret parameter (net's url_secret_params) that went with it, in url's
 * query or c's POST fields, is blanked in text, so none reaches a log or
 * results.json that way. */
void upload_scrub(char *text, const struct upload_config *c, const char *url);
/* url_redact()'s output cut at the query: enough to say where it went. */
void upload_url_shown(const char *url, char *out, size_t outlen);

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
