/* test_sigv4.c - SigV4 against AWS's published examples, and the presign
 * layer: expiry syntax, endpoints, keys and the names a plan uploads.
 *
 * The two AWS vectors are from the S3 API reference: "Authenticating
 * Requests: Using Query Parameters (AWS Signature Version 4)" (GET of
 * examplebucket/test.txt) and "Example: Browser-Based Upload using HTTP POST
 * (Using AWS Signature Version 4)" (the sigv4examplebucket policy, whose
 * text has CRLF line ends: the base64 below is AWS's, byte for byte).  The
 * other fixed signatures were derived with a separate Python
 * implementation and match boto3 (tests/bats/presign.bats repeats that). */
#include <stdlib.h>
#include <string.h>

#include <mbedtls/base64.h>

#include "check.h"
#include "lib/lib.h"
#include "launch/launch.h"
#include "launch/internal.h"
#include "upload/sigv4.h"
#include "upload/internal.h"

#define AWS_KEY_ID "AKIAIOSFODNN7EXAMPLE"
#define AWS_SECRET "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
#define T20130524 ((time_t)1369353600) /* 20130524T000000Z */
#define T20151229 ((time_t)1451347200) /* 20151229T000000Z */
#define T20260902 ((time_t)1788307200) /* 20260902T000000Z */

static const struct sigv4_credentials aws_example = { AWS_KEY_ID, AWS_SECRET, NULL };

static bool url_is(char *url, const char *want)
{
	bool same = url && !strcmp(url, want);
	if (!same)
		fprintf(stderr, "got  %s\nwant %s\n", url ? url : "(null)", want);
	free(url);
	return same;
}

static void test_time_formats(struct checks *checks)
{
	char text[21];
	time_t t = 0;
	CHECK(sigv4_amz_date(T20130524, text) == 0 && !strcmp(text, "20130524T000000Z"));
	CHECK(sigv4_iso_time(T20151229 + 43200, text) == 0 &&
	      !strcmp(text, "2015-12-29T12:00:00Z"));
	CHECK(sigv4_parse_amz_date("20260902T000000Z", &t) == 0 && t == T20260902);
	CHECK(sigv4_parse_amz_date("20260231T000000Z", &t) == -1); /* no such day */
	CHECK(sigv4_parse_amz_date("20260902T000000", &t) == -1);
	CHECK(sigv4_parse_amz_date("2026-09-02T00:00:00Z", &t) == -1);
	CHECK(sigv4_parse_amz_date("2026090 T000000Z", &t) == -1);
}

static void test_hashes(struct checks *checks)
{
	char hex[SIGV4_HEX_LEN + 1];
	char *b64 = sigv4_base64("any carnal pleas", 16);
	CHECK(sigv4_sha256_hex("", 0, hex) == 0 &&
	      !strcmp(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
	CHECK(b64 && !strcmp(b64, "YW55IGNhcm5hbCBwbGVhcw=="));
	free(b64);
}

/* AWS: GET https://examplebucket.s3.amazonaws.com/test.txt, 86400 s. */
static void test_aws_query_example(struct checks *checks)
{
	struct sigv4_scope scope = { "us-east-1", "s3", T20130524 };
	struct sigv4_url_request req = { "GET",	      "https", "examplebucket.s3.amazonaws.com",
					 "/test.txt", 86400,   NULL,
					 NULL,	      NULL,    0 };
	char err[256];
	CHECK(url_is(sigv4_presign_url(&aws_example, &scope, &req, err, sizeof(err)),
		     "https://examplebucket.s3.amazonaws.com/test.txt"
		     "?X-Amz-Algorithm=AWS4-HMAC-SHA256"
		     "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2F"
		     "aws4_request"
		     "&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host"
		     "&X-Amz-Signature="
		     "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404"));
}

static const char aws_policy_b64[] =
	"eyAiZXhwaXJhdGlvbiI6ICIyMDE1LTEyLTMwVDEyOjAwOjAwLjAwMFoiLA0KICAiY29uZGl0aW9ucyI6IFsNCiAgI"
	"CB7ImJ1Y2tldCI6ICJzaWd2NGV4YW1wbGVidWNrZXQifSwNCiAgICBbInN0YXJ0cy13aXRoIiwgIiRrZXkiLCAidX"
	"Nlci91c2VyMS8iXSwNCiAgICB7ImFjbCI6ICJwdWJsaWMtcmVhZCJ9LA0KICAgIHsic3VjY2Vzc19hY3Rpb25fcmV"
	"kaXJlY3QiOiAiaHR0cDovL3NpZ3Y0ZXhhbXBsZWJ1Y2tldC5zMy5hbWF6b25hd3MuY29tL3N1Y2Nlc3NmdWxfdXBs"
	"b2FkLmh0bWwifSwNCiAgICBbInN0YXJ0cy13aXRoIiwgIiRDb250ZW50LVR5cGUiLCAiaW1hZ2UvIl0sDQogICAge"
	"yJ4LWFtei1tZXRhLXV1aWQiOiAiMTQzNjUxMjM2NTEyNzQifSwNCiAgICB7IngtYW16LXNlcnZlci1zaWRlLWVuY3"
	"J5cHRpb24iOiAiQUVTMjU2In0sDQogICAgWyJzdGFydHMtd2l0aCIsICIkeC1hbXotbWV0YS10YWciLCAiIl0sDQo"
	"NCiAgICB7IngtYW16LWNyZWRlbnRpYWwiOiAiQUtJQUlPU0ZPRE5ON0VYQU1QTEUvMjAxNTEyMjkvdXMtZWFzdC0x"
	"L3MzL2F3czRfcmVxdWVzdCJ9LA0KICAgIHsieC1hbXotYWxnb3JpdGhtIjogIkFXUzQtSE1BQy1TSEEyNTYifSwNC"
	"iAgICB7IngtYW16LWRhdGUiOiAiMjAxNTEyMjlUMDAwMDAwWiIgfQ0KICBdDQp9";

/* The policy as AWS prints it, lines joined with CRLF. */
static const char aws_policy_text[] =
	"{ \"expiration\": \"2015-12-30T12:00:00.000Z\",\r\n"
	"  \"conditions\": [\r\n"
	"    {\"bucket\": \"sigv4examplebucket\"},\r\n"
	"    [\"starts-with\", \"$key\", \"user/user1/\"],\r\n"
	"    {\"acl\": \"public-read\"},\r\n"
	"    {\"success_action_redirect\": "
	"\"http://sigv4examplebucket.s3.amazonaws.com/successful_upload.html\"},\r\n"
	"    [\"starts-with\", \"$Content-Type\", \"image/\"],\r\n"
	"    {\"x-amz-meta-uuid\": \"14365123651274\"},\r\n"
	"    {\"x-amz-server-side-encryption\": \"AES256\"},\r\n"
	"    [\"starts-with\", \"$x-amz-meta-tag\", \"\"],\r\n"
	"\r\n"
	"    {\"x-amz-credential\": "
	"\"AKIAIOSFODNN7EXAMPLE/20151229/us-east-1/s3/aws4_request\"},\r\n"
	"    {\"x-amz-algorithm\": \"AWS4-HMAC-SHA256\"},\r\n"
	"    {\"x-amz-date\": \"20151229T000000Z\" }\r\n"
	"  ]\r\n"
	"}";

static void test_aws_post_example(struct checks *checks)
{
	struct sigv4_scope scope = { "us-east-1", "s3", T20151229 };
	char sig[SIGV4_HEX_LEN + 1];
	char *b64 = sigv4_base64(aws_policy_text, strlen(aws_policy_text));
	CHECK(b64 && !strcmp(b64, aws_policy_b64));
	free(b64);
	CHECK(sigv4_sign(AWS_SECRET, &scope, aws_policy_b64, sig) == 0 &&
	      !strcmp(sig, "8afdbf4008c03f22c2cd3cdb72e4afbb1f6a588f3255ac628749a66d7f09699e"));
}

/* Session token in the signed query (sorted between Expires and
 * SignedHeaders), every reserved byte of path and token encoded. */
static void test_token_and_encoding(struct checks *checks)
{
	struct sigv4_credentials cred = { AWS_KEY_ID, AWS_SECRET,
					  "FwoGZXIvYXdzEJr//////////wEaDH+test/token==" };
	struct sigv4_scope scope = { "ap-northeast-2", "s3", T20260902 };
	struct sigv4_url_request req = { "PUT",
					 "https",
					 "s3.ap-northeast-2.amazonaws.com",
					 "/ebsbench-results/runs/a b+c/\xc3\xbc.json",
					 21600,
					 NULL,
					 NULL,
					 NULL,
					 0 };
	char err[256];
	CHECK(url_is(sigv4_presign_url(&cred, &scope, &req, err, sizeof(err)),
		     "https://s3.ap-northeast-2.amazonaws.com/ebsbench-results/runs/a%20b%2Bc/"
		     "%C3%BC.json?X-Amz-Algorithm=AWS4-HMAC-SHA256"
		     "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20260902%2Fap-northeast-2%2Fs3%2F"
		     "aws4_request&X-Amz-Date=20260902T000000Z&X-Amz-Expires=21600"
		     "&X-Amz-Security-Token=FwoGZXIvYXdzEJr%2F%2F%2F%2F%2F%2F%2F%2F%2F%2FwEaDH%2B"
		     "test%2Ftoken%3D%3D&X-Amz-SignedHeaders=host&X-Amz-Signature="
		     "5220aa07fea5d41401dc7ad33e0ec0ee7fa3f1a54d813d5b5f66c6bad90f673b"));
}

static void test_signed_headers(struct checks *checks)
{
	struct sigv4_scope scope = { "us-east-1", "s3", T20260902 };
	struct sigv4_url_request req = { "PUT",
					 "https",
					 "127.0.0.1:4569",
					 "/bucket/results.json",
					 1800,
					 "application/json",
					 "1B2M2Y8AsgTpgAmY7PhCfg==",
					 NULL,
					 0 };
	char err[256];
	CHECK(url_is(sigv4_presign_url(&aws_example, &scope, &req, err, sizeof(err)),
		     "https://127.0.0.1:4569/bucket/results.json?X-Amz-Algorithm=AWS4-HMAC-SHA256"
		     "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20260902%2Fus-east-1%2Fs3%2F"
		     "aws4_request&X-Amz-Date=20260902T000000Z&X-Amz-Expires=1800"
		     "&X-Amz-SignedHeaders=content-md5%3Bcontent-type%3Bhost&X-Amz-Signature="
		     "e7d4c324911130c6dae5db96f7f951fe025258b8152cc31f504de3205e475b10"));
}

static void test_bad_inputs(struct checks *checks)
{
	struct sigv4_scope scope = { "us-east-1", "s3", T20260902 };
	struct sigv4_url_request req = { "PUT", "https", "h",  "/b/k", SIGV4_MAX_EXPIRES,
					 NULL,	NULL,	 NULL, 0 };
	struct sigv4_credentials bad = { AWS_KEY_ID, "", NULL };
	char err[256], *url;

	url = sigv4_presign_url(&aws_example, &scope, &req, err, sizeof(err));
	CHECK(url != NULL); /* seven days exactly is allowed */
	free(url);
	req.expires_s = SIGV4_MAX_EXPIRES + 1;
	CHECK(!sigv4_presign_url(&aws_example, &scope, &req, err, sizeof(err)) &&
	      strstr(err, "7 days"));
	req.expires_s = 0;
	CHECK(!sigv4_presign_url(&aws_example, &scope, &req, err, sizeof(err)));
	req.expires_s = 60;
	CHECK(!sigv4_presign_url(&bad, &scope, &req, err, sizeof(err)));
	req.host = "h/x";
	CHECK(!sigv4_presign_url(&aws_example, &scope, &req, err, sizeof(err)));
	req.host = "h";
	req.path = "b/k";
	CHECK(!sigv4_presign_url(&aws_example, &scope, &req, err, sizeof(err)));
	req.path = "/b/k";
	req.method = "put";
	CHECK(!sigv4_presign_url(&aws_example, &scope, &req, err, sizeof(err)));
}

/* Decodes fields.policy and checks it against what was asked. */
static json_t *decoded_policy(json_t *fields)
{
	const char *b64 = json_string_value(json_object_get(fields, "policy"));
	unsigned char text[4096];
	size_t n = 0;
	if (!b64 || mbedtls_base64_decode(text, sizeof(text) - 1, &n, (const unsigned char *)b64,
					  strlen(b64)))
		return NULL;
	text[n] = '\0';
	return json_loads((const char *)text, 0, NULL);
}

static void test_post_policy(struct checks *checks)
{
	struct sigv4_credentials cred = { AWS_KEY_ID, AWS_SECRET, "tok/en+=" };
	struct sigv4_scope scope = { "ap-northeast-2", "s3", T20260902 };
	struct sigv4_post_policy p = { "ebsbench-results", "runs/1/", 3600, 1u << 30 };
	char err[256], sig[SIGV4_HEX_LEN + 1];
	json_t *f = sigv4_post_fields(&cred, &scope, &p, err, sizeof(err));
	json_t *doc = decoded_policy(f);
	json_t *cond = json_object_get(doc, "conditions");
	json_t *key_rule = json_pack("[sss]", "starts-with", "$key", "runs/1/");
	char *shown = f ? json_dumps(f, 0) : NULL;

	CHECK(f && doc && json_array_size(cond) == 7);
	CHECK(!strcmp(json_string_value(json_object_get(doc, "expiration")),
		      "2026-09-02T01:00:00Z"));
	CHECK(json_equal(json_array_get(cond, 1), key_rule));
	CHECK(json_integer_value(json_array_get(json_array_get(cond, 6), 2)) == 1 << 30);
	CHECK(!strcmp(json_string_value(json_object_get(f, "x-amz-credential")),
		      AWS_KEY_ID "/20260902/ap-northeast-2/s3/aws4_request"));
	CHECK(!strcmp(json_string_value(json_object_get(f, "x-amz-security-token")), "tok/en+="));
	CHECK(!strcmp(
		json_string_value(json_object_get(json_array_get(cond, 5), "x-amz-security-token")),
		"tok/en+="));
	CHECK(sigv4_sign(AWS_SECRET, &scope, json_string_value(json_object_get(f, "policy")),
			 sig) == 0 &&
	      !strcmp(sig, json_string_value(json_object_get(f, "x-amz-signature"))));
	CHECK(shown && !strstr(shown, AWS_SECRET));
	free(shown);
	json_decref(key_rule);
	json_decref(doc);
	json_decref(f);
}

static void test_expires(struct checks *checks)
{
	unsigned s = 0;
	char err[256];
	CHECK(presign_parse_expires("30m", &s, err, sizeof(err)) == 0 && s == 1800);
	CHECK(presign_parse_expires("6h", &s, err, sizeof(err)) == 0 && s == 21600);
	CHECK(presign_parse_expires("7d", &s, err, sizeof(err)) == 0 && s == 604800);
	CHECK(presign_parse_expires("90s", &s, err, sizeof(err)) == 0 && s == 90);
	const char *bad[] = {
		"8d", "169h", "6", "0h", "h", "-1h", "6hh", "6 h", "", "1w", "99999999999999999999d"
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		if (!CHECK(presign_parse_expires(bad[i], &s, err, sizeof(err)) == -1))
			fprintf(stderr, "  accepted '%s'\n", bad[i]);
}

static void test_endpoints(struct checks *checks)
{
	struct presign_endpoint ep;
	char err[256];
	CHECK(presign_endpoint(NULL, "ap-northeast-2", &ep, err, sizeof(err)) == 0 &&
	      !strcmp(ep.scheme, "https") && !strcmp(ep.host, "s3.ap-northeast-2.amazonaws.com"));
	CHECK(presign_endpoint(NULL, "cn-north-1", &ep, err, sizeof(err)) == 0 &&
	      !strcmp(ep.host, "s3.cn-north-1.amazonaws.com.cn"));
	CHECK(presign_endpoint("http://127.0.0.1:4569", "x", &ep, err, sizeof(err)) == 0 &&
	      !strcmp(ep.scheme, "http") && !strcmp(ep.host, "127.0.0.1:4569"));
	CHECK(presign_endpoint("https://localhost:8443/", "x", &ep, err, sizeof(err)) == 0 &&
	      !strcmp(ep.host, "localhost:8443"));
	CHECK(presign_endpoint("https://localhost:443", "x", &ep, err, sizeof(err)) == 0 &&
	      !strcmp(ep.host, "localhost"));
	CHECK(presign_endpoint("http://[::1]:80", "x", &ep, err, sizeof(err)) == 0 &&
	      !strcmp(ep.host, "[::1]"));
	CHECK(presign_endpoint("https://h/path", "x", &ep, err, sizeof(err)) == -1);
	CHECK(presign_endpoint("ftp://h", "x", &ep, err, sizeof(err)) == -1);
	CHECK(presign_endpoint("https://", "x", &ep, err, sizeof(err)) == -1);
	CHECK(presign_endpoint("https://a b", "x", &ep, err, sizeof(err)) == -1);
}

static void test_bucket_and_prefix(struct checks *checks)
{
	char out[PRESIGN_MAX_KEY], err[256];
	CHECK(presign_check_bucket("ebsbench.results-1", err, sizeof(err)) == 0);
	CHECK(presign_check_bucket("ab", err, sizeof(err)) == -1);
	CHECK(presign_check_bucket("Upper", err, sizeof(err)) == -1);
	CHECK(presign_check_bucket("-dash", err, sizeof(err)) == -1);
	CHECK(presign_prefix("runs/x", out, sizeof(out), err, sizeof(err)) == 0 &&
	      !strcmp(out, "runs/x/"));
	CHECK(presign_prefix("//runs/x/", out, sizeof(out), err, sizeof(err)) == 0 &&
	      !strcmp(out, "runs/x/"));
	CHECK(presign_prefix("", out, sizeof(out), err, sizeof(err)) == 0 && !strcmp(out, ""));
	CHECK(presign_prefix("runs/../x", out, sizeof(out), err, sizeof(err)) == -1);
	CHECK(presign_prefix("./x", out, sizeof(out), err, sizeof(err)) == -1);
	CHECK(presign_prefix("runs/..x/", out, sizeof(out), err, sizeof(err)) == 0);
}

static bool has_name(const struct presign_names *n, const char *name)
{
	for (size_t i = 0; i < n->count; i++)
		if (!strcmp(n->names[i], name))
			return true;
	return false;
}

static void test_default_names(struct checks *checks)
{
	struct presign_names n;
	char err[256];
	CHECK(presign_names_default(&n, err, sizeof(err)) == 0);
	/* results, summary, four charts, recommend, report.html; per device 6
	 * phases' and 6 load curve steps' IOPS logs and the histogram logs of
	 * randread and lat. */
	CHECK_EQ_U64(n.count, 8 + 2 * (6 + 6) + 2 * 2);
	CHECK(n.count && !strcmp(n.names[0], "results.json"));
	CHECK(has_name(&n, "summary.md") && has_name(&n, "iops_timeline.svg") &&
	      has_name(&n, "latency_percentiles.svg") && has_name(&n, "recommend.md") &&
	      has_name(&n, "report.html"));
	CHECK(has_name(&n, "gp2_layout_iops.1.log") && has_name(&n, "gp2_rr_iops.1.log") &&
	      has_name(&n, "gp3_lat_iops.1.log") && has_name(&n, "gp3_sw_iops.1.log"));
	/* gp2 100 GiB: randread runs past the 2,000 s cliff. */
	CHECK(n.planned_s > 2700);
	presign_names_free(&n);
}

static void test_names_from_config(struct checks *checks)
{
	const char *doc = "{\"devices\": [{\"path\": \"/dev/nvme1n1\", \"type\": \"gp3\"},"
			  " {\"path\": \"/dev/nvme2n1\", \"type\": \"gp3\"},"
			  " {\"path\": \"/dev/nvme3n1\"}, {\"volume_id\": \"vol-1\", "
			  "\"label\": \"old\"}],"
			  " \"phases\": [{\"phase\": \"randread\", \"runtime\": 10},"
			  " {\"phase\": \"mixed\", \"rw\": \"randrw\"}]}";
	struct run_config c;
	struct presign_names n;
	char err[256];
	json_t *root = json_loads(doc, 0, NULL);

	config_defaults(&c);
	CHECK(root && config_from_json(&c, root, err, sizeof(err)) == 0);
	CHECK(presign_names_from_config(&n, &c, err, sizeof(err)) == 0);
	CHECK_EQ_U64(n.count, 7 + 4 * 2 + 4); /* + randread hist logs */
	CHECK(has_name(&n, "gp3_rr_iops.1.log") && has_name(&n, "gp3-2_rr_iops.1.log") &&
	      has_name(&n, "nvme3n1_mixed_iops.1.log") && has_name(&n, "old_mixed_iops.1.log"));
	presign_names_free(&n);
	config_free(&c);
	json_decref(root);

	/* Named by volume id only: the kernel picks its name on the instance. */
	root = json_loads("{\"devices\": [{\"volume_id\": \"vol-1\"}]}", 0, NULL);
	config_defaults(&c);
	CHECK(config_from_json(&c, root, err, sizeof(err)) == 0);
	CHECK(presign_names_from_config(&n, &c, err, sizeof(err)) == -1 && strstr(err, "label"));
	/* A POST policy needs no names: the estimate still works. */
	double seconds = 0;
	CHECK(presign_plan_seconds(&c, &seconds, err, sizeof(err)) == 0 && seconds > 600);
	config_free(&c);
	json_decref(root);
}

static void test_put_block(struct checks *checks)
{
	struct presign_request r = { .cred = aws_example,
				     .when = T20260902,
				     .expires_s = 3600,
				     .region = "us-east-1",
				     .bucket = "bkt",
				     .prefix = "p/",
				     .endpoint = { "http", "127.0.0.1:4569" } };
	char *names[] = { "results.json", "gp2_rr_iops.1.log" };
	struct presign_names n = { names, 2, 0 };
	char err[256];
	json_t *b = presign_put_block(&r, &n, err, sizeof(err));
	json_t *put = json_object_get(json_object_get(b, "upload"), "put");
	const char *url = json_string_value(json_object_get(put, "gp2_rr_iops.1.log"));

	CHECK(json_object_size(put) == 2);
	CHECK(url && !strncmp(url, "http://127.0.0.1:4569/bkt/p/gp2_rr_iops.1.log?", 46));
	CHECK(!strcmp(json_string_value(json_object_get(json_object_get(b, "upload"), "expires")),
		      "2026-09-02T01:00:00Z"));
	/* resume_get: a GET of the prefix's results.json, as long-lived. */
	struct sigv4_scope scope = { "us-east-1", "s3", T20260902 };
	struct sigv4_url_request get = { .method = "GET",
					 .scheme = "http",
					 .host = "127.0.0.1:4569",
					 .path = "/bkt/p/results.json",
					 .expires_s = 3600 };
	char *want = sigv4_presign_url(&aws_example, &scope, &get, err, sizeof(err));
	const char *got =
		json_string_value(json_object_get(json_object_get(b, "upload"), "resume_get"));
	CHECK(want && got && !strcmp(got, want));
	free(want);
	json_decref(b);
	b = presign_post_block(&r, 0, err, sizeof(err));
	json_t *post = json_object_get(json_object_get(b, "upload"), "post");
	CHECK(!strcmp(json_string_value(json_object_get(post, "url")),
		      "http://127.0.0.1:4569/bkt"));
	CHECK(!strcmp(json_string_value(json_object_get(post, "key_prefix")), "p/"));
	CHECK(json_object_get(json_object_get(post, "fields"), "x-amz-signature") != NULL);
	CHECK(json_is_string(json_object_get(json_object_get(b, "upload"), "resume_get")));
	json_decref(b);
}

/* A listing's parameters follow the X-Amz-* ones, encoded, '/' too, and
 * are signed: the same URL with another prefix has another signature. */
static void test_query_params(struct checks *checks)
{
	struct sigv4_scope scope = { "us-east-1", "s3", T20260902 };
	struct sigv4_param params[] = { { "continuation-token", "a+b/c=" },
					{ "list-type", "2" },
					{ "prefix", "runs/7 x/" } };
	struct sigv4_url_request req = { .method = "GET",
					 .scheme = "http",
					 .host = "127.0.0.1:4569",
					 .path = "/bkt",
					 .expires_s = 300,
					 .params = params,
					 .param_count = 3 };
	char err[256];
	char *a = sigv4_presign_url(&aws_example, &scope, &req, err, sizeof(err));
	CHECK(a && strstr(a, "&X-Amz-SignedHeaders=host&continuation-token=a%2Bb%2Fc%3D"
			     "&list-type=2&prefix=runs%2F7%20x%2F&X-Amz-Signature="));
	const struct sigv4_param other[] = { { "continuation-token", "a+b/c=" },
					     { "list-type", "2" },
					     { "prefix", "runs/8/" } };
	req.params = other;
	char *b = sigv4_presign_url(&aws_example, &scope, &req, err, sizeof(err));
	CHECK(a && b && strcmp(strstr(a, "X-Amz-Signature="), strstr(b, "X-Amz-Signature=")));
	free(a);
	free(b);
	const struct sigv4_param unsorted[] = { { "prefix", "a" }, { "list-type", "2" } };
	const struct sigv4_param upper[] = { { "Prefix", "a" } };
	req.params = unsorted;
	req.param_count = 2;
	CHECK(!sigv4_presign_url(&aws_example, &scope, &req, err, sizeof(err)) &&
	      strstr(err, "sorted"));
	req.params = upper;
	req.param_count = 1;
	CHECK(!sigv4_presign_url(&aws_example, &scope, &req, err, sizeof(err)));
}

CHECK_MAIN(test_time_formats, test_hashes, test_aws_query_example, test_aws_post_example,
	   test_token_and_encoding, test_signed_headers, test_bad_inputs, test_post_policy,
	   test_expires, test_endpoints, test_bucket_and_prefix, test_default_names,
	   test_names_from_config, test_put_block, test_query_params)
