/* aws_credentials_ini.c - the two text formats AWS credentials come in: the INI files
 * ~/.aws/credentials and ~/.aws/config as botocore's configparser reads
 * them, and a credential_process's JSON with its ISO 8601 Expiration. */
#include "upload/aws_credentials.h"
#include "upload/internal.h"

#include <ctype.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "lib/lib.h"

/* [b, e) without blanks at either end. */
static void trim(const char **b, const char **e)
{
	while (*b < *e && isspace((unsigned char)**b))
		(*b)++;
	while (*e > *b && isspace((unsigned char)(*e)[-1]))
		(*e)--;
}

/* Whether the header [b, e) names want, runs of blanks counting as one
 * ("[profile   dev]" is profile dev, as botocore splits it). */
static bool section_is(const char *b, const char *e, const char *want)
{
	while (b < e && *want) {
		if (isblank((unsigned char)*b) && *want == ' ') {
			while (b < e && isblank((unsigned char)*b))
				b++;
			want++;
			continue;
		}
		if (*b++ != *want++)
			return false;
	}
	return b == e && !*want;
}

static int copy_value(const char *b, const char *e, char *out, size_t cap)
{
	if ((size_t)(e - b) >= cap)
		return -1;
	memcpy(out, b, (size_t)(e - b));
	out[e - b] = '\0';
	return 0;
}

int aws_ini_value(const char *text, const char *section, const char *key, char *out, size_t cap)
{
	bool in_section = false, seen = false, after_key = false;
	size_t key_indent = 0;

	for (const char *p = text; *p;) {
		const char *b = p, *e = p + strcspn(p, "\n");
		p = *e ? e + 1 : e;
		size_t indent = strspn(b, " \t");
		trim(&b, &e);
		if (b == e || *b == '#' || *b == ';')
			continue;
		/* Indented under a key: that key's nested block, never a key. */
		if (after_key && indent > key_indent)
			continue;
		after_key = false;
		if (*b == '[') {
			const char *close = e;
			while (close > b && close[-1] != ']')
				close--;
			if (close <= b + 1)
				continue; /* no ']': not a header, and not a key either */
			const char *hb = b + 1, *he = close - 1;
			trim(&hb, &he);
			in_section = section_is(hb, he, section);
			seen |= in_section;
			continue;
		}
		const char *sep = b + strcspn(b, "=:");
		if (sep >= e)
			continue; /* configparser refuses such a line; we skip it */
		after_key = true;
		key_indent = indent;
		const char *kb = b, *ke = sep, *vb = sep + 1, *ve = e;
		trim(&kb, &ke);
		trim(&vb, &ve);
		if (!in_section || (size_t)(ke - kb) != strlen(key) ||
		    strncasecmp(kb, key, (size_t)(ke - kb)))
			continue;
		return copy_value(vb, ve, out, cap);
	}
	return seen ? 1 : 2;
}

/* "+HH:MM", "+HHMM" or "Z" at s into seconds east of UTC; -1 if neither. */
static long utc_offset(const char *s)
{
	int h, m;
	if (!strcmp(s, "Z"))
		return 0;
	if ((s[0] != '+' && s[0] != '-') || strlen(s) < 5 ||
	    (sscanf(s + 1, "%2d:%2d", &h, &m) != 2 && sscanf(s + 1, "%2d%2d", &h, &m) != 2) ||
	    h > 23 || m > 59 || strspn(s + 1, "0123456789:") != strlen(s + 1))
		return -1;
	return (s[0] == '-' ? -1 : 1) * (h * 3600L + m * 60L);
}

int aws_parse_iso_time(const char *text, time_t *when)
{
	struct tm tm;
	int used = 0;
	memset(&tm, 0, sizeof(tm));
	if (sscanf(text, "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
		   &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &used) != 6 ||
	    used != 19 || tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 ||
	    tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60)
		return -1;
	const char *rest = text + used;
	if (*rest == '.') /* fractions of a second: not needed for an expiry */
		rest += 1 + strspn(rest + 1, "0123456789");
	long offset = utc_offset(rest);
	if (offset == -1 && strcmp(rest, "-00:00"))
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	*when = timegm(&tm) - (offset == -1 ? 0 : offset);
	return 0;
}

/* A string member of o copied into out: 0, 1 when absent or null, -1 when
 * not a string or too long. */
static int member(const json_t *o, const char *name, char *out, size_t cap)
{
	const json_t *v = json_object_get(o, name);
	if (!v || json_typeof(v) == JSON_NULL)
		return 1;
	if (!json_is_string(v) || json_string_length(v) >= cap)
		return -1;
	memcpy(out, json_string_value(v), json_string_length(v) + 1);
	return 0;
}

/* The Expiration into c->expires (0 when there is none): 0, or -1 when
 * it is not a time or has passed. */
static int check_expiration(struct aws_credentials *c, const json_t *doc, time_t now, char *err,
			    size_t errlen)
{
	char text[64], when[21];
	time_t t;
	int rc = member(doc, "Expiration", text, sizeof(text));
	c->expires = 0;
	if (rc == 1)
		return 0;
	if (rc || aws_parse_iso_time(text, &t))
		return error_set(err, errlen, "its Expiration is not an ISO 8601 time");
	c->expires = t;
	if (t > now)
		return 0;
	struct tm tm;
	if (!gmtime_r(&t, &tm) || !strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm))
		when[0] = '\0';
	return error_set(err, errlen, "the credentials it printed expired at %s", when);
}

int aws_process_output(struct aws_credentials *c, const char *json, time_t now, char *err,
		       size_t errlen)
{
	json_error_t je;
	/* je's text may quote the input, which holds the secret: never shown. */
	json_t *doc = json_loads(json, JSON_REJECT_DUPLICATES, &je);
	int rc = -1;

	c->access_key_id[0] = c->secret_key[0] = c->session_token[0] = '\0';
	if (!json_is_object(doc))
		error_set(err, errlen, "it printed no JSON object");
	else if (json_integer_value(json_object_get(doc, "Version")) != 1)
		error_set(err, errlen, "its output has no \"Version\": 1");
	else if (member(doc, "AccessKeyId", c->access_key_id, sizeof(c->access_key_id)) ||
		 !c->access_key_id[0])
		error_set(err, errlen, "its output has no AccessKeyId (or one too long)");
	else if (member(doc, "SecretAccessKey", c->secret_key, sizeof(c->secret_key)) ||
		 !c->secret_key[0])
		error_set(err, errlen, "its output has no SecretAccessKey (or one too long)");
	else if (member(doc, "SessionToken", c->session_token, sizeof(c->session_token)) == -1)
		error_set(err, errlen, "its SessionToken is not a string or too long");
	else
		rc = check_expiration(c, doc, now, err, errlen);
	json_decref(doc);
	return rc;
}
