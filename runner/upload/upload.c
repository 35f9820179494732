/* upload.c - a run's files to S3, one at a time, each with bounded
 * retries, each outcome on stderr and in results.json's "uploads". */
#include "upload/upload.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/lib.h"
#include "net/net.h"
#include "results/results.h"

#define UPLOADS_KEY "uploads"
#define PREFIX "ebsbench run: "

/* One file on its way: the request and what became of it. */
struct job {
	const char *name;
	const char *url;
	int fd;	     /* the file */
	int form_fd; /* POST: a memfd holding the whole form, else -1 */
	uint64_t len, body_len;
	char md5[UPLOAD_MD5_B64_LEN + 1];
	char type[96];
	struct http_header headers[2];
	size_t header_count;
	unsigned attempts;
	int http_status;
	bool retryable;
	char error[640];
};

/* Credentials in a query or form, by parameter name. */
static const char *const secret_names[] = { "X-Amz-Signature", "X-Amz-Credential",
					    "X-Amz-Security-Token", "Signature", "AWSAccessKeyId" };

static bool secret_name(const char *name, size_t n)
{
	for (size_t i = 0; i < sizeof(secret_names) / sizeof(secret_names[0]); i++)
		if (strlen(secret_names[i]) == n && !strncasecmp(name, secret_names[i], n))
			return true;
	return false;
}

static void scrub_value(char *text, const char *v, size_t n)
{
	char *p;
	if (n < 8) /* "REDACTED" must not be longer than what it replaces */
		return;
	while ((p = memmem(text, strlen(text), v, n))) {
		memcpy(p, "REDACTED", 8);
		memmove(p + 8, p + n, strlen(p + n) + 1);
	}
}

/* S3 may echo parts of a request in an error message: none of the
 * credentials that went with it may reach a log or results.json that way. */
static void scrub(char *text, const struct upload_config *c, const char *url)
{
	const char *q = strchr(url, '?'), *name;
	json_t *v;
	while (q && (*q == '?' || *q == '&')) {
		q++;
		size_t len = strcspn(q, "&#"), eq = strcspn(q, "=");
		if (eq < len && secret_name(q, eq))
			scrub_value(text, q + eq + 1, len - eq - 1);
		q += len;
	}
	json_object_foreach(c->post_fields, name, v)
	{
		if (secret_name(name, strlen(name)) && json_is_string(v))
			scrub_value(text, json_string_value(v), json_string_length(v));
	}
}

static const char *content_type(const char *name)
{
	static const char *const types[][2] = {
		{ ".json", "application/json" },
		{ ".md", "text/markdown; charset=utf-8" },
		{ ".svg", "image/svg+xml" },
		{ ".log", "text/plain" },
	};
	size_t n = strlen(name);
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		size_t t = strlen(types[i][0]);
		if (n > t && !strcmp(name + n - t, types[i][0]))
			return types[i][1];
	}
	return "application/octet-stream";
}

static uint32_t random32(void)
{
	uint32_t r;
	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != sizeof(r))
		r = (uint32_t)clock_now_ns();
	return r;
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };
	/* A stop signal must not cut the wait short: the point of stopping
	 * is to upload what there is. */
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* The POST form, written once into memory, so every attempt sends the same
 * bytes from an fd as a PUT does. */
static int build_form(const struct upload_config *c, struct job *j)
{
	char key[UPLOAD_KEY_MAX + 128], boundary[64];
	snprintf(key, sizeof(key), "%s%s", c->key_prefix, j->name);
	int tries = 0;
	do {
		snprintf(boundary, sizeof(boundary), "ebsbench-%08x%08x%08x", random32(),
			 random32(), random32());
	} while (!upload_boundary_free(boundary, j->fd, j->len, c->post_fields, key) &&
		 ++tries < 8);
	int fd = tries < 8 ? memfd_create("ebsbench-form", MFD_CLOEXEC) : -1;
	int dupfd = fd >= 0 ? dup(fd) : -1;
	FILE *out = dupfd >= 0 ? fdopen(dupfd, "w") : NULL;
	if (!out && dupfd >= 0)
		close(dupfd);
	int rc = out ? upload_multipart_write(out, boundary, c->post_fields, key, j->name, j->fd,
					      j->len)
		     : -1;
	if ((out && fclose(out)) || rc) {
		if (fd >= 0)
			close(fd);
		snprintf(j->error, sizeof(j->error), "building the POST form: %s",
			 tries == 8 ? "no boundary found" : strerror(errno));
		return -1;
	}
	j->form_fd = fd;
	j->body_len = (uint64_t)lseek(fd, 0, SEEK_END);
	snprintf(j->type, sizeof(j->type), "multipart/form-data; boundary=%s", boundary);
	j->headers[0] = (struct http_header){ "Content-Type", j->type };
	j->header_count = 1;
	return 0;
}

static int job_open(const struct upload_config *c, const char *dir, struct job *j)
{
	char path[4200];
	struct stat st;
	snprintf(path, sizeof(path), "%s/%s", dir, j->name);
	j->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (j->fd < 0 || fstat(j->fd, &st)) {
		snprintf(j->error, sizeof(j->error), "cannot read %s: %s", j->name,
			 strerror(errno));
		return -1;
	}
	j->len = j->body_len = (uint64_t)st.st_size;
	if (c->mode == UPLOAD_POST)
		return build_form(c, j);
	/* S3 checks the body against Content-MD5 even when the URL's
	 * signature does not cover the header. */
	if (upload_content_md5(j->fd, j->len, j->md5)) {
		snprintf(j->error, sizeof(j->error), "cannot read %s to checksum it", j->name);
		return -1;
	}
	j->headers[0] = (struct http_header){ "Content-MD5", j->md5 };
	j->headers[1] = (struct http_header){ "Content-Type", content_type(j->name) };
	j->header_count = 2;
	return 0;
}

static void describe(struct job *j, const struct http_response *resp, const char *err)
{
	char code[64], msg[400];
	if (resp->kind == HTTP_OK &&
	    !upload_s3_error(resp->body, code, sizeof(code), msg, sizeof(msg)))
		snprintf(j->error, sizeof(j->error), "HTTP %d %s%s%s", resp->status, code,
			 msg[0] ? ": " : "", msg);
	else if (resp->kind == HTTP_OK)
		snprintf(j->error, sizeof(j->error), "HTTP %d %s", resp->status, resp->reason);
	else if (resp->kind == HTTP_FAIL_TLS_VERIFY)
		snprintf(j->error, sizeof(j->error),
			 "TLS certificate verification failed (is upload.ca_file the server's "
			 "CA?): %s",
			 err);
	else
		snprintf(j->error, sizeof(j->error), "%s", err);
}

static int try_once(const struct upload_config *c, struct job *j, uint64_t left_ms)
{
	uint64_t wait_ms = (uint64_t)(c->timeout_s * 1000);
	int io = (int)(wait_ms < left_ms ? wait_ms : left_ms);
	struct http_request req = {
		.method = c->mode == UPLOAD_POST ? HTTP_POST : HTTP_PUT,
		.url = j->url,
		.headers = j->headers,
		.header_count = j->header_count,
		.body_fd = j->form_fd >= 0 ? j->form_fd : j->fd,
		.body_len = j->body_len,
		.connect_timeout_ms = io,
		.io_timeout_ms = io,
		.total_timeout_ms = (int)left_ms,
		.ca_file = c->ca_file[0] ? c->ca_file : NULL,
	};
	struct http_response resp;
	char err[400];
	int rc = http_request(&req, &resp, err, sizeof(err));
	j->http_status = resp.status;
	if (rc == 0 && resp.status >= 200 && resp.status < 300) {
		http_response_free(&resp);
		return 0;
	}
	j->retryable = http_should_retry(&resp);
	describe(j, &resp, err);
	http_response_free(&resp);
	scrub(j->error, c, j->url);
	return -1;
}

/* Attempts until success, an error that will not pass (4xx, TLS), the
 * attempt limit or the time budget. */
static int send_with_retries(struct uploader *up, struct job *j, enum upload_when when)
{
	const struct upload_config *c = up->cfg;
	uint64_t start = clock_now_ns(), budget_ms = (uint64_t)(c->max_retry_s * 1000);
	/* results.json, the record of everything, gets every retry at the end. */
	bool all = when == UPLOAD_FINAL && !strcmp(j->name, RESULTS_FILE);
	unsigned max = up->degraded && !all ? 1 : c->max_attempts;
	for (j->attempts = 1;; j->attempts++) {
		uint64_t used = (clock_now_ns() - start) / 1000000;
		if (try_once(c, j, used < budget_ms ? budget_ms - used : 1) == 0)
			return 0;
		if (!j->retryable || j->attempts >= max)
			return -1;
		unsigned wait = upload_backoff_ms(j->attempts, random32());
		used = (clock_now_ns() - start) / 1000000;
		/* No retry that could not get a second of the budget. */
		if (used + wait + 1000 >= budget_ms)
			return -1;
		fprintf(up->log,
			PREFIX "upload %s: attempt %u of %u failed (%s); retrying in %.1f s\n",
			j->name, j->attempts, max, j->error, wait / 1000.0);
		sleep_ms(wait);
	}
}

/* Replaces the artifact's entry in "uploads", or appends one. */
static void record(struct uploader *up, json_t *entry)
{
	json_t *list = json_object_get(up->results, UPLOADS_KEY), *e;
	const char *name = json_string_value(json_object_get(entry, "artifact"));
	size_t i;
	json_array_foreach(list, i, e)
	{
		if (!strcmp(json_string_value(json_object_get(e, "artifact")), name)) {
			json_array_set_new(list, i, entry);
			return;
		}
	}
	json_array_append_new(list, entry);
}

static bool has_record(const struct uploader *up, const char *name)
{
	json_t *list = json_object_get(up->results, UPLOADS_KEY), *e;
	size_t i;
	json_array_foreach(list, i, e)
	{
		if (!strcmp(json_string_value(json_object_get(e, "artifact")), name))
			return true;
	}
	return false;
}

static void set_retry(struct uploader *up, const char *name, bool again)
{
	json_t *e;
	size_t i;
	json_array_foreach(up->retry, i, e)
	{
		if (!strcmp(json_string_value(e), name)) {
			if (!again)
				json_array_remove(up->retry, i);
			return;
		}
	}
	if (again)
		json_array_append_new(up->retry, json_string(name));
}

static int skip(struct uploader *up, const char *name)
{
	if (has_record(up, name))
		return 0; /* said once is enough */
	fprintf(up->log, PREFIX "upload: no URL for %s in upload.put: skipped (kept in %s/)\n",
		name, up->dir);
	record(up, upload_record(name, NULL, "skipped", 0, 0, "no URL for it in upload.put"));
	return 0;
}

/* results.json cannot hold the outcome of its own upload; only a final
 * failure goes in, into the local copy (the caller saves it again). */
/* Where the file went: the URL without its query, and for a POST the key. */
static void where(const struct uploader *up, const struct job *j, char *buf, size_t len)
{
	upload_url_shown(j->url, buf, len);
	if (up->cfg->mode == UPLOAD_POST) {
		size_t n = strlen(buf);
		snprintf(buf + n, len - n, " as %s%s", up->cfg->key_prefix, j->name);
	}
}

static void report(struct uploader *up, const struct job *j, int rc, enum upload_when when,
		   double secs)
{
	char to[2400];
	bool self = !strcmp(j->name, RESULTS_FILE);
	where(up, j, to, sizeof(to));
	if (rc == 0 && j->attempts == 1)
		fprintf(up->log, PREFIX "uploaded %s (%llu bytes) to %s\n", j->name,
			(unsigned long long)j->len, to);
	else if (rc == 0)
		fprintf(up->log, PREFIX "uploaded %s (%llu bytes) to %s after %u attempts\n",
			j->name, (unsigned long long)j->len, to, j->attempts);
	else
		fprintf(up->log,
			PREFIX "upload %s to %s failed after %u attempt%s in %.1f s: %s; "
			       "kept in %s/\n",
			j->name, to, j->attempts, j->attempts == 1 ? "" : "s", secs, j->error,
			up->dir);
	if (!self || (rc && when == UPLOAD_FINAL))
		record(up, upload_record(j->name, j->url, rc ? "failed" : "uploaded", j->attempts,
					 j->http_status, rc ? j->error : NULL));
	if (!self)
		set_retry(up, j->name, rc && j->retryable);
	/* A dead endpoint (not a refusal) makes later uploads brief. */
	if (rc && j->retryable)
		up->degraded = true;
	else if (rc == 0)
		up->degraded = false;
}

int uploader_send(struct uploader *up, const char *name, enum upload_when when)
{
	const struct upload_config *c = up->cfg;
	if (!c || c->mode == UPLOAD_NONE)
		return 0;
	const char *url = c->mode == UPLOAD_POST ? c->post_url
						 : json_string_value(json_object_get(c->put, name));
	if (!url)
		return skip(up, name);
	struct job *j = calloc(1, sizeof(*j));
	if (!j) {
		fprintf(up->log, PREFIX "upload %s: out of memory\n", name);
		return -1;
	}
	*j = (struct job){ .name = name, .url = url, .fd = -1, .form_fd = -1 };
	uint64_t start = clock_now_ns();
	int rc = job_open(c, up->dir, j);
	if (rc == 0)
		rc = send_with_retries(up, j, when);
	report(up, j, rc, when, (double)(clock_now_ns() - start) / 1e9);
	if (j->fd >= 0)
		close(j->fd);
	if (j->form_fd >= 0)
		close(j->form_fd);
	free(j);
	return rc;
}

void uploader_init(struct uploader *up, const struct upload_config *cfg, const char *dir,
		   json_t *results, FILE *log)
{
	memset(up, 0, sizeof(*up));
	up->cfg = cfg;
	up->dir = dir;
	up->results = results;
	up->log = log;
	if (cfg->mode == UPLOAD_NONE)
		return;
	up->retry = json_array();
	json_object_set_new(results, UPLOADS_KEY, json_array());
}

void uploader_free(struct uploader *up)
{
	json_decref(up->retry);
	up->retry = NULL;
}

/* The closing line; self_ok: results.json's own last upload succeeded. */
static void tally(struct uploader *up, bool self_ok)
{
	json_t *list = json_object_get(up->results, UPLOADS_KEY), *e;
	size_t i;
	unsigned failed = 0;
	up->uploaded = self_ok ? 1 : 0;
	up->skipped = 0;
	json_array_foreach(list, i, e)
	{
		const char *s = json_string_value(json_object_get(e, "status"));
		failed += !strcmp(s, "failed");
		up->skipped += !strcmp(s, "skipped");
		up->uploaded += !strcmp(s, "uploaded");
	}
	up->failed = failed > 0;
	fprintf(up->log,
		PREFIX "upload: %u uploaded, %u failed, %u skipped; every file is also in %s/\n",
		up->uploaded, failed, up->skipped, up->dir);
}

int uploader_finish(struct uploader *up, const char *const *names, size_t count)
{
	char err[512];
	if (!up->cfg || up->cfg->mode == UPLOAD_NONE)
		return 0;
	/* The endpoint gets a full chance again at the end. */
	up->degraded = false;
	json_t *again = json_deep_copy(up->retry);
	json_t *e;
	size_t i;
	json_array_foreach(again, i, e)
	{
		uploader_send(up, json_string_value(e), UPLOAD_FINAL);
	}
	json_decref(again);
	for (i = 0; i < count; i++)
		uploader_send(up, names[i], UPLOAD_FINAL);
	/* Saved first: the copy in S3 is byte for byte the local one. */
	if (results_save(up->results, up->dir, err, sizeof(err)))
		fprintf(up->log, PREFIX "%s\n", err);
	int self = uploader_send(up, RESULTS_FILE, UPLOAD_FINAL);
	if (self && results_save(up->results, up->dir, err, sizeof(err)))
		fprintf(up->log, PREFIX "%s\n", err);
	tally(up, self == 0 && !has_record(up, RESULTS_FILE));
	return up->failed ? -1 : 0;
}
