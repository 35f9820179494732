/* upload_request.c - what every request of the folder shares: the wait
 * between retries, the "uploads" record with its URL redacted, and the
 * secrets a reply may echo blanked before anything is logged. */
#include "upload/upload_request.h"

#include <string.h>

#include "lib/lib.h"
#include "net/net.h"
#include "results/results.h"

/* Exponential from 500 ms, capped at 20 s, half of it random. */
unsigned upload_backoff_ms(unsigned attempt, uint32_t rnd)
{
	unsigned shift = attempt > 0 ? attempt - 1 : 0;
	unsigned d = shift >= 6 ? 20000 : 500u << shift; /* 500 ms .. 16 s, then 20 s */
	if (d > 20000)
		d = 20000;
	/* Half fixed, half random: clients that failed together spread out. */
	return d / 2 + rnd % (d / 2 + 1);
}

/* url_redact() cut at the query: where it went, without credentials. */
void upload_url_shown(const char *url, char *out, size_t outlen)
{
	if (!outlen)
		return;
	url_redact(url, out, outlen);
	out[strcspn(out, "?#")] = '\0';
}

/* One results.json "uploads" entry, its URL shown as above. */
json_t *upload_record(const char *artifact, const char *url, const char *status, unsigned attempts,
		      int http_status, const char *error)
{
	char shown[2048];
	json_t *o = json_pack("{ss}", "artifact", artifact);
	if (url)
		upload_url_shown(url, shown, sizeof(shown));
	json_object_set_new(o, "url", url ? json_string(shown) : json_null());
	json_object_set_new(o, "status", json_string(status));
	json_object_set_new(o, "attempts", json_integer(attempts));
	json_object_set_new(o, "http_status",
			    http_status ? json_integer(http_status) : json_null());
	json_object_set_new(o, "error", error && error[0] ? json_string(error) : json_null());
	return o;
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

void upload_scrub(char *text, const struct upload_config *c, const char *url)
{
	const char *q = strchr(url, '?'), *name;
	json_t *v;
	while (q && (*q == '?' || *q == '&')) {
		q++;
		size_t len = strcspn(q, "&#"), eq = strcspn(q, "=");
		if (eq < len && url_param_secret(q, eq))
			scrub_value(text, q + eq + 1, len - eq - 1);
		q += len;
	}
	json_object_foreach(c->post_fields, name, v)
	{
		if (url_param_secret(name, strlen(name)) && json_is_string(v))
			scrub_value(text, json_string_value(v), json_string_length(v));
	}
}
