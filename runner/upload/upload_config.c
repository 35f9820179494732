/* upload_config.c - the "upload" block, strictly parsed, and the check that
 * every URL outlives the run before the run starts. */
#include "lib/lib.h"
#include "upload/upload.h"
#include "upload/upload_config.h"

#include <ctype.h>
#include <errno.h>
#include <mbedtls/base64.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "upload/sigv4.h"
#include "net/net.h"

/* A URL must parse and be https: over plain HTTP its signature, a bearer
 * credential, would cross the network in clear. */
static int check_url(const char *url, const char *what, char *err, size_t errlen)
{
	struct url u;
	char why[160];
	if (!url || url_parse(url, &u, why, sizeof(why)))
		return error_set(err, errlen, "config: %s: %s", what,
				 url ? why : "want a URL string");
	if (!u.https) {
		snprintf(err, errlen,
			 "config: %s: http:// would send the URL's credentials in clear: use "
			 "https://",
			 what);
		return -1;
	}
	return 0;
}

/* An artifact is a plain file name in the results directory. */
static bool artifact_name_ok(const char *name)
{
	return name[0] && strlen(name) < 128 && !strchr(name, '/') && strcmp(name, ".") &&
	       strcmp(name, "..");
}

static int parse_put(struct upload_config *u, json_t *v, char *err, size_t errlen)
{
	const char *name;
	json_t *url;
	char what[200];
	if (!json_is_object(v) || !json_object_size(v))
		return error_set(err, errlen, "config: 'upload.put' must map file names to URLs");
	json_object_foreach(v, name, url)
	{
		snprintf(what, sizeof(what), "upload.put[\"%.120s\"]", name);
		if (!artifact_name_ok(name))
			return error_set(err, errlen, "config: %s: not a file name", what);
		if (check_url(json_string_value(url), what, err, errlen))
			return -1;
	}
	u->put = json_incref(v);
	u->mode = UPLOAD_PUT;
	return 0;
}

/* A field's name and value go into a part header and body verbatim. */
static int check_fields(const json_t *fields, char *err, size_t errlen)
{
	const char *name;
	json_t *v;
	json_object_foreach((json_t *)fields, name, v)
	{
		const char *s = json_string_value(v);
		bool bad_name = !name[0] || strpbrk(name, "\"\r\n") || !strcasecmp(name, "file");
		if (bad_name || !s || strpbrk(s, "\r\n")) {
			snprintf(err, errlen,
				 "config: upload.post.fields[\"%.60s\"]: want a string value, "
				 "no line breaks, not \"file\"",
				 name);
			return -1;
		}
	}
	return 0;
}

/* key_prefix, or what boto3's generate_presigned_post(Key="P/${filename}")
 * puts in fields.key. */
static int post_prefix(struct upload_config *u, json_t *v, char *err, size_t errlen)
{
	static const char tail[] = "${filename}";
	json_t *prefix = json_object_get(v, "key_prefix");
	const char *key = json_string_value(json_object_get(u->post_fields, "key"));
	size_t n = key ? strlen(key) : 0, t = sizeof(tail) - 1;
	if (prefix && json_is_string(prefix) && json_string_length(prefix) < UPLOAD_KEY_MAX - 128) {
		snprintf(u->key_prefix, sizeof(u->key_prefix), "%s", json_string_value(prefix));
		return 0;
	}
	if (!prefix && n >= t && !strcmp(key + n - t, tail) && n - t < UPLOAD_KEY_MAX - 128) {
		snprintf(u->key_prefix, sizeof(u->key_prefix), "%.*s", (int)(n - t), key);
		return 0;
	}
	snprintf(err, errlen,
		 "config: upload.post needs \"key_prefix\" (a string), or a fields.key ending "
		 "in ${filename}");
	return -1;
}

static int parse_post(struct upload_config *u, json_t *v, char *err, size_t errlen)
{
	const char *key;
	json_t *item;
	if (!json_is_object(v))
		return error_set(err, errlen,
				 "config: 'upload.post' must be {url, fields, key_prefix}");
	json_object_foreach(v, key, item)
	{
		if (strcmp(key, "url") && strcmp(key, "fields") && strcmp(key, "key_prefix"))
			return error_set(err, errlen, "config: unknown key 'upload.post.%s'", key);
	}
	u->post_fields = json_object_get(v, "fields");
	u->post_url = json_string_value(json_object_get(v, "url"));
	if (!json_is_object(u->post_fields))
		return error_set(err, errlen, "config: 'upload.post.fields' must be an object");
	if (check_url(u->post_url, "upload.post.url", err, errlen) ||
	    check_fields(u->post_fields, err, errlen) || post_prefix(u, v, err, errlen))
		return -1;
	u->post = json_incref(v);
	u->mode = UPLOAD_POST;
	return 0;
}

static int get_limit(json_t *v, const char *key, double max, double *out, char *err, size_t errlen)
{
	double d = json_number_value(v);
	if (!json_is_number(v) || d <= 0 || d > max)
		return error_set(err, errlen, "config: 'upload.%s' must be a number in (0, %g]",
				 key, max);
	*out = d;
	return 0;
}

static int parse_member(struct upload_config *u, const char *key, json_t *v, char *err,
			size_t errlen)
{
	double n = 0;
	if (!strcmp(key, "put"))
		return parse_put(u, v, err, errlen);
	if (!strcmp(key, "post"))
		return parse_post(u, v, err, errlen);
	if (!strcmp(key, "expires"))
		return json_is_string(v) ? 0 : -1; /* the URLs' own expiry counts */
	if (!strcmp(key, "ca_file")) {
		const char *s = json_string_value(v);
		if (!s || !s[0] || strlen(s) >= sizeof(u->ca_file))
			return -1;
		snprintf(u->ca_file, sizeof(u->ca_file), "%s", s);
		return 0;
	}
	if (!strcmp(key, "resume_get")) {
		if (check_url(json_string_value(v), "upload.resume_get", err, errlen))
			return -1;
		free(u->resume_get);
		u->resume_get = strdup(json_string_value(v));
		return u->resume_get ? 0 : error_set(err, errlen, "out of memory");
	}
	if (!strcmp(key, "max_retry_s"))
		return get_limit(v, key, 3600, &u->max_retry_s, err, errlen);
	if (!strcmp(key, "timeout_s"))
		return get_limit(v, key, 600, &u->timeout_s, err, errlen);
	if (!strcmp(key, "max_attempts")) {
		if (get_limit(v, key, 20, &n, err, errlen) || n != (unsigned)n)
			return -1;
		u->max_attempts = (unsigned)n;
		return 0;
	}
	return error_set(err, errlen, "config: unknown key 'upload.%s'", key);
}

int upload_config_parse(struct upload_config *u, json_t *v, char *err, size_t errlen)
{
	const char *key;
	json_t *item;
	upload_config_free(u);
	u->max_attempts = UPLOAD_MAX_ATTEMPTS_DEFAULT;
	u->max_retry_s = UPLOAD_MAX_RETRY_S_DEFAULT;
	u->timeout_s = UPLOAD_TIMEOUT_S_DEFAULT;
	if (!json_is_object(v))
		return error_set(err, errlen,
				 "config: 'upload' must be an object with put or post");
	if (json_object_get(v, "put") && json_object_get(v, "post"))
		return error_set(err, errlen, "config: 'upload' takes put or post, not both");
	err[0] = '\0';
	json_object_foreach(v, key, item)
	{
		if (parse_member(u, key, item, err, errlen))
			return err[0] ? -1
				      : error_set(err, errlen,
						  "config: 'upload.%s' has the wrong type", key);
	}
	if (u->mode == UPLOAD_NONE)
		return error_set(err, errlen,
				 "config: 'upload' needs put (URLs) or post (a policy)");
	return 0;
}

void upload_config_free(struct upload_config *u)
{
	json_decref(u->put);
	json_decref(u->post);
	free(u->resume_get);
	memset(u, 0, sizeof(*u));
}

/* ---- expiry ---- */

/* The raw value of query parameter name (case-insensitive) in url. */
static bool query_param(const char *url, const char *name, char *out, size_t outlen)
{
	const char *p = strchr(url, '?');
	size_t n = strlen(name);
	/* p sits on the '?' or '&' before each parameter; '#' ends the query. */
	while (p && (*p == '?' || *p == '&')) {
		p++;
		size_t len = strcspn(p, "&#");
		if (len > n && p[n] == '=' && !strncasecmp(p, name, n)) {
			snprintf(out, outlen, "%.*s", (int)(len - n - 1), p + n + 1);
			return true;
		}
		p += len;
	}
	return false;
}

static int parse_seconds(const char *s, long long *out)
{
	char *end;
	errno = 0;
	long long v = isdigit((unsigned char)s[0]) ? strtoll(s, &end, 10) : -1;
	if (v < 0 || errno || *end)
		return -1;
	*out = v;
	return 0;
}

int upload_config_url_expiry(const char *url, time_t *expires)
{
	char date[32], secs[32];
	long long n;
	time_t when;
	bool has_date = query_param(url, "X-Amz-Date", date, sizeof(date));
	bool has_secs = query_param(url, "X-Amz-Expires", secs, sizeof(secs));
	if (has_date || has_secs) {
		if (!has_date || !has_secs || sigv4_parse_amz_date(date, &when) ||
		    parse_seconds(secs, &n) || n > 100LL * 365 * 86400)
			return -1;
		*expires = when + (time_t)n;
		return 1;
	}
	if (query_param(url, "Expires", secs, sizeof(secs))) { /* SigV2: a Unix time */
		if (parse_seconds(secs, &n))
			return -1;
		*expires = (time_t)n;
		return 1;
	}
	return 0;
}

/* "2026-09-02T06:00:00Z" or with fractions, "...:00.000Z", as boto3 writes. */
static int parse_iso(const char *s, time_t *when)
{
	struct tm tm;
	int n = 0;
	memset(&tm, 0, sizeof(tm));
	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
		   &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &n) != 6 ||
	    n != 19)
		return -1;
	const char *rest = s + n;
	if (*rest == '.')
		for (rest++; isdigit((unsigned char)*rest); rest++)
			;
	if (strcmp(rest, "Z"))
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	*when = timegm(&tm);
	return 0;
}

int upload_config_policy_expiry(const char *policy_b64, time_t *expires)
{
	size_t len = strlen(policy_b64), olen = 0;
	unsigned char *text = malloc(len + 1);
	json_t *doc = NULL;
	int rc = -1;
	if (text &&
	    !mbedtls_base64_decode(text, len, &olen, (const unsigned char *)policy_b64, len)) {
		doc = json_loadb((const char *)text, olen, 0, NULL);
		const char *exp = json_string_value(json_object_get(doc, "expiration"));
		rc = exp ? parse_iso(exp, expires) : -1;
	}
	json_decref(doc);
	free(text);
	return rc;
}

time_t upload_config_deadline(time_t now, double planned_s)
{
	return now + (time_t)(planned_s * (1 + UPLOAD_EXPIRY_SLACK) + UPLOAD_EXPIRY_MARGIN_S + 0.5);
}

/* The artifact whose URL expires first (or the policy): -1 if one is
 * unreadable (named in err). */
static int earliest(const struct upload_config *u, time_t *when, char *what, size_t whatlen,
		    char *err, size_t errlen)
{
	const char *name;
	json_t *url;
	time_t t;
	if (u->mode == UPLOAD_POST) {
		const char *policy = json_string_value(json_object_get(u->post_fields, "policy"));
		if (!policy)
			return 0; /* no policy, no expiry to check */
		if (upload_config_policy_expiry(policy, &t)) {
			snprintf(err, errlen,
				 "config: upload.post: cannot read the policy's "
				 "expiration");
			return -1;
		}
		snprintf(what, whatlen, "the upload.post policy");
		*when = t;
		return 1;
	}
	int found = 0;
	json_object_foreach(u->put, name, url)
	{
		int rc = upload_config_url_expiry(json_string_value(url), &t);
		if (rc < 0) {
			snprintf(err, errlen,
				 "config: upload.put[\"%.120s\"]: unreadable X-Amz-Date or "
				 "X-Amz-Expires",
				 name);
			return -1;
		}
		if (rc && (!found || t < *when)) {
			*when = t;
			snprintf(what, whatlen, "the upload URL for %s", name);
			found = 1;
		}
	}
	return found;
}

int upload_config_check(const struct upload_config *u, time_t now, double planned_s, char *err,
			size_t errlen)
{
	char what[200], at[21], end_at[21];
	time_t expires = 0, end = upload_config_deadline(now, planned_s);
	if (u->mode == UPLOAD_NONE)
		return 0;
	if (u->ca_file[0] && access(u->ca_file, R_OK))
		return error_set(err, errlen, "config: upload.ca_file %s: %s", u->ca_file,
				 strerror(errno));
	int rc = earliest(u, &expires, what, sizeof(what), err, errlen);
	if (rc <= 0 || expires >= end)
		return rc < 0 ? -1 : 0;
	if (sigv4_iso_time(expires, at))
		snprintf(at, sizeof(at), "?");
	if (sigv4_iso_time(end, end_at))
		snprintf(end_at, sizeof(end_at), "?");
	snprintf(err, errlen,
		 "%s expires at %s, before the run's estimated end at %s (plan %.0f s + 10 %% + "
		 "5 min): presign again with a longer expiry",
		 what, at, end_at, planned_s);
	return -1;
}
