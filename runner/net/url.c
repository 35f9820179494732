/* url.c - parse http(s) URLs without touching the target's encoding, and
 * redact presigned-URL credentials for logs. */
#include "net/url.h"
#include "net/internal.h"
#include "lib/lib.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Query and form parameters whose values are credentials: SigV4 and SigV2
 * presigning, and a POST policy's fields. */
const char *const url_secret_params[] = {
	"X-Amz-Signature", "X-Amz-Credential", "X-Amz-Security-Token",
	"Signature",	   "AWSAccessKeyId",
};
const size_t url_secret_param_count = ARRAY_SIZE(url_secret_params);

#define REDACTED "REDACTED"

/* Anything at or below space, DEL or non-ASCII would end up raw in the
 * request line, where it could split or smuggle a request. */
static const char *bad_byte(const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c <= 0x20 || c >= 0x7f)
			return s;
	}
	return NULL;
}

static int parse_scheme(const char **s, struct url *u)
{
	if (strncasecmp(*s, "https://", 8) == 0) {
		u->https = true;
		*s += 8;
		return 0;
	}
	if (strncasecmp(*s, "http://", 7) == 0) {
		u->https = false;
		*s += 7;
		return 0;
	}
	return -1;
}

static int parse_port(const char *p, size_t n, unsigned *port)
{
	unsigned v = 0;
	size_t i;

	if (n == 0 || n > 5)
		return -1;
	for (i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		v = v * 10 + (unsigned)(p[i] - '0');
	}
	if (v == 0 || v > 65535)
		return -1;
	*port = v;
	return 0;
}

static bool reg_name_ok(const char *h, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char c = h[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_';
		if (!ok)
			return false;
	}
	return n > 0;
}

/* host, [v6] or either with :port; auth is not NUL-terminated. */
static int parse_authority(const char *auth, size_t n, struct url *u, char *err, size_t errlen)
{
	const char *host = auth, *colon;
	size_t hlen;
	unsigned char v6[16];

	if (memchr(auth, '@', n))
		return error_set(err, errlen, "URL: credentials in the URL are not supported");
	if (n > 0 && auth[0] == '[') {
		const char *close = memchr(auth, ']', n);
		if (!close)
			return error_set(err, errlen, "URL: unterminated IPv6 literal");
		host = auth + 1;
		hlen = (size_t)(close - host);
		colon = close + 1 < auth + n ? close + 1 : NULL;
		if (colon && *colon != ':')
			return error_set(err, errlen, "URL: junk after IPv6 literal");
		u->ipv6_literal = true;
	} else {
		colon = memchr(auth, ':', n);
		hlen = colon ? (size_t)(colon - auth) : n;
	}
	if (hlen == 0)
		return error_set(err, errlen, "URL: missing host");
	if (hlen >= sizeof(u->host))
		return error_set(err, errlen, "URL: host name too long");
	memcpy(u->host, host, hlen);
	u->host[hlen] = '\0';
	if (u->ipv6_literal ? inet_pton(AF_INET6, u->host, v6) != 1 : !reg_name_ok(host, hlen))
		return error_set(err, errlen, "URL: %s",
				 u->ipv6_literal ? "bad IPv6 literal" : "bad host name");
	if (colon) {
		if (parse_port(colon + 1, (size_t)(auth + n - colon - 1), &u->port))
			return error_set(err, errlen, "URL: bad port");
		u->port_given = true;
	}
	return 0;
}

int url_parse(const char *s, struct url *u, char *err, size_t errlen)
{
	const char *auth, *end;

	memset(u, 0, sizeof(*u));
	if (bad_byte(s))
		return error_set(err, errlen, "URL: contains a space, control or non-ASCII byte");
	if (parse_scheme(&s, u))
		return error_set(err, errlen, "URL: scheme must be http:// or https://");
	u->port = u->https ? 443 : 80;
	auth = s;
	end = auth + strcspn(auth, "/?#");
	if (parse_authority(auth, (size_t)(end - auth), u, err, errlen))
		return -1;
	u->target = end;
	u->target_len = strcspn(end, "#");
	return 0;
}

int url_host_header(const struct url *u, char *buf, size_t len)
{
	unsigned dflt = u->https ? 443 : 80;
	const char *l = u->ipv6_literal ? "[" : "", *r = u->ipv6_literal ? "]" : "";
	int n;

	if (u->port != dflt)
		n = snprintf(buf, len, "%s%s%s:%u", l, u->host, r, u->port);
	else
		n = snprintf(buf, len, "%s%s%s", l, u->host, r);
	return n < 0 || (size_t)n >= len ? -1 : n;
}

/* Bounded appends that keep counting past the end, as snprintf does. */
struct out {
	char *buf;
	size_t cap, len;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->len < o->cap) {
		size_t room = o->cap - o->len;
		memcpy(o->buf + o->len, s, n < room ? n : room);
	}
	o->len += n;
}

bool url_param_secret(const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < url_secret_param_count; i++)
		if (strlen(url_secret_params[i]) == n &&
		    strncasecmp(name, url_secret_params[i], n) == 0)
			return true;
	return false;
}

/* One name=value pair of the query: the value goes if the name is secret. */
static void put_param(struct out *o, const char *p, size_t n)
{
	const char *eq = memchr(p, '=', n);

	if (eq && url_param_secret(p, (size_t)(eq - p))) {
		put(o, p, (size_t)(eq - p) + 1);
		put(o, REDACTED, strlen(REDACTED));
	} else {
		put(o, p, n);
	}
}

static void put_query(struct out *o, const char *q, size_t n)
{
	const char *end = q + n;

	while (q < end) {
		const char *amp = memchr(q, '&', (size_t)(end - q));
		size_t len = amp ? (size_t)(amp - q) : (size_t)(end - q);

		put_param(o, q, len);
		q += len;
		if (amp) {
			put(o, "&", 1);
			q++;
		}
	}
}

/* scheme://[userinfo@]authority, with any userinfo redacted; returns the
 * rest of the URL. */
static const char *put_prefix(struct out *o, const char *url)
{
	const char *sep = strstr(url, "://"), *auth, *end, *at;

	if (!sep || url + strcspn(url, "/?#") < sep)
		return url;
	auth = sep + 3;
	end = auth + strcspn(auth, "/?#");
	put(o, url, (size_t)(auth - url));
	at = memchr(auth, '@', (size_t)(end - auth));
	if (at) {
		put(o, REDACTED, strlen(REDACTED));
		auth = at;
	}
	put(o, auth, (size_t)(end - auth));
	return end;
}

size_t url_redact(const char *url, char *out, size_t outlen)
{
	struct out o = { out, outlen ? outlen - 1 : 0, 0 };
	const char *rest = put_prefix(&o, url);
	size_t path = strcspn(rest, "?#");

	put(&o, rest, path);
	rest += path;
	if (*rest == '?') {
		put(&o, "?", 1);
		rest++;
		size_t query = strcspn(rest, "#");

		put_query(&o, rest, query);
		rest += query;
	}
	put(&o, rest, strlen(rest));
	if (outlen)
		out[o.len < o.cap ? o.len : o.cap] = '\0';
	return o.len;
}
