/* imds.c - IMDSv2 over runner/net/http.c on plain TCP: the endpoint is
 * link-local and has no TLS, so ebsbench-init links net/tls_none.c and no
 * mbedTLS (an https:// ebsbench.imds= fails with "https is not built into
 * this binary"). */
#include "imds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "net/net.h"

/* User-data is at most 16 KiB on EC2; leave room. */
#define IMDS_BODY_MAX (64 * 1024)

static void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* One request, retried on failures a retry can cure.  0 with resp filled
 * (any status), -1 with err. */
static int imds_request(const char *url, enum http_method method, const struct http_header *h,
			size_t nh, struct http_response *resp, char *err, size_t errlen)
{
	struct http_request req = { .method = method,
				    .url = url,
				    .headers = h,
				    .header_count = nh,
				    .body = "",
				    .body_len = 0,
				    .connect_timeout_ms = IMDS_TIMEOUT_MS,
				    .io_timeout_ms = IMDS_TIMEOUT_MS,
				    .total_timeout_ms = IMDS_TIMEOUT_MS + 500,
				    .body_max = IMDS_BODY_MAX };
	for (int attempt = 1;; attempt++) {
		memset(resp, 0, sizeof(*resp));
		if (http_request(&req, resp, err, errlen) == 0 && resp->status < 500)
			return 0;
		if (resp->kind == HTTP_OK)
			snprintf(err, errlen, "HTTP %d", resp->status);
		if (attempt == IMDS_ATTEMPTS)
			return -1;
		http_response_free(resp);
		pause_ms(500L * attempt);
	}
}

int imds_open(struct imds *m, const char *base, char *err, size_t errlen)
{
	char url[256], why[256] = "";
	snprintf(m->base, sizeof(m->base), "%s", base && base[0] ? base : IMDS_BASE_DEFAULT);
	snprintf(url, sizeof(url), "%s/latest/api/token", m->base);
	const struct http_header ttl = { "X-aws-ec2-metadata-token-ttl-seconds", "21600" };
	struct http_response resp;
	int rc = imds_request(url, HTTP_PUT, &ttl, 1, &resp, why, sizeof(why));
	if (rc == 0 && (resp.status != 200 || !resp.body || !resp.body_len ||
			resp.body_len >= sizeof(m->token))) {
		snprintf(why, sizeof(why), "token request answered HTTP %d", resp.status);
		rc = -1;
	}
	if (rc == 0)
		snprintf(m->token, sizeof(m->token), "%s", resp.body);
	else
		snprintf(err, errlen, "IMDS unreachable at %s: %s", m->base, why);
	http_response_free(&resp);
	return rc;
}

int imds_get(const struct imds *m, const char *path, char **body, char *err, size_t errlen)
{
	char url[512], why[256] = "";
	snprintf(url, sizeof(url), "%s%s", m->base, path);
	const struct http_header tok = { "X-aws-ec2-metadata-token", m->token };
	struct http_response resp;
	*body = NULL;
	int rc = imds_request(url, HTTP_GET, &tok, 1, &resp, why, sizeof(why));
	if (rc == 0 && resp.status == 404) {
		rc = 0;
	} else if (rc == 0 && resp.status == 200 && !resp.body_truncated) {
		*body = resp.body;
		resp.body = NULL;
		rc = 1;
	} else {
		if (rc == 0)
			snprintf(why, sizeof(why), "HTTP %d%s", resp.status,
				 resp.body_truncated ? " (body too long)" : "");
		snprintf(err, errlen, "IMDS GET %s: %s", path, why);
		rc = -1;
	}
	http_response_free(&resp);
	return rc;
}

static void read_fact(const struct imds *m, const char *path, char *out, size_t len)
{
	char *body = NULL, err[256];
	if (imds_get(m, path, &body, err, sizeof(err)) == 1 && strlen(body) < len)
		snprintf(out, len, "%.*s", (int)strcspn(body, "\r\n"), body);
	free(body);
}

void imds_read_facts(const struct imds *m, struct imds_facts *f)
{
	memset(f, 0, sizeof(*f));
	read_fact(m, "/latest/meta-data/instance-type", f->instance_type, sizeof(f->instance_type));
	read_fact(m, "/latest/meta-data/instance-id", f->instance_id, sizeof(f->instance_id));
	read_fact(m, "/latest/meta-data/placement/availability-zone", f->zone, sizeof(f->zone));
}
