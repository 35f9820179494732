/* internal.h - what upload/'s files share among themselves, and the
 * building blocks its unit tests and fuzz targets call; nothing outside
 * upload/ calls these, so the face (upload.h) does not include this header. */
#ifndef EBSBENCH_UPLOAD_INTERNAL_H
#define EBSBENCH_UPLOAD_INTERNAL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "upload/sigv4.h"
#include "upload/aws_credentials.h"

/* sigv4.c: the signature, base64 and X-Amz-Date, tested against AWS's examples */
/* hex(HMAC-SHA256(signing key, string_to_sign)); for a POST policy the
 * string to sign is the base64 policy itself. */
int sigv4_sign(const char *secret_key, const struct sigv4_scope *scope, const char *string_to_sign,
	       char hex[SIGV4_HEX_LEN + 1]);
/* Standard base64 with padding; malloc'd, NULL on failure. */
char *sigv4_base64(const void *data, size_t len);
/* "20130524T000000Z" (ISO 8601 basic, as X-Amz-Date wants). */
int sigv4_amz_date(time_t when, char out[17]);

/* aws_credentials_ini.c: reading INI text, ISO times and credential_process output */
/* The value of key in [section] of an INI text as botocore reads it: lines
 * starting with '#' or ';' are comments, names and values are trimmed of
 * blanks, key names match case-insensitively, '=' or ':' separate them,
 * and a line indented under a key continues that key (a nested block such
 * as "s3 =\n  addressing_style = path"), so it is never a key itself.
 * Returns 0 with the value in out, 1 when the section has no such key, 2
 * when there is no such section, -1 when the value does not fit in cap. */
int aws_ini_value(const char *text, const char *section, const char *key, char *out, size_t cap);
/* "2026-12-02T22:00:00Z", "...T22:00:00.123Z", "...T22:00:00+00:00" (any
 * offset) into UTC seconds: 0, or -1. */
int aws_parse_iso_time(const char *text, time_t *when);
/* A credential_process's JSON into c (source not touched).  0, or -1 with
 * a reason that quotes none of the text (it holds the secret). */
int aws_process_output(struct aws_credentials *c, const char *json, time_t now, char *err,
		       size_t errlen);

/* s3_fetch.c: a listing page and the keys it may write */
/* One page of a ListObjectsV2 reply: calls each(key, size, ctx) per
 * <Contents> (stopping at its first non-zero return), sets *token to the
 * NextContinuationToken when <IsTruncated> is true, else "".  0, or -1
 * when the XML is not a listing. */
int s3_fetch_parse_list(const char *xml, int (*each)(const char *key, uint64_t size, void *ctx),
			void *ctx, char *token, size_t tokencap);
/* Whether key, less the prefix, is a safe relative path under a
 * directory: not empty, no leading '/', no "." or ".." segment, no empty
 * segment but for a trailing one (a "folder" object, skipped). */
bool s3_fetch_safe_name(const char *name);

/* upload.c: what s3_fetch.c asks of a fetched results.json */
/* Whether a run's results.json (results) records artifact as uploaded. */
bool upload_recorded_ok(const json_t *results, const char *artifact);

#endif
