/* sigv4.c - SigV4 presigned URLs and POST policies for S3, on mbedTLS's
 * SHA-256 and HMAC.  The algorithm is AWS's "Authenticating Requests"
 * (query parameters, and browser-based POST) for S3. */
#include "upload/sigv4.h"
#include "upload/internal.h"
#include "lib/lib.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mbedtls/base64.h>
#include <mbedtls/md.h>
#include <mbedtls/platform_util.h>

/* ---- a growing string: the URL and canonical request have no useful
 * fixed bound (session tokens run to kilobytes, encoded up to 3x) ---- */

struct sbuf {
	char *p;
	size_t len, cap;
	bool failed; /* sticky: check once at the end */
};

static void sb_put(struct sbuf *b, const char *s, size_t n)
{
	if (b->failed)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *p = realloc(b->p, cap);
		if (!p) {
			b->failed = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void sb_puts(struct sbuf *b, const char *s)
{
	sb_put(b, s, strlen(s));
}

/* S3's URI encoding: unreserved characters stay, every other byte becomes
 * %XX (upper-case hex), space included (never '+').  keep_slash is for
 * paths, where '/' separates the encoded segments; query values encode it. */
static void sb_uri_encode(struct sbuf *b, const char *s, bool keep_slash)
{
	static const char hex[] = "0123456789ABCDEF";
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if (isalnum(*c) || *c == '-' || *c == '_' || *c == '.' || *c == '~' ||
		    (keep_slash && *c == '/')) {
			sb_put(b, (const char *)c, 1);
		} else {
			char esc[3] = { '%', hex[*c >> 4], hex[*c & 15] };
			sb_put(b, esc, 3);
		}
	}
}

static char *sb_take(struct sbuf *b, char *err, size_t errlen)
{
	if (b->failed || !b->p) {
		free(b->p);
		snprintf(err, errlen, "sigv4: out of memory");
		return NULL;
	}
	return b->p;
}

/* ---- hashes ---- */

static const mbedtls_md_info_t *sha256_info(void)
{
	return mbedtls_md_info_from_type(MBEDTLS_MD_SHA256);
}

static void to_hex(const unsigned char *bin, size_t n, char *hex)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		hex[2 * i] = digits[bin[i] >> 4];
		hex[2 * i + 1] = digits[bin[i] & 15];
	}
	hex[2 * n] = '\0';
}

int sigv4_sha256_hex(const void *data, size_t len, char hex[SIGV4_HEX_LEN + 1])
{
	unsigned char sum[32];
	if (!sha256_info() || mbedtls_md(sha256_info(), data, len, sum))
		return -1;
	to_hex(sum, sizeof(sum), hex);
	return 0;
}

static int hmac(const unsigned char *key, size_t keylen, const char *msg, unsigned char out[32])
{
	const mbedtls_md_info_t *md = sha256_info();
	int rc = md ? mbedtls_md_hmac(md, key, keylen, (const unsigned char *)msg, strlen(msg), out)
		    : -1;
	return rc ? -1 : 0;
}

/* key = HMAC(key, msg): one step of the signing key derivation. */
static int hmac_step(unsigned char key[32], const char *msg)
{
	unsigned char next[32];
	int rc = hmac(key, 32, msg, next);
	memcpy(key, next, sizeof(next));
	mbedtls_platform_zeroize(next, sizeof(next));
	return rc;
}

/* The signing key for the scope: HMAC chain over "AWS4" + secret, the
 * date, region, service and "aws4_request". */
static int signing_key(const char *secret_key, const struct sigv4_scope *scope,
		       unsigned char key[32])
{
	char date[17];
	size_t n = strlen(secret_key);
	unsigned char *k0 = malloc(n + 4);
	int rc = -1;

	if (!k0 || sigv4_amz_date(scope->when, date))
		goto out;
	date[8] = '\0'; /* the scope names the day only */
	memcpy(k0, "AWS4", 4);
	memcpy(k0 + 4, secret_key, n);
	if (hmac(k0, n + 4, date, key) || hmac_step(key, scope->region) ||
	    hmac_step(key, scope->service) || hmac_step(key, "aws4_request"))
		goto out;
	rc = 0;
out:
	/* Heap copies of a secret outlive us in freed memory otherwise. */
	if (k0)
		mbedtls_platform_zeroize(k0, n + 4);
	free(k0);
	return rc;
}

int sigv4_sign(const char *secret_key, const struct sigv4_scope *scope, const char *string_to_sign,
	       char hex[SIGV4_HEX_LEN + 1])
{
	unsigned char key[32], sig[32];
	int rc = signing_key(secret_key, scope, key) ? -1
						     : hmac(key, sizeof(key), string_to_sign, sig);
	mbedtls_platform_zeroize(key, sizeof(key));
	if (rc == 0)
		to_hex(sig, sizeof(sig), hex);
	return rc;
}

char *sigv4_base64(const void *data, size_t len)
{
	size_t cap = 4 * ((len + 2) / 3) + 1, olen = 0;
	unsigned char *out = malloc(cap);
	if (out && mbedtls_base64_encode(out, cap, &olen, data, len)) {
		free(out);
		return NULL;
	}
	return (char *)out;
}

/* ---- time ---- */

static int format_utc(time_t when, const char *fmt, char *out, size_t cap)
{
	struct tm tm;
	if (!gmtime_r(&when, &tm))
		return -1;
	return strftime(out, cap, fmt, &tm) == cap - 1 ? 0 : -1;
}

int sigv4_amz_date(time_t when, char out[17])
{
	return format_utc(when, "%Y%m%dT%H%M%SZ", out, 17);
}

int sigv4_iso_time(time_t when, char out[21])
{
	return format_utc(when, "%Y-%m-%dT%H:%M:%SZ", out, 21);
}

int sigv4_parse_amz_date(const char *text, time_t *when)
{
	struct tm tm;
	char tail;
	memset(&tm, 0, sizeof(tm));
	if (strlen(text) != 16 ||
	    sscanf(text, "%4d%2d%2dT%2d%2d%2dZ%c", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
		   &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &tail) != 6 ||
	    text[15] != 'Z')
		return -1;
	for (int i = 0; i < 15; i++)
		if (i != 8 && !isdigit((unsigned char)text[i]))
			return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	*when = timegm(&tm);
	char again[17];
	/* timegm normalises 20130231 into March: a round trip rejects it. */
	return sigv4_amz_date(*when, again) || strcmp(again, text) ? -1 : 0;
}

/* ---- input checks: a bad byte here makes a URL that S3 rejects with a
 * signature mismatch, which says nothing about the cause ---- */

static bool token_ok(const char *s, const char *extra)
{
	if (!s || !*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr(extra, *s))
			return false;
	return true;
}

/* Header values and secrets: printable ASCII, no leading/trailing space
 * (SigV4 would trim them, the client might not). */
static bool value_ok(const char *s)
{
	if (!s || !*s || s[0] == ' ' || s[strlen(s) - 1] == ' ')
		return false;
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			return false;
	return true;
}

static int check_common(const struct sigv4_credentials *cred, const struct sigv4_scope *scope,
			unsigned expires_s, char *err, size_t errlen)
{
	if (!token_ok(cred->access_key_id, "-_.~"))
		return error_set(err, errlen,
				 "sigv4: the access key id must be letters and digits");
	if (!value_ok(cred->secret_key))
		return error_set(err, errlen,
				 "sigv4: the secret key is empty or not printable ASCII");
	if (cred->session_token && *cred->session_token && !value_ok(cred->session_token))
		return error_set(err, errlen, "sigv4: the session token is not printable ASCII");
	if (!token_ok(scope->region, "-") || !token_ok(scope->service, "-"))
		return error_set(err, errlen,
				 "sigv4: region and service must be like us-east-1 and s3");
	if (expires_s < 1 || expires_s > SIGV4_MAX_EXPIRES)
		return error_set(err, errlen,
				 "sigv4: expiry must be 1 to %u seconds (7 days), not %u",
				 SIGV4_MAX_EXPIRES, expires_s);
	return 0;
}

static int check_request(const struct sigv4_url_request *r, char *err, size_t errlen)
{
	if (!token_ok(r->method, "") ||
	    strspn(r->method, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != strlen(r->method))
		return error_set(err, errlen, "sigv4: method must be upper case, like PUT");
	if (!r->scheme || (strcmp(r->scheme, "https") && strcmp(r->scheme, "http")))
		return error_set(err, errlen, "sigv4: scheme must be http or https");
	if (!token_ok(r->host, ".-:[]_"))
		return error_set(err, errlen, "sigv4: host '%s' is not a host[:port]",
				 r->host ? r->host : "");
	if (!r->path || r->path[0] != '/')
		return error_set(err, errlen, "sigv4: the path must start with '/'");
	for (size_t i = 0; i < r->param_count; i++)
		if (!r->params[i].name || !islower((unsigned char)r->params[i].name[0]) ||
		    !r->params[i].value ||
		    (i && strcmp(r->params[i - 1].name, r->params[i].name) >= 0))
			return error_set(
				err, errlen,
				"sigv4: query parameters must be lower-case, sorted, once");
	if ((r->content_type && !value_ok(r->content_type)) ||
	    (r->content_md5 && !value_ok(r->content_md5)))
		return error_set(err, errlen, "sigv4: a signed header value is empty or not ASCII");
	return 0;
}

/* ---- presigned URL ---- */

struct scope_text {
	char date[17];	      /* X-Amz-Date */
	char credential[256]; /* <key id>/<day>/<region>/<service>/aws4_request */
	char scope[128];      /* the same without the key id */
};

static int scope_text(const struct sigv4_credentials *cred, const struct sigv4_scope *s,
		      struct scope_text *t, char *err, size_t errlen)
{
	if (sigv4_amz_date(s->when, t->date))
		return error_set(err, errlen, "sigv4: the signing time is out of range");
	int n = snprintf(t->scope, sizeof(t->scope), "%.8s/%s/%s/aws4_request", t->date, s->region,
			 s->service);
	int m = snprintf(t->credential, sizeof(t->credential), "%s/%s", cred->access_key_id,
			 t->scope);
	if (n < 0 || (size_t)n >= sizeof(t->scope) || m < 0 || (size_t)m >= sizeof(t->credential))
		return error_set(err, errlen, "sigv4: access key id or region too long");
	return 0;
}

static const char *signed_headers(const struct sigv4_url_request *r)
{
	if (r->content_md5 && r->content_type)
		return "content-md5;content-type;host";
	if (r->content_md5)
		return "content-md5;host";
	return r->content_type ? "content-type;host" : "host";
}

/* The query without the signature.  The names are written in sorted
 * order, which is what makes this string canonical. */
static void build_query(struct sbuf *q, const struct sigv4_credentials *cred,
			const struct scope_text *t, const struct sigv4_url_request *r)
{
	char expires[16];
	snprintf(expires, sizeof(expires), "%u", r->expires_s);
	sb_puts(q, "X-Amz-Algorithm=" SIGV4_ALGORITHM "&X-Amz-Credential=");
	sb_uri_encode(q, t->credential, false);
	sb_puts(q, "&X-Amz-Date=");
	sb_puts(q, t->date);
	sb_puts(q, "&X-Amz-Expires=");
	sb_puts(q, expires);
	if (cred->session_token && *cred->session_token) {
		sb_puts(q, "&X-Amz-Security-Token=");
		sb_uri_encode(q, cred->session_token, false);
	}
	sb_puts(q, "&X-Amz-SignedHeaders=");
	sb_uri_encode(q, signed_headers(r), false);
	for (size_t i = 0; i < r->param_count; i++) {
		sb_puts(q, "&");
		sb_uri_encode(q, r->params[i].name, false);
		sb_puts(q, "=");
		sb_uri_encode(q, r->params[i].value, false);
	}
}

static void put_header(struct sbuf *b, const char *name, const char *value)
{
	if (!value)
		return;
	sb_puts(b, name);
	sb_puts(b, ":");
	sb_puts(b, value);
	sb_puts(b, "\n");
}

/* Method, path, query, headers (sorted), signed header names, payload. */
static void build_canonical(struct sbuf *c, const struct sigv4_url_request *r, const char *path,
			    const char *query)
{
	sb_puts(c, r->method);
	sb_puts(c, "\n");
	sb_puts(c, path);
	sb_puts(c, "\n");
	sb_puts(c, query);
	sb_puts(c, "\n");
	put_header(c, "content-md5", r->content_md5);
	put_header(c, "content-type", r->content_type);
	put_header(c, "host", r->host);
	sb_puts(c, "\n");
	sb_puts(c, signed_headers(r));
	sb_puts(c, "\nUNSIGNED-PAYLOAD");
}

static int signature_for(const struct sigv4_credentials *cred, const struct sigv4_scope *scope,
			 const struct scope_text *t, const char *canonical, char sig[65])
{
	char hash[SIGV4_HEX_LEN + 1], sts[512];
	if (sigv4_sha256_hex(canonical, strlen(canonical), hash))
		return -1;
	snprintf(sts, sizeof(sts), SIGV4_ALGORITHM "\n%s\n%s\n%s", t->date, t->scope, hash);
	return sigv4_sign(cred->secret_key, scope, sts, sig);
}

char *sigv4_presign_url(const struct sigv4_credentials *cred, const struct sigv4_scope *scope,
			const struct sigv4_url_request *req, char *err, size_t errlen)
{
	struct scope_text t;
	struct sbuf path = { 0 }, query = { 0 }, canon = { 0 }, url = { 0 };
	char sig[SIGV4_HEX_LEN + 1];
	char *out = NULL;

	err[0] = '\0';
	if (check_common(cred, scope, req->expires_s, err, errlen) ||
	    check_request(req, err, errlen) || scope_text(cred, scope, &t, err, errlen))
		return NULL;
	sb_uri_encode(&path, req->path, true);
	build_query(&query, cred, &t, req);
	if (path.failed || query.failed)
		goto done;
	build_canonical(&canon, req, path.p, query.p);
	if (canon.failed || signature_for(cred, scope, &t, canon.p, sig)) {
		snprintf(err, errlen, "sigv4: signing failed (mbedTLS)");
		goto done;
	}
	sb_puts(&url, req->scheme);
	sb_puts(&url, "://");
	sb_puts(&url, req->host);
	sb_puts(&url, path.p);
	sb_puts(&url, "?");
	sb_puts(&url, query.p);
	sb_puts(&url, "&X-Amz-Signature=");
	sb_puts(&url, sig);
	out = sb_take(&url, err, errlen);
	url.p = NULL;
done:
	if (!out && !err[0])
		snprintf(err, errlen, "sigv4: out of memory");
	free(path.p);
	free(query.p);
	free(canon.p);
	free(url.p);
	return out;
}

/* ---- POST policy ---- */

/* A condition lost to a failed allocation would widen what the policy
 * allows: any failure fails the whole document. */
static void add_condition(json_t *conditions, json_t *c, bool *failed)
{
	if (json_array_append_new(conditions, c))
		*failed = true;
}

static json_t *policy_document(const struct sigv4_credentials *cred, const struct scope_text *t,
			       const struct sigv4_post_policy *p, const char *expiration)
{
	bool failed = false;
	json_t *c = json_array();
	add_condition(c, json_pack("{ss}", "bucket", p->bucket), &failed);
	add_condition(c, json_pack("[sss]", "starts-with", "$key", p->key_prefix), &failed);
	add_condition(c, json_pack("{ss}", "x-amz-algorithm", SIGV4_ALGORITHM), &failed);
	add_condition(c, json_pack("{ss}", "x-amz-credential", t->credential), &failed);
	add_condition(c, json_pack("{ss}", "x-amz-date", t->date), &failed);
	if (cred->session_token && *cred->session_token)
		add_condition(c, json_pack("{ss}", "x-amz-security-token", cred->session_token),
			      &failed);
	if (p->max_bytes)
		add_condition(c,
			      json_pack("[sII]", "content-length-range", (json_int_t)0,
					(json_int_t)p->max_bytes),
			      &failed);
	if (failed || !c) {
		json_decref(c);
		return NULL;
	}
	return json_pack("{ssso}", "expiration", expiration, "conditions", c);
}

static json_t *form_fields(const struct sigv4_credentials *cred, const struct scope_text *t,
			   const char *policy, const char *sig)
{
	json_t *f = json_pack("{ssssssss}", "policy", policy, "x-amz-algorithm", SIGV4_ALGORITHM,
			      "x-amz-credential", t->credential, "x-amz-date", t->date);
	if (f && cred->session_token && *cred->session_token &&
	    json_object_set_new(f, "x-amz-security-token", json_string(cred->session_token)))
		goto fail;
	if (f && json_object_set_new(f, "x-amz-signature", json_string(sig)))
		goto fail;
	return f;
fail:
	json_decref(f);
	return NULL;
}

static bool utf8_ok(const char *s)
{
	json_t *j = json_string(s);
	json_decref(j);
	return j != NULL;
}

static int check_policy(const struct sigv4_post_policy *p, char *err, size_t errlen)
{
	if (!p->bucket || !*p->bucket || !p->key_prefix)
		return error_set(err, errlen,
				 "sigv4: a POST policy needs a bucket and a key prefix");
	if (!utf8_ok(p->bucket) || !utf8_ok(p->key_prefix))
		return error_set(err, errlen, "sigv4: bucket or key prefix is not UTF-8");
	return 0;
}

json_t *sigv4_post_fields(const struct sigv4_credentials *cred, const struct sigv4_scope *scope,
			  const struct sigv4_post_policy *p, char *err, size_t errlen)
{
	struct scope_text t;
	char expiration[21], sig[SIGV4_HEX_LEN + 1];
	json_t *doc = NULL, *fields = NULL;
	char *text = NULL, *b64 = NULL;

	if (check_common(cred, scope, p->expires_s, err, errlen) || check_policy(p, err, errlen) ||
	    scope_text(cred, scope, &t, err, errlen))
		return NULL;
	if (sigv4_iso_time(scope->when + (time_t)p->expires_s, expiration)) {
		error_set(err, errlen, "sigv4: the expiry time is out of range");
		return NULL;
	}
	doc = policy_document(cred, &t, p, expiration);
	/* Compact and in insertion order: the bytes signed are the bytes sent. */
	text = doc ? json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	b64 = text ? sigv4_base64(text, strlen(text)) : NULL;
	if (!b64 || sigv4_sign(cred->secret_key, scope, b64, sig))
		error_set(err, errlen, "sigv4: building the POST policy failed (out of memory)");
	else if (!(fields = form_fields(cred, &t, b64, sig)))
		error_set(err, errlen, "sigv4: out of memory");
	json_decref(doc);
	free(text);
	free(b64);
	return fields;
}
