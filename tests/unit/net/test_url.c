/* test_url.c - URL parsing keeps presigned targets byte for byte, and
 * redaction leaves no credential in a log line. */
#include <string.h>

#include "check.h"
#include "net/url.h"
#include "net/internal.h"

static bool target_is(const struct url *u, const char *want)
{
	return u->target_len == strlen(want) && memcmp(u->target, want, u->target_len) == 0;
}

static void test_presigned_target_verbatim(struct checks *checks)
{
	const char *s = "https://bucket.s3.eu-west-1.amazonaws.com/runs/a%20b/%7Efile.json"
			"?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%2F20240101%2Fs3"
			"&X-Amz-Signature=abc123#frag";
	struct url u;
	char err[128];

	CHECK(url_parse(s, &u, err, sizeof(err)) == 0);
	CHECK(u.https);
	CHECK(strcmp(u.host, "bucket.s3.eu-west-1.amazonaws.com") == 0);
	CHECK_EQ_U64(u.port, 443);
	CHECK(!u.port_given);
	CHECK(target_is(&u, "/runs/a%20b/%7Efile.json?X-Amz-Algorithm=AWS4-HMAC-SHA256"
			    "&X-Amz-Credential=AKIA%2F20240101%2Fs3&X-Amz-Signature=abc123"));
}

static void test_ports_and_hosts(struct checks *checks)
{
	struct url u;
	char err[128], host[300];

	CHECK(url_parse("http://localhost:9000/b/k", &u, err, sizeof(err)) == 0);
	CHECK(!u.https);
	CHECK_EQ_U64(u.port, 9000);
	CHECK(u.port_given);
	CHECK(url_host_header(&u, host, sizeof(host)) > 0);
	CHECK(strcmp(host, "localhost:9000") == 0);

	CHECK(url_parse("HTTP://example.com", &u, err, sizeof(err)) == 0);
	CHECK_EQ_U64(u.port, 80);
	CHECK(u.target_len == 0);

	/* A default port given explicitly stays out of Host, as SDKs sign it. */
	CHECK(url_parse("https://example.com:443?x=1", &u, err, sizeof(err)) == 0);
	CHECK(target_is(&u, "?x=1"));
	url_host_header(&u, host, sizeof(host));
	CHECK(strcmp(host, "example.com") == 0);

	CHECK(url_parse("https://[::1]:8443/p", &u, err, sizeof(err)) == 0);
	CHECK(u.ipv6_literal);
	CHECK(strcmp(u.host, "::1") == 0);
	CHECK_EQ_U64(u.port, 8443);
	url_host_header(&u, host, sizeof(host));
	CHECK(strcmp(host, "[::1]:8443") == 0);

	CHECK(url_parse("http://[fe80::1]/", &u, err, sizeof(err)) == 0);
	url_host_header(&u, host, sizeof(host));
	CHECK(strcmp(host, "[fe80::1]") == 0);
	CHECK(url_host_header(&u, host, 4) == -1);
}

static bool rejects(const char *s, const char *why)
{
	struct url u;
	char err[128] = "";

	return url_parse(s, &u, err, sizeof(err)) == -1 && strstr(err, why) != NULL;
}

static void test_rejects(struct checks *checks)
{
	CHECK(rejects("ftp://host/x", "scheme"));
	CHECK(rejects("host/x", "scheme"));
	CHECK(rejects("https:///x", "missing host"));
	CHECK(rejects("https://host:/x", "bad port"));
	CHECK(rejects("https://host:0/x", "bad port"));
	CHECK(rejects("https://host:65536/x", "bad port"));
	CHECK(rejects("https://host:80a/x", "bad port"));
	CHECK(rejects("https://[::1/x", "unterminated"));
	CHECK(rejects("https://[::g]/x", "bad IPv6"));
	CHECK(rejects("https://[::1]x/", "junk"));
	CHECK(rejects("https://ho$t/x", "bad host"));
	CHECK(rejects("https://user:pw@host/x", "credentials"));
	CHECK(rejects("https://host/a b", "space"));
	CHECK(rejects("https://host/a\r\nX: y", "control"));
	CHECK(rejects("https://host/\xc3\xa9", "non-ASCII"));
}

static void test_errors_never_quote_the_url(struct checks *checks)
{
	struct url u;
	char err[256];

	CHECK(url_parse("https://user:secretpw@host/?X-Amz-Signature=sekrit", &u, err,
			sizeof(err)) == -1);
	CHECK(strstr(err, "secretpw") == NULL);
	CHECK(strstr(err, "sekrit") == NULL);
}

static bool redacts_to(const char *in, const char *want)
{
	char out[512];
	size_t n = url_redact(in, out, sizeof(out));

	return n == strlen(want) && strcmp(out, want) == 0;
}

static void test_redact(struct checks *checks)
{
	CHECK(redacts_to("https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256"
			 "&X-Amz-Credential=AKIAX%2F2024&X-Amz-Date=20240101T000000Z"
			 "&X-Amz-Expires=3600&X-Amz-Security-Token=FwoGZX"
			 "&X-Amz-SignedHeaders=host&X-Amz-Signature=deadbeef",
			 "https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256"
			 "&X-Amz-Credential=REDACTED&X-Amz-Date=20240101T000000Z"
			 "&X-Amz-Expires=3600&X-Amz-Security-Token=REDACTED"
			 "&X-Amz-SignedHeaders=host&X-Amz-Signature=REDACTED"));
	/* SigV2, names in any case, the fragment left alone. */
	CHECK(redacts_to("http://h/k?AWSAccessKeyId=AKIA&Expires=1&Signature=abc%3D#f",
			 "http://h/k?AWSAccessKeyId=REDACTED&Expires=1&Signature=REDACTED#f"));
	CHECK(redacts_to("http://h/k?x-amz-signature=abc&x-amz-security-token=t",
			 "http://h/k?x-amz-signature=REDACTED&x-amz-security-token=REDACTED"));
	/* Names that merely contain a secret name are kept. */
	CHECK(redacts_to("http://h/?MySignature=1&Signatures=2",
			 "http://h/?MySignature=1&Signatures=2"));
	CHECK(redacts_to("https://u:p@h:1/x?Signature=",
			 "https://REDACTED@h:1/x?Signature=REDACTED"));
	CHECK(redacts_to("http://h/p", "http://h/p"));
	CHECK(redacts_to("?Signature=x&&a", "?Signature=REDACTED&&a"));
	CHECK(redacts_to("", ""));
}

static void test_redact_truncates_safely(struct checks *checks)
{
	const char *in = "https://h/k?X-Amz-Signature=0123456789abcdef&z=1";
	char out[40];
	size_t n = url_redact(in, out, sizeof(out));

	CHECK_EQ_U64(n, strlen("https://h/k?X-Amz-Signature=REDACTED&z=1"));
	CHECK(strlen(out) == sizeof(out) - 1);
	CHECK(strstr(out, "0123") == NULL);
	CHECK(url_redact(in, NULL, 0) == n);
	CHECK(url_redact(in, out, 1) == n && out[0] == '\0');
}

CHECK_MAIN(test_presigned_target_verbatim, test_ports_and_hosts, test_rejects,
	   test_errors_never_quote_the_url, test_redact, test_redact_truncates_safely)
