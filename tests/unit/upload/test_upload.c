/* test_upload.c - the parts of an upload that need no server: when URLs
 * expire and whether a run may start, the POST form's layout, the retry
 * schedule, S3's XML errors, and that no credential reaches a record. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "lib/lib.h"
#include "upload/sigv4.h"
#include "net/net.h"
#include "upload/upload.h"
#include "upload/internal.h"
#include "upload/upload_body.h"
#include "upload/upload_config.h"
#include "upload/upload_request.h"

#define SIG "5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7"
#define CRED "AKIAIOSFODNN7EXAMPLE%2F20260902%2Fus-east-1%2Fs3%2Faws4_request"
#define TOKEN "FwoGZXIvYXdzEJr%2F%2F%2F%2Ftoken%3D%3D"

static const char put_url[] =
	"https://s3.us-east-1.amazonaws.com/b/runs/1/results.json"
	"?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=" CRED
	"&X-Amz-Date=20260902T000000Z&X-Amz-Expires=21600"
	"&X-Amz-Security-Token=" TOKEN "&X-Amz-SignedHeaders=host&X-Amz-Signature=" SIG;

static time_t at(const char *amz)
{
	time_t t = 0;
	sigv4_parse_amz_date(amz, &t);
	return t;
}

static void test_url_expiry(struct checks *checks)
{
	time_t t = 0;
	CHECK(upload_config_url_expiry(put_url, &t) == 1);
	CHECK_EQ_U64((uint64_t)t, (uint64_t)at("20260902T060000Z"));
	/* Names are matched as S3 does, whatever their case. */
	CHECK(upload_config_url_expiry("https://h/k?x-amz-expires=60&x-amz-date=20260902T000000Z",
				       &t) == 1);
	CHECK_EQ_U64((uint64_t)t, (uint64_t)at("20260902T000100Z"));
	CHECK(upload_config_url_expiry("https://h/k?Expires=1788300000&Signature=x", &t) == 1);
	CHECK_EQ_U64((uint64_t)t, 1788300000u);
	CHECK(upload_config_url_expiry("https://h/k", &t) == 0);
	CHECK(upload_config_url_expiry("https://h/k?a=1#X-Amz-Expires=5", &t) == 0);
	CHECK(upload_config_url_expiry("https://h/k?X-Amz-Date=20260902T000000Z", &t) == -1);
	CHECK(upload_config_url_expiry("https://h/k?X-Amz-Date=2026-09-02&X-Amz-Expires=1", &t) ==
	      -1);
	CHECK(upload_config_url_expiry("https://h/k?X-Amz-Date=20260902T000000Z&X-Amz-Expires=-5",
				       &t) == -1);
	CHECK(upload_config_url_expiry("https://h/k?X-Amz-Date=20260902T000000Z&X-Amz-Expires=9x",
				       &t) == -1);
}

static void test_policy_expiry(struct checks *checks)
{
	const char *docs[] = { "{\"expiration\": \"2026-09-02T06:00:00Z\", \"conditions\": []}",
			       "{\"expiration\": \"2026-09-02T06:00:00.000Z\"}" };
	time_t t = 0;
	for (size_t i = 0; i < 2; i++) {
		char *b64 = sigv4_base64(docs[i], strlen(docs[i]));
		CHECK(b64 && upload_config_policy_expiry(b64, &t) == 0);
		CHECK_EQ_U64((uint64_t)t, (uint64_t)at("20260902T060000Z"));
		free(b64);
	}
	char *bad = sigv4_base64("{\"expiration\": \"tomorrow\"}", 26);
	CHECK(upload_config_policy_expiry(bad, &t) == -1);
	CHECK(upload_config_policy_expiry("not base64!", &t) == -1);
	free(bad);
}

static int parse(struct upload_config *u, const char *text, char *err, size_t errlen)
{
	json_t *v = json_loads(text, 0, NULL);
	memset(u, 0, sizeof(*u));
	int rc = v ? upload_config_parse(u, v, err, errlen) : -1;
	json_decref(v);
	return rc;
}

static void test_refusal(struct checks *checks)
{
	struct upload_config u;
	char err[512], doc[2048];
	time_t now = at("20260902T000000Z");
	snprintf(doc, sizeof(doc), "{\"put\": {\"summary.md\": \"%s\"}, \"expires\": \"x\"}",
		 put_url);
	CHECK(parse(&u, doc, err, sizeof(err)) == 0);
	/* 6 h of validity: 4 h of plan fit with 10 % + 5 min to spare... */
	CHECK_EQ_U64((uint64_t)upload_config_deadline(now, 14400), (uint64_t)(now + 15840 + 300));
	CHECK(upload_config_check(&u, now, 14400, err, sizeof(err)) == 0);
	CHECK(upload_config_check(&u, now, (21600 - 300) / 1.1 - 1, err, sizeof(err)) == 0);
	/* ...5 h 30 min do not, and the one line says what and when. */
	CHECK(upload_config_check(&u, now, 19800, err, sizeof(err)) == -1);
	CHECK(strstr(err, "summary.md") && strstr(err, "2026-09-02T06:00:00Z") &&
	      strstr(err, "2026-09-02T06:08:00Z") && !strchr(err, '\n'));
	CHECK(!strstr(err, SIG) && !strstr(err, "AKIA"));
	/* Already expired: refused even with nothing to run. */
	CHECK(upload_config_check(&u, at("20260902T070000Z"), 0, err, sizeof(err)) == -1);
	upload_config_free(&u);
	/* A CA file that is not there is a config error, not a failed upload. */
	snprintf(doc, sizeof(doc), "{\"put\": {\"a\": \"%s\"}, \"ca_file\": \"/nonexistent.pem\"}",
		 put_url);
	CHECK(parse(&u, doc, err, sizeof(err)) == 0);
	CHECK(upload_config_check(&u, now, 0, err, sizeof(err)) == -1 &&
	      strstr(err, "/nonexistent.pem"));
	upload_config_free(&u);
}

static void test_refusal_post(struct checks *checks)
{
	const char *policy = "{\"expiration\": \"2026-09-02T01:00:00.000Z\", \"conditions\": []}";
	char *b64 = sigv4_base64(policy, strlen(policy)), err[512], doc[1024];
	struct upload_config u;
	time_t now = at("20260902T000000Z");
	snprintf(doc, sizeof(doc),
		 "{\"post\": {\"url\": \"https://h/b\", \"key_prefix\": \"p/\", "
		 "\"fields\": {\"policy\": \"%s\"}}}",
		 b64);
	CHECK(parse(&u, doc, err, sizeof(err)) == 0);
	CHECK(upload_config_check(&u, now, 600, err, sizeof(err)) == 0);
	CHECK(upload_config_check(&u, now, 3600, err, sizeof(err)) == -1);
	CHECK(strstr(err, "the upload.post policy expires at 2026-09-02T01:00:00Z"));
	upload_config_free(&u);
	free(b64);
}

static void test_config_errors(struct checks *checks)
{
	struct upload_config u;
	char err[512];
	static const char *const bad[] = {
		"{\"put\": {\"a.json\": \"http://h/b/a.json\"}}",
		"{\"put\": {}}",
		"{\"put\": {\"a/b\": \"https://h/x\"}}",
		"{\"put\": {\"a\": \"https://h/x\"}, \"post\": {}}",
		"{\"put\": {\"a\": \"https://h/x\"}, \"bogus\": 1}",
		"{\"put\": {\"a\": \"https://h/x\"}, \"max_retry_s\": 0}",
		"{\"post\": {\"url\": \"https://h/b\", \"fields\": {}}}",
		"{\"post\": {\"url\": \"https://h/b\", \"fields\": {\"file\": \"x\"}, "
		"\"key_prefix\": \"p/\"}}",
		"{\"ca_file\": \"/x\"}",
		"{\"put\": {\"a\": \"https://h/x\"}, \"resume_get\": \"http://h/b/results.json\"}",
		"{\"put\": {\"a\": \"https://h/x\"}, \"resume_get\": 1}",
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		CHECK(parse(&u, bad[i], err, sizeof(err)) == -1 && err[0]);
		upload_config_free(&u);
	}
	/* boto3's generate_presigned_post(Key="runs/7/${filename}"). */
	CHECK(parse(&u,
		    "{\"post\": {\"url\": \"https://h/b\", \"fields\": {\"key\": "
		    "\"runs/7/${filename}\", \"policy\": \"e30=\"}}, \"max_attempts\": 3}",
		    err, sizeof(err)) == 0);
	CHECK(u.mode == UPLOAD_POST && !strcmp(u.key_prefix, "runs/7/") && u.max_attempts == 3);
	CHECK(!u.resume_get);
	upload_config_free(&u);
	/* presign's GET of the run's own results.json, kept for run --resume=auto. */
	CHECK(parse(&u,
		    "{\"put\": {\"a\": \"https://h/x\"}, \"resume_get\": "
		    "\"https://h/b/runs/7/results.json?X-Amz-Signature=f00\"}",
		    err, sizeof(err)) == 0);
	CHECK(u.resume_get &&
	      !strcmp(u.resume_get, "https://h/b/runs/7/results.json?X-Amz-Signature=f00"));
	upload_config_free(&u);
	CHECK(!u.resume_get);
}

static int temp_file(const void *data, size_t len)
{
	FILE *f = tmpfile();
	int fd = f ? dup(fileno(f)) : -1;
	if (f) {
		fwrite(data, 1, len, f);
		fclose(f);
	}
	return fd;
}

static void test_multipart_layout(struct checks *checks)
{
	json_t *fields = json_loads("{\"x-amz-algorithm\": \"AWS4-HMAC-SHA256\", \"key\": \"old\", "
				    "\"policy\": \"cG9s\", \"x-amz-signature\": \"abc\"}",
				    0, NULL);
	int fd = temp_file("{\"a\": 1}\n", 9);
	char *body = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&body, &len);
	CHECK(upload_body_multipart_write(out, "BND", fields, "runs/7/r.json", "r.json", fd, 9) ==
	      0);
	fclose(out);
	/* Fields in the order given, key replaced in place, the file last. */
	const char *want =
		"--BND\r\nContent-Disposition: form-data; name=\"x-amz-algorithm\"\r\n"
		"\r\nAWS4-HMAC-SHA256\r\n"
		"--BND\r\nContent-Disposition: form-data; name=\"key\"\r\n\r\n"
		"runs/7/r.json\r\n"
		"--BND\r\nContent-Disposition: form-data; name=\"policy\"\r\n\r\ncG9s\r\n"
		"--BND\r\nContent-Disposition: form-data; name=\"x-amz-signature\"\r\n"
		"\r\nabc\r\n"
		"--BND\r\nContent-Disposition: form-data; name=\"file\"; "
		"filename=\"r.json\"\r\nContent-Type: application/octet-stream\r\n\r\n"
		"{\"a\": 1}\n\r\n--BND--\r\n";
	CHECK(body && len == strlen(want) && !memcmp(body, want, len));
	free(body);
	/* Without a key field, key comes after the fields, still before file. */
	json_object_del(fields, "key");
	out = open_memstream(&body, &len);
	CHECK(upload_body_multipart_write(out, "BND", fields, "k", "r.json", fd, 9) == 0);
	fclose(out);
	const char *key = body ? strstr(body, "name=\"key\"") : NULL;
	const char *sig = body ? strstr(body, "name=\"x-amz-signature\"") : NULL;
	const char *file = body ? strstr(body, "name=\"file\"") : NULL;
	CHECK(key && sig && file && sig < key && key < file);
	free(body);
	close(fd);
	json_decref(fields);
}

static void test_boundary_not_in_content(struct checks *checks)
{
	json_t *fields = json_pack("{ss}", "policy", "p");
	size_t n = 70000;
	char *data = malloc(n);
	memset(data, 'a', n);
	int clean = temp_file(data, n);
	/* The delimiter split across the 64 KiB reads. */
	memcpy(data + 65534, "--ebsbench-1", 12);
	int split = temp_file(data, n);
	CHECK(upload_body_boundary_free("ebsbench-1", clean, n, fields, "k"));
	CHECK(!upload_body_boundary_free("ebsbench-1", split, n, fields, "k"));
	CHECK(upload_body_boundary_free("ebsbench-2", split, n, fields, "k"));
	CHECK(!upload_body_boundary_free("ebsbench-2", clean, n, fields, "a--ebsbench-2"));
	json_object_set_new(fields, "x", json_string("--ebsbench-3"));
	CHECK(!upload_body_boundary_free("ebsbench-3", clean, n, fields, "k"));
	/* A file shorter than it claims cannot be promised anything. */
	json_object_del(fields, "x");
	CHECK(!upload_body_boundary_free("ebsbench-4", clean, n + 10, fields, "k"));
	close(clean);
	close(split);
	free(data);
	json_decref(fields);
}

static void test_backoff_bounded(struct checks *checks)
{
	unsigned total_max = 0;
	for (unsigned a = 1; a <= 40; a++) {
		unsigned lo = upload_backoff_ms(a, 0), hi = upload_backoff_ms(a, UINT32_MAX - 1);
		unsigned d = a >= 7 ? 20000 : 500u << (a - 1);
		if (d > 20000)
			d = 20000;
		CHECK(lo == d / 2 && hi <= d && hi >= lo);
		if (a <= UPLOAD_MAX_ATTEMPTS_DEFAULT - 1)
			total_max += upload_backoff_ms(a, (uint32_t)d / 2);
	}
	CHECK_EQ_U64(upload_backoff_ms(1, 0), 250);
	CHECK_EQ_U64(upload_backoff_ms(3, 1000), 1000 + 1000 % 1001);
	/* Five attempts wait at most 0.5 + 1 + 2 + 4 s between them. */
	CHECK(total_max <= 7500);
}

static void test_s3_error_xml(struct checks *checks)
{
	const char *xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error>"
			  "<Code>SignatureDoesNotMatch</Code><Message>The request signature we "
			  "calculated does not match &amp; so on\n</Message>"
			  "<AWSAccessKeyId>AKIAIOSFODNN7EXAMPLE</AWSAccessKeyId>"
			  "<SignatureProvided>" SIG "</SignatureProvided></Error>";
	char code[64], msg[200];
	CHECK(upload_body_s3_error(xml, code, sizeof(code), msg, sizeof(msg)) == 0);
	CHECK(!strcmp(code, "SignatureDoesNotMatch"));
	CHECK(!strcmp(msg, "The request signature we calculated does not match & so on "));
	CHECK(upload_body_s3_error("<Error><Code>SlowDown</Code></Error>", code, sizeof(code), msg,
				   sizeof(msg)) == 0);
	CHECK(!strcmp(code, "SlowDown") && !msg[0]);
	CHECK(upload_body_s3_error("<html>502 Bad Gateway</html>", code, sizeof(code), msg,
				   sizeof(msg)) == -1);
	CHECK(upload_body_s3_error(NULL, code, sizeof(code), msg, sizeof(msg)) == -1);
	CHECK(upload_body_s3_error("<Error><Code>Trunc", code, sizeof(code), msg, sizeof(msg)) ==
	      -1);
}

static void test_records_redacted(struct checks *checks)
{
	json_t *r =
		upload_record("results.json", put_url, "failed", 3, 403, "HTTP 403 AccessDenied");
	char *text = json_dumps(r, JSON_SORT_KEYS);
	CHECK(text && !strstr(text, SIG) && !strstr(text, "AKIA") && !strstr(text, "FwoG"));
	CHECK(!strcmp(json_string_value(json_object_get(r, "url")),
		      "https://s3.us-east-1.amazonaws.com/b/runs/1/results.json"));
	CHECK(json_integer_value(json_object_get(r, "attempts")) == 3);
	CHECK(json_integer_value(json_object_get(r, "http_status")) == 403);
	free(text);
	json_decref(r);
	r = upload_record("x.log", NULL, "skipped", 0, 0, NULL);
	CHECK(json_is_null(json_object_get(r, "url")) && json_is_null(json_object_get(r, "error")));
	json_decref(r);
}

/* Every name on net's one list of secret parameters is blanked on both
 * paths: url_redact (logs, records) and upload_scrub (what S3 echoes back),
 * from a URL's query and from a POST form's fields.  A name added to the
 * list is checked here by that alone. */
static void test_one_secret_list(struct checks *checks)
{
	static const char *const known[] = { "X-Amz-Signature", "X-Amz-Credential",
					     "X-Amz-Security-Token", "Signature",
					     "AWSAccessKeyId" };
	const char *policy = "{\"expiration\": \"2026-09-02T01:00:00.000Z\", \"conditions\": []}";
	char *b64 = sigv4_base64(policy, strlen(policy));
	CHECK(url_secret_param_count >= ARRAY_SIZE(known));
	for (size_t i = 0; i < ARRAY_SIZE(known); i++)
		CHECK(url_param_secret(known[i], strlen(known[i])));
	for (size_t i = 0; i < url_secret_param_count; i++) {
		const char *name = url_secret_params[i];
		char url[256], shown[256], doc[1024], err[512], text[512];
		struct upload_config u;
		snprintf(url, sizeof(url), "https://h/b/k?X-Amz-Date=1&%s=QueryValue%zu&z=1", name,
			 i);
		url_redact(url, shown, sizeof(shown));
		if (!CHECK(!strstr(shown, "QueryValue") && strstr(shown, "=REDACTED&z=1")))
			fprintf(stderr, "  %s: %s\n", name, shown);
		snprintf(doc, sizeof(doc),
			 "{\"post\": {\"url\": \"https://h/b\", \"key_prefix\": \"p/\", "
			 "\"fields\": {\"policy\": \"%s\", \"%s\": \"FormValue%zu\"}}}",
			 b64, name, i);
		if (!CHECK(parse(&u, doc, err, sizeof(err)) == 0)) {
			fprintf(stderr, "  %s: %s\n", name, err);
			continue;
		}
		snprintf(text, sizeof(text),
			 "HTTP 403 SignatureDoesNotMatch: QueryValue%zu, FormValue%zu", i, i);
		upload_scrub(text, &u, url);
		if (!CHECK(!strstr(text, "QueryValue") && !strstr(text, "FormValue")))
			fprintf(stderr, "  %s: %s\n", name, text);
		upload_config_free(&u);
	}
	free(b64);
}

static void test_content_md5(struct checks *checks)
{
	const char *fox = "The quick brown fox jumps over the lazy dog";
	char md5[UPLOAD_MD5_B64_LEN + 1];
	int fd = temp_file(fox, strlen(fox));
	CHECK(upload_body_content_md5(fd, strlen(fox), md5) == 0 &&
	      !strcmp(md5, "nhB9nTcrtoJr2B01QqQZ1g=="));
	CHECK(upload_body_content_md5(fd, 0, md5) == 0 && !strcmp(md5, "1B2M2Y8AsgTpgAmY7PhCfg=="));
	CHECK(upload_body_content_md5(fd, strlen(fox) + 1, md5) == -1);
	close(fd);
}

/* Against a closed loopback port: bounded retries, and the record and log
 * hold no credential.  The budget is 3 s: the first backoff (250-500 ms)
 * plus the one second a retry must have left always fits, so a second
 * attempt is certain (with 1.5 s a 500 ms draw ruled it out). */
static void test_failed_upload_recorded(struct checks *checks)
{
	struct upload_config u;
	struct uploader up;
	char err[512], doc[2048], dir[64], path[96];
	char *log = NULL;
	size_t loglen = 0;
	snprintf(doc, sizeof(doc),
		 "{\"put\": {\"a.log\": \"https://127.0.0.1:1/b/a.log?%s\"}, "
		 "\"max_retry_s\": 3}",
		 strchr(put_url, '?') + 1);
	CHECK(parse(&u, doc, err, sizeof(err)) == 0);
	if (!CHECK(check_temp_dir(dir, sizeof(dir), "upload")))
		return;
	CHECK(check_write_file(dir, "a.log", "1, 2, 0, 0, 0\n", path, sizeof(path)));
	json_t *results = json_object();
	FILE *out = open_memstream(&log, &loglen);
	upload_init(&up, &u, dir, results, out);
	CHECK(upload_send(&up, "a.log", UPLOAD_MIDRUN) == -1);
	CHECK(upload_send(&up, "b.log", UPLOAD_MIDRUN) == 0); /* no URL: skipped */
	fclose(out);
	json_t *list = json_object_get(results, "uploads");
	json_t *a = json_array_get(list, 0), *b = json_array_get(list, 1);
	CHECK(json_array_size(list) == 2);
	CHECK(!strcmp(json_string_value(json_object_get(a, "status")), "failed"));
	json_int_t tries = json_integer_value(json_object_get(a, "attempts"));
	CHECK(tries >= 2 && tries <= UPLOAD_MAX_ATTEMPTS_DEFAULT);
	CHECK(!strcmp(json_string_value(json_object_get(b, "status")), "skipped"));
	char *text = json_dumps(results, 0);
	CHECK(text && !strstr(text, SIG) && !strstr(text, "AKIA") && !strstr(text, "FwoG"));
	CHECK(log && strstr(log, "retrying") && strstr(log, "b.log") && !strstr(log, SIG) &&
	      !strstr(log, "AKIA"));
	free(text);
	free(log);
	upload_free(&up);
	json_decref(results);
	upload_config_free(&u);
	check_remove_tree(dir);
}

CHECK_MAIN(test_url_expiry, test_policy_expiry, test_refusal, test_refusal_post, test_config_errors,
	   test_one_secret_list, test_multipart_layout, test_boundary_not_in_content,
	   test_backoff_bounded, test_s3_error_xml, test_records_redacted, test_content_md5,
	   test_failed_upload_recorded)
