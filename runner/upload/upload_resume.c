/* upload_resume.c - the stopped run's results.json back from S3 through
 * the upload block's presigned GET (resume_get), for `run --resume=auto`
 * in a pod whose output directory died with the pod before it. */
#include "upload/upload.h"
#include "upload/upload_body.h"
#include "upload/upload_request.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/lib.h"
#include "net/net.h"

static void pause_ms(unsigned ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* One GET: 0 with a reply (any status) in resp, or -1 with err. */
static int get_once(const struct upload_config *u, size_t max, struct http_response *resp,
		    char *err, size_t errlen)
{
	int io = (int)(u->timeout_s * 1000);
	struct http_request req = { .method = HTTP_GET,
				    .url = u->resume_get,
				    .connect_timeout_ms = io,
				    .io_timeout_ms = io,
				    .total_timeout_ms = io,
				    .ca_file = u->ca_file[0] ? u->ca_file : NULL,
				    .body_max = max };
	char why[400];
	if (!http_request(&req, resp, why, sizeof(why)))
		return 0;
	return error_set(
		err, errlen, "%s%s", why,
		resp->kind == HTTP_FAIL_TLS_VERIFY ? " (is upload.ca_file the server's CA?)" : "");
}

/* "HTTP 403 AccessDenied: <message>" of a refusal. */
static int refused(const struct http_response *resp, char *err, size_t errlen)
{
	char code[64], msg[256];
	if (!resp->body || upload_body_s3_error(resp->body, code, sizeof(code), msg, sizeof(msg))) {
		snprintf(code, sizeof(code), "%s", resp->reason);
		msg[0] = '\0';
	}
	return error_set(err, errlen, "HTTP %d %s%s%s", resp->status, code, msg[0] ? ": " : "",
			 msg);
}

int upload_resume_get(const struct upload_config *u, size_t max, char **body, size_t *len,
		      char *err, size_t errlen)
{
	struct http_response resp;
	int rc = -1;
	*body = NULL;
	*len = 0;
	if (!u->resume_get)
		return error_set(err, errlen, "the upload block has no resume_get URL");
	for (unsigned attempt = 1;; attempt++) {
		memset(&resp, 0, sizeof(resp));
		err[0] = '\0';
		if (!get_once(u, max, &resp, err, errlen) && resp.status == 200 &&
		    !resp.body_truncated) {
			*body = resp.body;
			*len = resp.body_len;
			resp.body = NULL;
			rc = 1;
		} else if (!err[0] && resp.status == 404) {
			rc = 0; /* the run never finished a step: nothing in S3 */
		} else if (!err[0] && resp.body_truncated) {
			error_set(err, errlen, "the object is over %zu bytes", max);
		} else if (!err[0]) {
			refused(&resp, err, errlen);
		}
		bool again = rc < 0 && !resp.body_truncated && http_should_retry(&resp) &&
			     attempt < u->max_attempts;
		http_response_free(&resp);
		if (!again)
			break;
		pause_ms(upload_backoff_ms(attempt, (uint32_t)time(NULL)));
	}
	if (rc < 0)
		upload_scrub(err, u, u->resume_get);
	return rc;
}
