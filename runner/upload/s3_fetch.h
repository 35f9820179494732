/* s3_fetch.h - one run's results back from S3 with the user's own
 * credentials: a SigV4-signed ListObjectsV2 of the prefix (page by page,
 * by continuation token), then a signed GET of each object, written under
 * a local directory.  The requests are presigned URLs (query
 * authentication), the same signer and HTTP/TLS client as the uploads; no
 * URL is ever printed. */
#ifndef EBSBENCH_S3_FETCH_H
#define EBSBENCH_S3_FETCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "upload/sigv4.h"

/* A run's files are kilobytes to a few megabytes; this bounds what one
 * object may take in memory. */
#define S3_FETCH_OBJECT_MAX (512ull << 20)

struct s3_fetch {
	const struct sigv4_credentials *cred;
	const char *region;
	const char *scheme; /* "https" or "http" */
	const char *host;   /* host[:port] as signed */
	const char *bucket;
	const char *prefix;  /* "" or ending in '/' */
	const char *dir;     /* made if missing */
	const char *ca_file; /* NULL: the system bundle */
	bool force;	     /* replace local files that differ */
	FILE *progress;	     /* a line per object, and the totals */
	unsigned page_keys;  /* max-keys of a listing page; 0: S3's (1,000) */
	/* What was done. */
	unsigned objects, unchanged;
	uint64_t bytes;
};

/* Lists the prefix and writes every object under it to dir/<key without
 * the prefix>.  A local file that differs is refused (-1, naming it)
 * unless force; one that is equal is left alone.  Keys that would leave
 * dir (".." segments, a leading '/') are refused.  0, 1 when the prefix
 * holds no object, or -1 with one line in err that holds no URL. */
int s3_fetch_run(struct s3_fetch *f, char *err, size_t errlen);

/* Whether the run whose results go under the prefix has ended: done_name
 * (report.html: a run sends it at its end only) and record_name
 * (results.json, which the run sends last) are listed, and record_name
 * records done_name's upload.  1 ended, 0 not yet, -1 with one line in err (no
 * URL); *listed the objects seen. */
int s3_fetch_run_ended(struct s3_fetch *f, const char *done_name, const char *record_name,
		       unsigned *listed, char *err, size_t errlen);

/* One listing of at most one key under the prefix: whether the bucket
 * answers to the credentials, and whether the prefix is in use.  1 the
 * prefix holds an object, 0 it holds none, -1 with one line in err (S3
 * refused: "S3 refused the listing of s3://B/P: HTTP 403 ..."). */
int s3_fetch_probe(struct s3_fetch *f, char *err, size_t errlen);

/* Where a run's files go when no directory is named: the prefix's last
 * component ("runs/7/" -> "7"), else the bucket. */
void s3_fetch_default_dir(const char *bucket, const char *prefix, char *out, size_t cap);
/* The report among a fetched run's files: dir/report.html, else
 * dir/summary.md, else dir itself, into path[cap]. */
void s3_fetch_report_path(const char *dir, char *path, size_t cap);

#endif
