/* upload.c - a run's files to S3, one at a time, each with bounded
 * retries, each outcome on stderr and in results.json's "uploads". */
#include "upload/upload.h"
#include "upload/internal.h"
#include "upload/upload_body.h"
#include "upload/upload_request.h"

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

#define UPLOADS_KEY RESULTS_KEY_UPLOADS
#define PREFIX "ebsbench run: "

/* One file on its way: the request and what became of it. */
struct upload_file {
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
static int build_form(const struct upload_config *c, struct upload_file *f)
{
	char key[UPLOAD_KEY_MAX + 128], boundary[64];
	snprintf(key, sizeof(key), "%s%s", c->key_prefix, f->name);
	int tries = 0;
	do {
		snprintf(boundary, sizeof(boundary), "ebsbench-%08x%08x%08x", random32(),
			 random32(), random32());
	} while (!upload_body_boundary_free(boundary, f->fd, f->len, c->post_fields, key) &&
		 ++tries < 8);
	int fd = tries < 8 ? memfd_create("ebsbench-form", MFD_CLOEXEC) : -1;
	int dupfd = fd >= 0 ? dup(fd) : -1;
	FILE *out = dupfd >= 0 ? fdopen(dupfd, "w") : NULL;
	if (!out && dupfd >= 0)
		close(dupfd);
	int rc = out ? upload_body_multipart_write(out, boundary, c->post_fields, key, f->name,
						   f->fd, f->len)
		     : -1;
	if ((out && fclose(out)) || rc) {
		if (fd >= 0)
			close(fd);
		snprintf(f->error, sizeof(f->error), "building the POST form: %s",
			 tries == 8 ? "no boundary found" : strerror(errno));
		return -1;
	}
	f->form_fd = fd;
	f->body_len = (uint64_t)lseek(fd, 0, SEEK_END);
	snprintf(f->type, sizeof(f->type), "multipart/form-data; boundary=%s", boundary);
	f->headers[0] = (struct http_header){ "Content-Type", f->type };
	f->header_count = 1;
	return 0;
}

/* Opens f's file and readies its request: headers (PUT, the body sent as
 * type) or the whole form (POST). */
static int upload_file_open(const struct upload_config *c, const char *dir, struct upload_file *f,
			    const char *type)
{
	char path[4200];
	struct stat st;
	snprintf(path, sizeof(path), "%s/%s", dir, f->name);
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0 || fstat(f->fd, &st)) {
		snprintf(f->error, sizeof(f->error), "cannot read %s: %s", f->name,
			 strerror(errno));
		return -1;
	}
	f->len = f->body_len = (uint64_t)st.st_size;
	if (c->mode == UPLOAD_POST)
		return build_form(c, f);
	/* S3 checks the body against Content-MD5 even when the URL's
	 * signature does not cover the header. */
	if (upload_body_content_md5(f->fd, f->len, f->md5)) {
		snprintf(f->error, sizeof(f->error), "cannot read %s to checksum it", f->name);
		return -1;
	}
	f->headers[0] = (struct http_header){ "Content-MD5", f->md5 };
	f->headers[1] = (struct http_header){ "Content-Type", type };
	f->header_count = 2;
	return 0;
}

static void describe(struct upload_file *f, const struct http_response *resp, const char *err)
{
	char code[64], msg[400];
	if (resp->kind == HTTP_OK &&
	    !upload_body_s3_error(resp->body, code, sizeof(code), msg, sizeof(msg)))
		snprintf(f->error, sizeof(f->error), "HTTP %d %s%s%s", resp->status, code,
			 msg[0] ? ": " : "", msg);
	else if (resp->kind == HTTP_OK)
		snprintf(f->error, sizeof(f->error), "HTTP %d %s", resp->status, resp->reason);
	else if (resp->kind == HTTP_FAIL_TLS_VERIFY)
		snprintf(f->error, sizeof(f->error),
			 "TLS certificate verification failed (is upload.ca_file the server's "
			 "CA?): %s",
			 err);
	else
		snprintf(f->error, sizeof(f->error), "%s", err);
}

static int try_once(const struct upload_config *c, struct upload_file *f, uint64_t left_ms)
{
	uint64_t wait_ms = (uint64_t)(c->timeout_s * 1000);
	int io = (int)(wait_ms < left_ms ? wait_ms : left_ms);
	struct http_request req = {
		.method = c->mode == UPLOAD_POST ? HTTP_POST : HTTP_PUT,
		.url = f->url,
		.headers = f->headers,
		.header_count = f->header_count,
		.body_fd = f->form_fd >= 0 ? f->form_fd : f->fd,
		.body_len = f->body_len,
		.connect_timeout_ms = io,
		.io_timeout_ms = io,
		.total_timeout_ms = (int)left_ms,
		.ca_file = c->ca_file[0] ? c->ca_file : NULL,
	};
	struct http_response resp;
	char err[400];
	int rc = http_request(&req, &resp, err, sizeof(err));
	f->http_status = resp.status;
	if (rc == 0 && resp.status >= 200 && resp.status < 300) {
		http_response_free(&resp);
		return 0;
	}
	f->retryable = http_should_retry(&resp);
	describe(f, &resp, err);
	http_response_free(&resp);
	upload_scrub(f->error, c, f->url);
	return -1;
}

/* Attempts until success, an error that will not pass (4xx, TLS), the
 * attempt limit or the time budget. */
static int send_with_retries(struct uploader *up, struct upload_file *f, enum upload_when when)
{
	const struct upload_config *c = up->cfg;
	uint64_t start = clock_now_ns(), budget_ms = (uint64_t)(c->max_retry_s * 1000);
	/* results.json, the record of everything, gets every retry at the end. */
	bool all = when == UPLOAD_FINAL && !strcmp(f->name, RESULTS_FILE);
	unsigned max = up->degraded && !all ? 1 : c->max_attempts;
	for (f->attempts = 1;; f->attempts++) {
		uint64_t used = (clock_now_ns() - start) / 1000000;
		if (try_once(c, f, used < budget_ms ? budget_ms - used : 1) == 0)
			return 0;
		if (!f->retryable || f->attempts >= max)
			return -1;
		unsigned wait = upload_backoff_ms(f->attempts, random32());
		used = (clock_now_ns() - start) / 1000000;
		/* No retry that could not get a second of the budget. */
		if (used + wait + 1000 >= budget_ms)
			return -1;
		fprintf(up->log,
			PREFIX "upload %s: attempt %u of %u failed (%s); retrying in %.1f s\n",
			f->name, f->attempts, max, f->error, wait / 1000.0);
		sleep_ms(wait);
	}
}

/* The index of name's entry in results' "uploads", or -1. */
static long find_record(const json_t *results, const char *name)
{
	json_t *e;
	size_t i;
	json_array_foreach(json_object_get(results, UPLOADS_KEY), i, e)
	{
		const char *artifact = json_string_value(json_object_get(e, "artifact"));
		if (artifact && !strcmp(artifact, name))
			return (long)i;
	}
	return -1;
}

/* Replaces the artifact's entry in "uploads", or appends one. */
static void record(struct uploader *up, json_t *entry)
{
	json_t *list = json_object_get(up->results, UPLOADS_KEY);
	long i = find_record(up->results, json_string_value(json_object_get(entry, "artifact")));
	if (i >= 0)
		json_array_set_new(list, (size_t)i, entry);
	else
		json_array_append_new(list, entry);
}

static bool has_record(const struct uploader *up, const char *name)
{
	return find_record(up->results, name) >= 0;
}

bool upload_recorded_ok(const json_t *results, const char *artifact)
{
	long i = find_record(results, artifact);
	json_t *e = i < 0 ? NULL : json_array_get(json_object_get(results, UPLOADS_KEY), (size_t)i);
	const char *status = json_string_value(json_object_get(e, "status"));
	return status && !strcmp(status, "uploaded");
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
static void where(const struct uploader *up, const struct upload_file *f, char *buf, size_t len)
{
	upload_url_shown(f->url, buf, len);
	if (up->cfg->mode == UPLOAD_POST) {
		size_t n = strlen(buf);
		snprintf(buf + n, len - n, " as %s%s", up->cfg->key_prefix, f->name);
	}
}

static void report(struct uploader *up, const struct upload_file *f, int rc, enum upload_when when,
		   double secs)
{
	char to[2400];
	bool self = !strcmp(f->name, RESULTS_FILE);
	where(up, f, to, sizeof(to));
	if (rc == 0 && f->attempts == 1)
		fprintf(up->log, PREFIX "uploaded %s (%llu bytes) to %s\n", f->name,
			(unsigned long long)f->len, to);
	else if (rc == 0)
		fprintf(up->log, PREFIX "uploaded %s (%llu bytes) to %s after %u attempts\n",
			f->name, (unsigned long long)f->len, to, f->attempts);
	else
		fprintf(up->log,
			PREFIX "upload %s to %s failed after %u attempt%s in %.1f s: %s; "
			       "kept in %s/\n",
			f->name, to, f->attempts, f->attempts == 1 ? "" : "s", secs, f->error,
			up->dir);
	if (!self || (rc && when == UPLOAD_FINAL))
		record(up, upload_record(f->name, f->url, rc ? "failed" : "uploaded", f->attempts,
					 f->http_status, rc ? f->error : NULL));
	if (!self)
		set_retry(up, f->name, rc && f->retryable);
	/* A dead endpoint (not a refusal) makes later uploads brief. */
	if (rc && f->retryable)
		up->degraded = true;
	else if (rc == 0)
		up->degraded = false;
}

int upload_send(struct uploader *up, const char *name, enum upload_when when)
{
	const struct upload_config *c = up->cfg;
	if (!c || c->mode == UPLOAD_NONE)
		return 0;
	const char *url = c->mode == UPLOAD_POST ? c->post_url
						 : json_string_value(json_object_get(c->put, name));
	if (!url)
		return skip(up, name);
	struct upload_file *f = calloc(1, sizeof(*f));
	if (!f) {
		fprintf(up->log, PREFIX "upload %s: out of memory\n", name);
		return -1;
	}
	*f = (struct upload_file){ .name = name, .url = url, .fd = -1, .form_fd = -1 };
	uint64_t start = clock_now_ns();
	int rc = upload_file_open(c, up->dir, f,
				  up->content_type ? up->content_type(f->name)
						   : "application/octet-stream");
	if (rc == 0)
		rc = send_with_retries(up, f, when);
	report(up, f, rc, when, (double)(clock_now_ns() - start) / 1e9);
	if (f->fd >= 0)
		close(f->fd);
	if (f->form_fd >= 0)
		close(f->form_fd);
	free(f);
	return rc;
}

void upload_init(struct uploader *up, const struct upload_config *cfg, const char *dir,
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

void upload_free(struct uploader *up)
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

int upload_finish(struct uploader *up, const char *const *names, size_t count)
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
		upload_send(up, json_string_value(e), UPLOAD_FINAL);
	}
	json_decref(again);
	for (i = 0; i < count; i++)
		upload_send(up, names[i], UPLOAD_FINAL);
	/* Saved first: the copy in S3 is byte for byte the local one. */
	if (results_save(up->results, up->dir, err, sizeof(err)))
		fprintf(up->log, PREFIX "%s\n", err);
	int self = upload_send(up, RESULTS_FILE, UPLOAD_FINAL);
	if (self && results_save(up->results, up->dir, err, sizeof(err)))
		fprintf(up->log, PREFIX "%s\n", err);
	tally(up, self == 0 && !has_record(up, RESULTS_FILE));
	return up->failed ? -1 : 0;
}
