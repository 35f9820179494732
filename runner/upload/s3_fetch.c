/* s3_fetch.c - a prefix's objects from S3 into a directory: signed
 * ListObjectsV2 pages, a signed GET per object, each file written whole
 * (a temporary beside it, then renamed) and never over one that differs
 * unless asked. */
#include "upload/s3_fetch.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/lib.h"
#include "net/net.h"
#include "upload/upload.h"
#include "upload/internal.h"
#include "upload/upload_body.h"
#include "upload/upload_request.h"

#define LIST_BODY_MAX (16u << 20) /* 1,000 keys of 1 KiB each, and more */
#define URL_EXPIRES_S 300
#define TOKEN_MAX 4096

/* What the page callback needs, and the first error it met. */
struct fetch_pass {
	struct s3_fetch *f;
	char *err;
	size_t errlen;
	unsigned listed;
};

bool s3_fetch_safe_name(const char *name)
{
	if (!*name || *name == '/')
		return false;
	for (const char *seg = name;;) {
		size_t n = strcspn(seg, "/");
		if (!n || (n == 1 && seg[0] == '.') || (n == 2 && !strncmp(seg, "..", 2)))
			return false;
		if (!seg[n])
			return true;
		seg += n + 1;
	}
}

int s3_fetch_parse_list(const char *xml, int (*each)(const char *key, uint64_t size, void *ctx),
			void *ctx, char *token, size_t tokencap)
{
	char key[1100], size[32], truncated[8];
	token[0] = '\0';
	if (!strstr(xml, "<ListBucketResult"))
		return -1;
	for (const char *c = strstr(xml, "<Contents>"); c; c = strstr(c, "<Contents>")) {
		const char *end = strstr(c, "</Contents>");
		if (!end)
			return -1;
		char *block = strndup(c, (size_t)(end - c));
		int bad = !block || upload_body_xml_text(block, "Key", key, sizeof(key)) ||
			  upload_body_xml_text(block, "Size", size, sizeof(size)) ||
			  strspn(size, "0123456789") != strlen(size) || !size[0];
		free(block);
		if (bad || strlen(key) + 1 >= sizeof(key))
			return -1;
		int rc = each(key, strtoull(size, NULL, 10), ctx);
		if (rc)
			return rc;
		c = end;
	}
	if (!upload_body_xml_text(xml, "IsTruncated", truncated, sizeof(truncated)) &&
	    !strcmp(truncated, "true") &&
	    (upload_body_xml_text(xml, "NextContinuationToken", token, tokencap) || !token[0]))
		return -1;
	return 0;
}

/* A presigned GET of /bucket[/key] with params, and its reply. */
static int get(const struct s3_fetch *f, const char *key, const struct sigv4_param *params,
	       size_t nparams, size_t body_max, struct http_response *resp, char *err,
	       size_t errlen)
{
	char path[1200];
	snprintf(path, sizeof(path), "/%s%s%s", f->bucket, key ? "/" : "", key ? key : "");
	struct sigv4_scope scope = { f->region, "s3", time(NULL) };
	struct sigv4_url_request r = { .method = "GET",
				       .scheme = f->scheme,
				       .host = f->host,
				       .path = path,
				       .expires_s = URL_EXPIRES_S,
				       .params = params,
				       .param_count = nparams };
	char *url = sigv4_presign_url(f->cred, &scope, &r, err, errlen);
	memset(resp, 0, sizeof(*resp));
	if (!url)
		return -1;
	struct http_request req = {
		.method = HTTP_GET, .url = url, .ca_file = f->ca_file, .body_max = body_max
	};
	char why[400];
	int rc = http_request(&req, resp, why, sizeof(why));
	free(url);
	if (rc)
		return error_set(err, errlen, "%s%s", why,
				 resp->kind == HTTP_FAIL_TLS_VERIFY
					 ? " (is --ca-file the server's CA?)"
					 : "");
	return 0;
}

/* "HTTP 403 SignatureDoesNotMatch: <message>" of a refusal. */
static int refused(const struct http_response *resp, const char *what, char *err, size_t errlen)
{
	char code[64], msg[256];
	if (!resp->body || upload_body_s3_error(resp->body, code, sizeof(code), msg, sizeof(msg))) {
		snprintf(code, sizeof(code), "%s", resp->reason);
		msg[0] = '\0';
	}
	return error_set(err, errlen, "S3 refused %s: HTTP %d %s%s%s", what, resp->status, code,
			 msg[0] ? ": " : "", msg);
}

/* Makes every directory above path's last component (mkdir -p). */
static int make_parents(const char *path, char *err, size_t errlen)
{
	char p[4096];
	snprintf(p, sizeof(p), "%s", path);
	for (char *s = p + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		if (mkdir(p, 0755) && errno != EEXIST)
			return error_set(err, errlen, "cannot make %s: %s", p, strerror(errno));
		*s = '/';
	}
	return 0;
}

/* 1 when path holds exactly len bytes equal to data, 0 when it differs,
 * -1 when there is no such file. */
static int same_file(const char *path, const char *data, size_t len)
{
	FILE *in = fopen(path, "rb");
	if (!in)
		return -1;
	char buf[65536];
	size_t at = 0, n;
	int same = 1;
	while (same && (n = fread(buf, 1, sizeof(buf), in)) > 0) {
		same = at + n <= len && !memcmp(buf, data + at, n);
		at += n;
	}
	same = same && !ferror(in) && at == len;
	fclose(in);
	return same;
}

/* data into path through a temporary file beside it, renamed over. */
static int write_whole(const char *path, const char *data, size_t len, char *err, size_t errlen)
{
	char tmp[4200];
	snprintf(tmp, sizeof(tmp), "%s.fetch-XXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0)
		return error_set(err, errlen, "cannot write %s: %s", path, strerror(errno));
	size_t at = 0;
	while (at < len) {
		ssize_t n = write(fd, data + at, len - at);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		at += (size_t)n;
	}
	int rc = at == len && !fchmod(fd, 0644) ? 0 : -1;
	if (close(fd) || rc || rename(tmp, path)) {
		int e = errno;
		unlink(tmp);
		return error_set(err, errlen, "cannot write %s: %s", path, strerror(e));
	}
	return 0;
}

static int store(struct s3_fetch *f, const char *name, const char *data, size_t len, char *err,
		 size_t errlen)
{
	char path[4096];
	if (snprintf(path, sizeof(path), "%s/%s", f->dir, name) >= (int)sizeof(path))
		return error_set(err, errlen, "%s/%s: the path is too long", f->dir, name);
	if (make_parents(path, err, errlen))
		return -1;
	int same = same_file(path, data, len);
	if (same == 1) {
		f->unchanged++;
		fprintf(f->progress, "ebsbench fetch: %s: already here, the same\n", name);
		return 0;
	}
	if (same == 0 && !f->force)
		return error_set(err, errlen,
				 "%s exists and differs from s3://%s/%s%s: not replaced (--force "
				 "replaces it)",
				 path, f->bucket, f->prefix, name);
	if (write_whole(path, data, len, err, errlen))
		return -1;
	f->objects++;
	f->bytes += len;
	fprintf(f->progress, "ebsbench fetch: %s (%zu bytes)%s\n", name, len,
		same == 0 ? ", replaced" : "");
	return 0;
}

/* The page callback: one object down and into the directory. */
static int fetch_one(const char *key, uint64_t size, void *ctx)
{
	struct fetch_pass *p = ctx;
	struct s3_fetch *f = p->f;
	struct http_response resp;
	const char *name = key + strlen(f->prefix);
	char what[1200];

	p->listed++;
	if (strncmp(key, f->prefix, strlen(f->prefix)) || (*name && name[strlen(name) - 1] == '/'))
		return 0; /* not under the prefix, or a "folder" marker */
	if (!s3_fetch_safe_name(name))
		return error_set(p->err, p->errlen, "s3://%s/%s: the key would leave %s: refused",
				 f->bucket, key, f->dir);
	if (size > S3_FETCH_OBJECT_MAX)
		return error_set(p->err, p->errlen, "s3://%s/%s is %" PRIu64 " bytes: too large",
				 f->bucket, key, size);
	if (get(f, key, NULL, 0, (size_t)size + 1, &resp, p->err, p->errlen)) {
		http_response_free(&resp);
		return -1;
	}
	snprintf(what, sizeof(what), "the GET of s3://%s/%s", f->bucket, key);
	int rc;
	if (resp.status != 200)
		rc = refused(&resp, what, p->err, p->errlen);
	else if (resp.body_len != size || resp.body_truncated)
		rc = error_set(p->err, p->errlen,
			       "s3://%s/%s: %zu bytes came, the listing said %" PRIu64, f->bucket,
			       key, resp.body_len, size);
	else
		rc = store(f, name, resp.body, resp.body_len, p->err, p->errlen);
	http_response_free(&resp);
	return rc;
}

/* Every page of the prefix's listing, each(key, size, ctx) per object; the
 * callback's error is in err.  0, or -1. */
static int list_prefix(struct s3_fetch *f, int (*each)(const char *key, uint64_t size, void *ctx),
		       void *ctx, char *err, size_t errlen)
{
	char token[TOKEN_MAX] = "", what[1200];
	snprintf(what, sizeof(what), "the listing of s3://%s/%s", f->bucket, f->prefix);
	do {
		struct sigv4_param params[4];
		char page[16];
		size_t n = 0;
		struct http_response resp;
		if (token[0])
			params[n++] = (struct sigv4_param){ "continuation-token", token };
		params[n++] = (struct sigv4_param){ "list-type", "2" };
		snprintf(page, sizeof(page), "%u", f->page_keys);
		if (f->page_keys)
			params[n++] = (struct sigv4_param){ "max-keys", page };
		params[n++] = (struct sigv4_param){ "prefix", f->prefix };
		int rc = get(f, NULL, params, n, LIST_BODY_MAX, &resp, err, errlen);
		char next[TOKEN_MAX];
		if (!rc && resp.status != 200)
			rc = refused(&resp, what, err, errlen);
		else if (!rc && resp.body_truncated)
			rc = error_set(err, errlen, "%s: the reply is over %u bytes", what,
				       LIST_BODY_MAX);
		else if (!rc && s3_fetch_parse_list(resp.body, each, ctx, next, sizeof(next)))
			rc = err[0] ? -1
				    : error_set(err, errlen, "%s: the reply is not a listing",
						what);
		http_response_free(&resp);
		if (rc)
			return -1;
		snprintf(token, sizeof(token), "%s", next);
	} while (token[0]);
	return 0;
}

int s3_fetch_run(struct s3_fetch *f, char *err, size_t errlen)
{
	struct fetch_pass pass = { f, err, errlen, 0 };
	err[0] = '\0';
	f->objects = f->unchanged = 0;
	f->bytes = 0;
	if (list_prefix(f, fetch_one, &pass, err, errlen))
		return -1;
	return (f->objects + f->unchanged) ? 0 : 1;
}

/* What a look at the prefix found. */
struct end_pass {
	const struct s3_fetch *f;
	const char *done_name, *record_name;
	unsigned listed;
	bool done_listed, record_listed;
};

static int note_key(const char *key, uint64_t size, void *ctx)
{
	struct end_pass *p = ctx;
	(void)size;
	const char *name = key + strlen(p->f->prefix);
	p->listed++;
	if (strncmp(key, p->f->prefix, strlen(p->f->prefix)))
		return 0;
	p->done_listed = p->done_listed || !strcmp(name, p->done_name);
	p->record_listed = p->record_listed || !strcmp(name, p->record_name);
	return 0;
}

int s3_fetch_run_ended(struct s3_fetch *f, const char *done_name, const char *record_name,
		       unsigned *listed, char *err, size_t errlen)
{
	struct end_pass pass = { f, done_name, record_name, 0, false, false };
	err[0] = '\0';
	*listed = 0;
	if (list_prefix(f, note_key, &pass, err, errlen))
		return -1;
	*listed = pass.listed;
	/* Both listed, so that an ended run's count holds its record: one
	 * uploaded after the listing is read at the next look. */
	if (!pass.done_listed || !pass.record_listed)
		return 0;
	char key[1200], what[1300];
	struct http_response resp;
	snprintf(key, sizeof(key), "%s%s", f->prefix, record_name);
	snprintf(what, sizeof(what), "the GET of s3://%s/%s", f->bucket, key);
	int rc = get(f, key, NULL, 0, S3_FETCH_OBJECT_MAX, &resp, err, errlen);
	if (!rc && resp.status == 200) {
		json_t *record = json_loadb(resp.body, resp.body_len, 0, NULL);
		rc = upload_recorded_ok(record, done_name);
		json_decref(record);
	} else if (!rc)
		rc = resp.status == 404 ? 0 : refused(&resp, what, err, errlen);
	http_response_free(&resp);
	return rc;
}

/* The probe's page callback: any key under the prefix stops the page. */
static int any_key(const char *key, uint64_t size, void *ctx)
{
	(void)key;
	(void)size;
	*(bool *)ctx = true;
	return 0;
}

int s3_fetch_probe(struct s3_fetch *f, char *err, size_t errlen)
{
	char what[1200], token[TOKEN_MAX];
	struct sigv4_param params[] = { { "list-type", "2" },
					{ "max-keys", "1" },
					{ "prefix", f->prefix } };
	struct http_response resp;
	bool found = false;
	err[0] = '\0';
	snprintf(what, sizeof(what), "the listing of s3://%s/%s", f->bucket, f->prefix);
	int rc = get(f, NULL, params, ARRAY_SIZE(params), LIST_BODY_MAX, &resp, err, errlen);
	if (!rc && resp.status != 200)
		rc = refused(&resp, what, err, errlen);
	else if (!rc && s3_fetch_parse_list(resp.body, any_key, &found, token, sizeof(token)))
		rc = error_set(err, errlen, "%s: the reply is not a listing", what);
	http_response_free(&resp);
	return rc ? -1 : found;
}

void s3_fetch_default_dir(const char *bucket, const char *prefix, char *out, size_t cap)
{
	size_t n = strlen(prefix);
	if (!n) {
		snprintf(out, cap, "%s", bucket);
		return;
	}
	const char *last = prefix + n - 1;
	while (last > prefix && last[-1] != '/')
		last--;
	snprintf(out, cap, "%.*s", (int)(prefix + n - 1 - last), last);
}

void s3_fetch_report_path(const char *dir, char *path, size_t cap)
{
	static const char *const names[] = { "report.html", "summary.md" };
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(path, cap, "%s/%s", dir, names[i]);
		if (!access(path, R_OK))
			return;
	}
	snprintf(path, cap, "%s", dir);
}
