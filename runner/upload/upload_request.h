/* upload_request.h - what every request of the folder shares (upload.c): the
 * wait between retries, the "uploads" record, and keeping secrets out of
 * what is logged. */
#ifndef EBSBENCH_UPLOAD_REQUEST_H
#define EBSBENCH_UPLOAD_REQUEST_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "upload/upload.h"

/* The wait before retry number attempt (1 = after the first failure):
 * exponential from 500 ms, capped at 20 s, half of it random (from rnd). */
unsigned upload_backoff_ms(unsigned attempt, uint32_t rnd);
/* A results.json "uploads" entry; the URL goes in redacted, without query. */
json_t *upload_record(const char *artifact, const char *url, const char *status, unsigned attempts,
		      int http_status, const char *error);
/* S3 may echo parts of a request in an error message: every value of a
 * secret parameter (net's url_secret_params) that went with it, in url's
 * query or c's POST fields, is blanked in text, so none reaches a log or
 * results.json that way. */
void upload_scrub(char *text, const struct upload_config *c, const char *url);
/* url_redact()'s output cut at the query: enough to say where it went. */
void upload_url_shown(const char *url, char *out, size_t outlen);

#endif
