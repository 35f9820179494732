/* presign.c - artifact names, keys and the upload block for a run. */
#include "launch/presign.h"
#include "lib/lib.h"
#include "run/run.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch/internal.h"
#include "model/model.h"
#include "results/results.h"

static unsigned long long unit_seconds(char unit)
{
	switch (unit) {
	case 's':
		return 1;
	case 'm':
		return 60;
	case 'h':
		return 3600;
	case 'd':
		return 86400;
	default:
		return 0;
	}
}

int presign_parse_expires(const char *text, unsigned *seconds, char *err, size_t errlen)
{
	char *end = (char *)text;
	unsigned long long n = isdigit((unsigned char)text[0]) ? strtoull(text, &end, 10) : 0;
	unsigned long long unit = n > 0 && end[0] && !end[1] ? unit_seconds(end[0]) : 0;

	if (!unit || n > SIGV4_MAX_EXPIRES || n * unit > SIGV4_MAX_EXPIRES) {
		snprintf(err, errlen,
			 "--expires '%s': want a number with s, m, h or d (30m, 6h, 7d), "
			 "at most 7d",
			 text);
		return -1;
	}
	*seconds = (unsigned)(n * unit);
	return 0;
}

/* ---- where to ---- */

static bool host_char_ok(char c)
{
	return isalnum((unsigned char)c) || strchr(".-_:[]", c);
}

/* scheme://host[:port][/]: the part after the scheme into ep->host. */
static int endpoint_host(const char *rest, const char *url, struct presign_endpoint *ep, char *err,
			 size_t errlen)
{
	size_t n = strcspn(rest, "/?#");
	if (!n || n >= sizeof(ep->host) || (rest[n] && strcmp(rest + n, "/"))) {
		snprintf(err, errlen,
			 "--endpoint '%s': want scheme://host[:port] with no path "
			 "(the bucket goes in the path)",
			 url);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (!host_char_ok(rest[i]))
			return error_set(err, errlen,
					 "--endpoint '%s': unexpected '%c' in the host", url,
					 rest[i]);
	}
	memcpy(ep->host, rest, n);
	ep->host[n] = '\0';
	/* Clients send Host without a default port; the signature covers
	 * Host, so it must be left out here too. */
	const char *dflt = strcmp(ep->scheme, "https") ? ":80" : ":443";
	size_t dl = strlen(dflt);
	if (n > dl && !strcmp(ep->host + n - dl, dflt) && ep->host[n - dl - 1] != ':')
		ep->host[n - dl] = '\0';
	return 0;
}

int presign_endpoint(const char *url, const char *region, struct presign_endpoint *ep, char *err,
		     size_t errlen)
{
	memset(ep, 0, sizeof(*ep));
	if (!url) {
		bool china = !strncmp(region, "cn-", 3);
		snprintf(ep->scheme, sizeof(ep->scheme), "https");
		snprintf(ep->host, sizeof(ep->host), "s3.%s.amazonaws.com%s", region,
			 china ? ".cn" : "");
		return 0;
	}
	if (!strncmp(url, "https://", 8)) {
		snprintf(ep->scheme, sizeof(ep->scheme), "https");
		return endpoint_host(url + 8, url, ep, err, errlen);
	}
	if (!strncmp(url, "http://", 7)) {
		snprintf(ep->scheme, sizeof(ep->scheme), "http");
		return endpoint_host(url + 7, url, ep, err, errlen);
	}
	return error_set(err, errlen, "--endpoint '%s': want http:// or https://", url);
}

int presign_check_bucket(const char *b, char *err, size_t errlen)
{
	size_t n = strlen(b);
	bool ok = n >= 3 && n <= 63 && strspn(b, "abcdefghijklmnopqrstuvwxyz0123456789.-") == n &&
		  isalnum((unsigned char)b[0]) && isalnum((unsigned char)b[n - 1]);
	if (!ok)
		snprintf(err, errlen,
			 "--bucket '%s': S3 bucket names are 3-63 of a-z, 0-9, '.' and '-', "
			 "starting and ending with a letter or digit",
			 b);
	return ok ? 0 : -1;
}

/* Whether text has a "." or ".." segment between slashes. */
static bool has_dot_segment(const char *text)
{
	for (const char *s = text; *s;) {
		size_t n = strcspn(s, "/");
		if ((n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
			return true;
		s += n + (s[n] == '/');
	}
	return false;
}

int presign_prefix(const char *prefix, char *out, size_t cap, char *err, size_t errlen)
{
	while (*prefix == '/')
		prefix++;
	size_t n = strlen(prefix);
	bool slash = n && prefix[n - 1] != '/';
	if (has_dot_segment(prefix))
		return error_set(err, errlen,
				 "--prefix '%s': '.' and '..' segments would be rewritten", prefix);
	/* Room for the longest artifact name after it, within S3's limit. */
	if (n + slash + ARTIFACT_LOG_NAME_MAX >= cap)
		return error_set(err, errlen, "--prefix is too long (S3 keys are at most %d bytes)",
				 PRESIGN_MAX_KEY);
	snprintf(out, cap, "%s%s", prefix, slash ? "/" : "");
	return 0;
}

/* ---- what a run writes ---- */

static int add_name(struct presign_names *n, const char *name)
{
	for (size_t i = 0; i < n->count; i++)
		if (!strcmp(n->names[i], name))
			return 0; /* a phase listed twice writes one log */
	char **grown = realloc(n->names, (n->count + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	n->names = grown;
	n->names[n->count] = strdup(name);
	return n->names[n->count] ? (n->count++, 0) : -1;
}

/* What discovery would find for d, as far as the config tells it in
 * advance: its path (the kernel's name only when that is /dev/NAME) and
 * its size (else the test region's), for run_devices_add to make the
 * run_device a run of the same config would use. */
static void stand_in(struct discovered_device *found, const struct device_config *d,
		     uint64_t test_size)
{
	memset(found, 0, sizeof(*found));
	/* An EBS volume, as far as the plan can tell: its loadcurve steps (the
	 * model's sustained rate) get their names signed too. */
	found->ebs_like = true;
	found->kind = NVME_CTRL_EBS;
	snprintf(found->dev_path, sizeof(found->dev_path), "%s",
		 d->path[0] ? d->path : "/dev/null");
	if (!strncmp(d->path, "/dev/", 5) && !strchr(d->path + 5, '/'))
		snprintf(found->name, sizeof(found->name), "%s", d->path + 5);
	found->size_bytes =
		d->size_gib > 0 ? (uint64_t)(d->size_gib * (double)(1ull << 30)) : test_size;
}

static int names_from_plan(struct presign_names *n, const struct plan *p)
{
	const char *report[ARTIFACT_REPORT_COUNT];
	size_t report_count = plan_report_files(p, report);
	if (add_name(n, artifacts_name(ARTIFACT_RESULTS)))
		return -1;
	for (size_t i = 0; i < report_count; i++)
		if (add_name(n, report[i]))
			return -1;
	for (size_t i = 0; i < p->count; i++)
		if (add_name(n, p->steps[i].iops_log) ||
		    (p->steps[i].hist_log[0] && add_name(n, p->steps[i].hist_log)) ||
		    (p->steps[i].lat_log[0] && add_name(n, p->steps[i].lat_log)))
			return -1;
	n->planned_s = (double)p->total_ns / 1e9;
	return 0;
}

/* The devices a run of c would use, labelled as it labels them; -1 when
 * strict and a label is known only on the instance. */
static int stand_in_devices(struct run_device *devs, const struct run_config *c, bool strict,
			    char *err, size_t errlen)
{
	size_t count = 0;
	for (size_t i = 0; i < c->device_count; i++) {
		struct discovered_device found;
		char base[32];
		stand_in(&found, &c->devices[i], c->test_size);
		run_devices_add(devs, &count, &found, &c->devices[i]);
		if (devs[i].label[0])
			continue;
		if (strict) {
			snprintf(err, errlen,
				 "plan: devices[%zu] has no \"label\" or \"type\", so its file "
				 "names are known only on the instance: give it a label (or use "
				 "--post)",
				 i);
			return -1;
		}
		snprintf(base, sizeof(base), "device%zu", i);
		run_devices_label(devs, i, base);
	}
	return 0;
}

/* strict: the names must be the run's own.  Otherwise only the plan's
 * length matters: a device the kernel names on the instance gets a
 * stand-in label, and a config without devices estimates nothing. */
static int build_names(struct presign_names *n, const struct run_config *c, bool strict, char *err,
		       size_t errlen)
{
	struct run_device devs[CONFIG_MAX_DEVICES];
	struct plan p;
	int rc;

	memset(n, 0, sizeof(*n));
	if (!c->device_count && !strict)
		return 0;
	if (!c->device_count) {
		snprintf(err, errlen,
			 "plan: no \"devices\": a run would label what it discovers by kernel "
			 "name; list the devices with labels (or use --post)");
		return -1;
	}
	if (stand_in_devices(devs, c, strict, err, errlen) ||
	    plan_build(&p, c, devs, c->device_count, err, errlen))
		return -1;
	rc = names_from_plan(n, &p);
	plan_free(&p);
	if (rc) {
		presign_names_free(n);
		snprintf(err, errlen, "out of memory");
	}
	return rc;
}

int presign_names_from_config(struct presign_names *n, const struct run_config *c, char *err,
			      size_t errlen)
{
	return build_names(n, c, true, err, errlen);
}

int presign_plan_seconds(const struct run_config *c, double *seconds, char *err, size_t errlen)
{
	struct presign_names n;
	if (build_names(&n, c, false, err, errlen))
		return -1;
	*seconds = n.planned_s;
	presign_names_free(&n);
	return 0;
}

int presign_names_default(struct presign_names *n, char *err, size_t errlen)
{
	static const enum ebs_type reference_types[] = { EBS_GP2, EBS_GP3 };
	struct run_config c;
	config_defaults(&c);
	for (size_t i = 0; i < 2; i++) {
		c.devices[i].has_type = true;
		c.devices[i].type = reference_types[i];
		c.devices[i].size_gib = 100;
	}
	c.device_count = 2;
	return presign_names_from_config(n, &c, err, errlen);
}

void presign_names_free(struct presign_names *n)
{
	for (size_t i = 0; i < n->count; i++)
		free(n->names[i]);
	free(n->names);
	memset(n, 0, sizeof(*n));
}

/* ---- signing ---- */

static struct sigv4_scope scope_of(const struct presign_request *r)
{
	struct sigv4_scope s = { r->region, "s3", r->when };
	return s;
}

/* A presigned URL for method on the prefix's key name: NULL with err. */
static char *sign_key(const struct presign_request *r, const char *method, const char *name,
		      char *err, size_t errlen)
{
	struct sigv4_scope scope = scope_of(r);
	char path[PRESIGN_MAX_KEY + 80];
	int len = snprintf(path, sizeof(path), "/%s/%s%s", r->bucket, r->prefix, name);
	if (len < 0 || (size_t)len >= sizeof(path) ||
	    strlen(r->prefix) + strlen(name) > PRESIGN_MAX_KEY) {
		snprintf(err, errlen, "the key for %s is over %d bytes", name, PRESIGN_MAX_KEY);
		return NULL;
	}
	struct sigv4_url_request req = { .method = method,
					 .scheme = r->endpoint.scheme,
					 .host = r->endpoint.host,
					 .path = path,
					 .expires_s = r->expires_s };
	return sigv4_presign_url(&r->cred, &scope, &req, err, errlen);
}

static json_t *put_urls(const struct presign_request *r, const struct presign_names *n, char *err,
			size_t errlen)
{
	json_t *urls = json_object();
	for (size_t i = 0; urls && i < n->count; i++) {
		char *url = sign_key(r, "PUT", n->names[i], err, errlen);
		if (!url || json_object_set_new(urls, n->names[i], json_string(url))) {
			free(url);
			json_decref(urls);
			return NULL;
		}
		free(url);
	}
	return urls;
}

static json_t *wrap(const struct presign_request *r, const char *kind, json_t *body, char *err,
		    size_t errlen)
{
	char expires[21];
	json_t *out = NULL;
	/* resume_get: the run's own results.json, which `run --resume=auto`
	 * reads back when the output directory died with its pod. */
	char *get = body ? sign_key(r, "GET", RESULTS_FILE, err, errlen) : NULL;
	if (get && !sigv4_iso_time(r->when + (time_t)r->expires_s, expires))
		out = json_pack("{s{sOssss}}", "upload", kind, body, "resume_get", get, "expires",
				expires);
	free(get);
	if (body && !out && !err[0])
		snprintf(err, errlen, "out of memory");
	json_decref(body);
	return out;
}

json_t *presign_put_block(const struct presign_request *r, const struct presign_names *n, char *err,
			  size_t errlen)
{
	err[0] = '\0';
	return wrap(r, "put", put_urls(r, n, err, errlen), err, errlen);
}

json_t *presign_post_block(const struct presign_request *r, uint64_t max_bytes, char *err,
			   size_t errlen)
{
	struct sigv4_scope scope = scope_of(r);
	struct sigv4_post_policy policy = { r->bucket, r->prefix, r->expires_s, max_bytes };
	char url[sizeof(r->endpoint.host) + 96];
	json_t *fields, *post = NULL;

	err[0] = '\0';
	fields = sigv4_post_fields(&r->cred, &scope, &policy, err, errlen);
	snprintf(url, sizeof(url), "%s://%s/%s", r->endpoint.scheme, r->endpoint.host, r->bucket);
	if (fields)
		post = json_pack("{sssssO}", "url", url, "key_prefix", r->prefix, "fields", fields);
	json_decref(fields);
	return wrap(r, "post", post, err, errlen);
}
