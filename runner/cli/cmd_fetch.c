/* cmd_fetch.c - `ebsbench fetch s3://BUCKET/PREFIX/ [DIR]`: one run's
 * results back from S3 with the user's own credentials (the chain presign
 * uses), so `ebsbench report DIR` can render them again.
 *
 * stdout is the path of the report (report.html, else summary.md, else
 * the directory) and nothing else; progress and errors go to stderr, one
 * line each.  No URL, secret or token is printed.  Exit 0 done, 1 the
 * work failed (S3 refused, a local file differs, nothing under the
 * prefix), 2 usage or credentials. */
#include "cli/cli.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/lib.h"
#include "run/run.h"

#define EXIT_USAGE 2

static const char usage[] =
	"usage: ebsbench fetch s3://BUCKET/PREFIX/ [DIR] [--region R] [--endpoint URL]\n"
	"                      [--profile NAME] [--ca-file PEM] [--force]\n"
	"Downloads every object under the prefix (a run's results, as `ebsbench run`\n"
	"uploads them) into DIR (default: the prefix's last component), then prints\n"
	"the path of its report.html (else summary.md) on stdout.  A file already in\n"
	"DIR that differs is not replaced (the fetch stops) unless --force; equal\n"
	"files are left alone.  --region: else AWS_REGION, else AWS_DEFAULT_REGION.\n"
	"--endpoint: an S3-compatible server, http(s)://host[:port] (path-style).\n"
	"--ca-file: the server's CA bundle (default: the system's).\n"
	"Credentials as for presign: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and\n"
	"AWS_SESSION_TOKEN (skipped when --profile is given); then the profile\n"
	"(--profile, else AWS_PROFILE, else default): its keys in\n"
	"AWS_SHARED_CREDENTIALS_FILE (~/.aws/credentials), its credential_process,\n"
	"its keys in AWS_CONFIG_FILE (~/.aws/config).\n";

struct fetch_args {
	const char *url, *dir, *region, *endpoint, *profile, *ca_file;
	bool force;
};

static int usage_error(const char *what, const char *arg)
{
	return cli_usage_error("fetch", what, arg);
}

static int parse_one(int argc, char **argv, int *i, struct fetch_args *a)
{
	static const char *const names[] = { "--region", "--endpoint", "--profile", "--ca-file" };
	const char **slots[] = { &a->region, &a->endpoint, &a->profile, &a->ca_file };
	for (size_t k = 0; k < ARRAY_SIZE(names); k++) {
		int rc = cli_take_value("fetch", argc, argv, i, names[k], slots[k]);
		if (rc != 1)
			return rc;
	}
	if (!strcmp(argv[*i], "--force"))
		a->force = true;
	else if (argv[*i][0] == '-')
		return usage_error("unknown option", argv[*i]);
	else if (!a->url)
		a->url = argv[*i];
	else if (!a->dir)
		a->dir = argv[*i];
	else
		return usage_error("one S3 URL and one directory at most, not also", argv[*i]);
	return 0;
}

/* 0, -1 after --help, or EXIT_USAGE. */
static int parse_args(int argc, char **argv, struct fetch_args *a)
{
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage, stdout);
			return -1;
		}
		int rc = parse_one(argc, argv, &i, a);
		if (rc)
			return rc;
	}
	if (!a->url)
		return usage_error("which run? give s3://BUCKET/PREFIX/", NULL);
	a->region = cli_region(a->region);
	if (!a->region)
		return usage_error("--region is required (or AWS_REGION)", NULL);
	return 0;
}

/* s3://BUCKET/PREFIX into bucket and a prefix ending in '/' ("" for the
 * whole bucket). */
static int split_url(const char *url, char *bucket, size_t bcap, char *prefix, size_t pcap)
{
	char err[256];
	if (strncmp(url, "s3://", 5))
		return usage_error("the run's location is s3://BUCKET/PREFIX/, not", url);
	const char *b = url + 5;
	size_t n = strcspn(b, "/");
	if (n >= bcap)
		return usage_error("the bucket name is over 63 characters in", url);
	memcpy(bucket, b, n);
	bucket[n] = '\0';
	if (presign_check_bucket(bucket, err, sizeof(err)) ||
	    presign_prefix(b + n + (b[n] == '/'), prefix, pcap, err, sizeof(err))) {
		fprintf(stderr, "ebsbench fetch: %s\n", err);
		return EXIT_USAGE;
	}
	return 0;
}

/* The prefix's last component ("runs/7/" -> "7"), else the bucket. */
static void default_dir(const char *bucket, const char *prefix, char *out, size_t cap)
{
	size_t n = strlen(prefix);
	if (!n) {
		snprintf(out, cap, "%s", bucket);
		return;
	}
	const char *last = prefix + n - 1;
	while (last > prefix && last[-1] != '/')
		last--;
	snprintf(out, cap, "%.*s", (int)(prefix + n - 1 - last), last);
}

static void print_report_path(const char *dir)
{
	static const char *const names[] = { "report.html", "summary.md" };
	char path[4200];
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (!access(path, R_OK)) {
			printf("%s\n", path);
			return;
		}
	}
	printf("%s\n", dir);
}

static int fetch(const struct fetch_args *a, const struct presign_request *r, const char *dir)
{
	struct s3_fetch f = { .cred = &r->cred,
			      .region = a->region,
			      .scheme = r->endpoint.scheme,
			      .host = r->endpoint.host,
			      .bucket = r->bucket,
			      .prefix = r->prefix,
			      .dir = dir,
			      .ca_file = a->ca_file,
			      .force = a->force,
			      .progress = stderr };
	/* Pages of a few keys, so tests go through continuation tokens. */
	const char *page = getenv("EBSBENCH_FETCH_PAGE_KEYS");
	if (page)
		f.page_keys = (unsigned)strtoul(page, NULL, 10);
	char err[1024];
	int rc = s3_fetch_run(&f, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "ebsbench fetch: %s\n", err);
		return 1;
	}
	if (rc > 0) {
		fprintf(stderr, "ebsbench fetch: no objects under s3://%s/%s\n", r->bucket,
			r->prefix);
		return 1;
	}
	fprintf(stderr, "ebsbench fetch: %u objects, %llu bytes into %s (%u already there)\n",
		f.objects, (unsigned long long)f.bytes, dir, f.unchanged);
	print_report_path(dir);
	return fflush(stdout) ? 1 : 0;
}

int cmd_fetch(int argc, char **argv, const volatile sig_atomic_t *stop)
{
	(void)stop; /* each request is bounded; an interrupt ends the process */
	struct fetch_args a = { 0 };
	struct presign_request r;
	char bucket[64], dir[1100], err[1024];

	int rc = parse_args(argc, argv, &a);
	if (rc)
		return rc < 0 ? 0 : rc;
	memset(&r, 0, sizeof(r));
	r.bucket = bucket;
	r.region = a.region;
	if ((rc = split_url(a.url, bucket, sizeof(bucket), r.prefix, sizeof(r.prefix))))
		return rc;
	if (presign_endpoint(a.endpoint, a.region, &r.endpoint, err, sizeof(err)))
		return usage_error(err, NULL);
	if (aws_credentials_load(&r.aws, a.profile, time(NULL), err, sizeof(err))) {
		fprintf(stderr, "ebsbench fetch: %s\n", err);
		return EXIT_USAGE;
	}
	r.cred = (struct sigv4_credentials){ r.aws.access_key_id, r.aws.secret_key,
					     r.aws.session_token };
	if (a.dir)
		snprintf(dir, sizeof(dir), "%s", a.dir);
	else
		default_dir(bucket, r.prefix, dir, sizeof(dir));
	rc = fetch(&a, &r, dir);
	presign_request_clear(&r);
	return rc;
}
