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

#include "cli/internal.h"
#include "lib/lib.h"
#include "launch/launch.h"
#include "report/report.h"
#include "upload/upload.h"

static const char usage[] =
	"usage: ebsbench fetch s3://BUCKET/PREFIX/ [DIR] [--region R] [--endpoint URL]\n"
	"                      [--profile NAME] [--ca-file PEM] [--force] [--wait [--fleet N]]\n"
	"Downloads every object under the prefix (a run's results, as `ebsbench run`\n"
	"uploads them) into DIR (default: the prefix's last component), then prints\n"
	"the path of its report.html (else summary.md) on stdout.  A file already in\n"
	"DIR that differs is not replaced (the fetch stops) unless --force; equal\n"
	"files are left alone.  --wait: first wait (up to 2 days, a line on stderr\n"
	"every 10 minutes) until the run has ended: its report.html is there and\n"
	"its results.json, which it uploads last, records it.\n"
	"--fleet N (with --wait): the prefix holds a fleet of N runs (ebsbench k8s\n"
	"--fleet N), run I under PREFIX/I/: wait until every one has ended, then\n"
	"download them all and write the fleet's view into DIR (as `ebsbench report\n"
	"--out DIR DIR/0 DIR/1 ...`) and print DIR/report.html.\n"
	"--region: else AWS_REGION, else AWS_DEFAULT_REGION, else the profile's region\n"
	"in AWS_CONFIG_FILE (~/.aws/config).\n"
	"--endpoint: an S3-compatible server, http(s)://host[:port] (path-style).\n"
	"--ca-file: the server's CA bundle (default: the system's).\n"
	"Credentials as for presign: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and\n"
	"AWS_SESSION_TOKEN (skipped when --profile is given); then the profile\n"
	"(--profile, else AWS_PROFILE, else default): its keys in\n"
	"AWS_SHARED_CREDENTIALS_FILE (~/.aws/credentials), its credential_process,\n"
	"its keys in AWS_CONFIG_FILE (~/.aws/config).\n";

struct fetch_args {
	const char *url, *dir, *region, *endpoint, *profile, *ca_file;
	bool force, wait;
	unsigned fleet; /* --fleet N: runs under PREFIX/0/ .. PREFIX/N-1/; 0: one run */
};

/* A fleet has at most as many runs as `ebsbench k8s --fleet` makes. */
#define FLEET_MAX K8S_FLEET_MAX

/* --wait: how often the prefix is looked at, how often stderr hears of
 * it, and for how long at most (a run's POST policy lives at most 7 days;
 * the default plan on the largest volumes runs for about a day). */
#define WAIT_POLL_S 60
#define WAIT_SAY_S 600
#define WAIT_MAX_S (2 * 86400)
#define DONE_NAME "report.html"
#define RECORD_NAME "results.json"

static int usage_error(const char *what, const char *arg)
{
	return cli_usage_error("fetch", what, arg);
}

static int take_fleet(void *base, const char *text)
{
	return cli_count("fetch", "--fleet", text, "runs", FLEET_MAX,
			 &((struct fetch_args *)base)->fleet);
}

/* The S3 URL, then the directory. */
static int take_operand(void *base, const char *arg)
{
	struct fetch_args *a = base;
	if (arg[0] == '-')
		return usage_error("unknown option", arg);
	if (!a->url)
		a->url = arg;
	else if (!a->dir)
		a->dir = arg;
	else
		return usage_error("one S3 URL and one directory at most, not also", arg);
	return 0;
}

static const struct cli_option options[] = {
	CLI_VALUE("--region", "R", struct fetch_args, region),
	CLI_VALUE("--endpoint", "URL", struct fetch_args, endpoint),
	CLI_VALUE("--profile", "NAME", struct fetch_args, profile),
	CLI_VALUE("--ca-file", "PEM", struct fetch_args, ca_file),
	CLI_TAKE("--fleet", "N", take_fleet),
	CLI_FLAG("--force", struct fetch_args, force),
	CLI_FLAG("--wait", struct fetch_args, wait),
};
static const struct cli_command command = { "fetch",	  usage, options, ARRAY_SIZE(options),
					    take_operand, NULL };

/* 0, -1 after --help, or EXIT_USAGE. */
static int parse_args(int argc, char **argv, struct fetch_args *a, char *region, size_t cap)
{
	int rc = cli_parse(&command, argc, argv, a);
	if (rc)
		return rc;
	if (!a->url)
		return usage_error("which run? give s3://BUCKET/PREFIX/", NULL);
	if (a->fleet && !a->wait)
		return usage_error("--fleet waits for the fleet's runs: give --wait too", NULL);
	return cli_need_region("fetch", &a->region, a->profile, region, cap);
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

/* Where to look and with what: the prefix, the credentials, the CA. */
static struct s3_fetch fetch_target(const struct fetch_args *a, const struct presign_request *r)
{
	return (struct s3_fetch){ .cred = &r->cred,
				  .region = a->region,
				  .scheme = r->endpoint.scheme,
				  .host = r->endpoint.host,
				  .bucket = r->bucket,
				  .prefix = r->prefix,
				  .ca_file = a->ca_file,
				  .force = a->force,
				  .progress = stderr };
}

/* A fleet fetched into dir (dir/0, dir/1, ...): its view, written into
 * dir as `ebsbench report --out DIR DIR/0 ...` writes it.  0, or 1 said
 * on stderr. */
static int fleet_report(const struct fetch_args *a, const char *dir)
{
	char paths[FLEET_MAX][1200];
	const char *dirs[FLEET_MAX];
	for (unsigned i = 0; i < a->fleet; i++) {
		snprintf(paths[i], sizeof(paths[i]), "%s/%u", dir, i);
		dirs[i] = paths[i];
	}
	struct report_request req = { .dirs = dirs, .ndirs = a->fleet, .out = dir };
	char err[512];
	if (report_dirs(&req, err, sizeof(err))) {
		fprintf(stderr, "ebsbench fetch: the fleet's report: %s\n", err);
		return 1;
	}
	fprintf(stderr, "ebsbench fetch: the fleet's report: %zu volumes in %zu class%s, %s/%s\n",
		req.volumes, req.classes, req.classes == 1 ? "" : "es", dir, FLEET_MD_FILE);
	return 0;
}

static int fetch(const struct fetch_args *a, const struct presign_request *r, const char *dir)
{
	struct s3_fetch f = fetch_target(a, r);
	f.dir = dir;
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
	if (a->fleet && fleet_report(a, dir))
		return 1;
	char path[4200];
	s3_fetch_report_path(dir, path, sizeof(path));
	printf("%s\n", path);
	return fflush(stdout) ? 1 : 0;
}

/* The credentials as the chain finds them now: loaded once, and again
 * after each wait (a credential_process's may be renewed meanwhile). */
static int load_credentials(const struct fetch_args *a, struct presign_request *r)
{
	char err[1024];
	if (presign_request_credentials(r, a->profile, err, sizeof(err))) {
		fprintf(stderr, "ebsbench fetch: %s\n", err);
		return EXIT_USAGE;
	}
	return 0;
}

/* Looks once at the run under the prefix, or at each run of a fleet not
 * yet seen ending (PREFIX/I/), marking done[I].  The runs ended in all
 * (*ended), and the objects seen in those that have not (*listed).  0, or
 * -1 said on stderr. */
static int look(const struct fetch_args *a, const struct presign_request *r, bool *done,
		unsigned *ended, unsigned *listed)
{
	unsigned count = a->fleet ? a->fleet : 1;
	char err[1024], prefix[PRESIGN_MAX_KEY + 16];
	*ended = *listed = 0;
	for (unsigned i = 0; i < count; i++) {
		struct s3_fetch f = fetch_target(a, r);
		unsigned seen = 0;
		if (a->fleet) {
			snprintf(prefix, sizeof(prefix), "%s%u/", r->prefix, i);
			f.prefix = prefix;
		}
		int rc = done[i] ? 1
				 : s3_fetch_run_ended(&f, DONE_NAME, RECORD_NAME, &seen, err,
						      sizeof(err));
		if (rc < 0) {
			fprintf(stderr, "ebsbench fetch: %s\n", err);
			return -1;
		}
		done[i] = rc > 0;
		*ended += done[i];
		*listed += done[i] ? 0 : seen;
	}
	return 0;
}

static void say_waiting(const struct fetch_args *a, const struct presign_request *r, unsigned ended,
			unsigned listed, long minutes)
{
	if (a->fleet)
		fprintf(stderr,
			"ebsbench fetch: waiting for the fleet under s3://%s/%s: %u of %u runs "
			"ended, %u objects so far in the others (%ld min)\n",
			r->bucket, r->prefix, ended, a->fleet, listed, minutes);
	else
		fprintf(stderr,
			"ebsbench fetch: waiting for the run under s3://%s/%s to end: %u "
			"objects so far, no final %s yet (%ld min)\n",
			r->bucket, r->prefix, listed, DONE_NAME, minutes);
}

/* Until the run under the prefix (every run of a fleet) has ended: 0, or 1
 * (S3 refused, the time ran out, or an interrupt). */
static int wait_for_end(const struct fetch_args *a, struct presign_request *r,
			const volatile sig_atomic_t *stop)
{
	const char *env = getenv("EBSBENCH_FETCH_POLL_S"); /* tests: seconds between looks */
	unsigned poll_s = env ? (unsigned)strtoul(env, NULL, 10) : WAIT_POLL_S;
	time_t start = time(NULL), said = 0;
	bool done[FLEET_MAX] = { false };
	unsigned ended, listed;
	for (;;) {
		if (look(a, r, done, &ended, &listed))
			return 1;
		if (ended == (a->fleet ? a->fleet : 1))
			return 0;
		time_t now = time(NULL);
		if (now - start >= WAIT_MAX_S) {
			fprintf(stderr,
				"ebsbench fetch: the run under s3://%s/%s has not ended "
				"after %d hours: giving up\n",
				r->bucket, r->prefix, WAIT_MAX_S / 3600);
			return 1;
		}
		if (!said || now - said >= WAIT_SAY_S) {
			say_waiting(a, r, ended, listed, (long)(now - start) / 60);
			said = now;
		}
		for (unsigned s = 0; s < poll_s; s++) {
			if (*stop) {
				fprintf(stderr, "ebsbench fetch: interrupted while waiting\n");
				return 1;
			}
			sleep(1);
		}
		int rc = load_credentials(a, r);
		if (rc)
			return rc;
	}
}

int cmd_fetch(int argc, char **argv, const volatile sig_atomic_t *stop)
{
	struct fetch_args a = { 0 };
	struct presign_request r;
	char bucket[64], dir[1100], err[1024], region[64];

	int rc = parse_args(argc, argv, &a, region, sizeof(region));
	if (rc)
		return rc < 0 ? 0 : rc;
	memset(&r, 0, sizeof(r));
	r.bucket = bucket;
	r.region = a.region;
	if ((rc = split_url(a.url, bucket, sizeof(bucket), r.prefix, sizeof(r.prefix))))
		return rc;
	if (presign_endpoint(a.endpoint, a.region, &r.endpoint, err, sizeof(err)))
		return usage_error(err, NULL);
	if ((rc = load_credentials(&a, &r)) || (a.wait && (rc = wait_for_end(&a, &r, stop)))) {
		presign_request_clear(&r);
		return rc;
	}
	if (a.dir)
		snprintf(dir, sizeof(dir), "%s", a.dir);
	else
		s3_fetch_default_dir(bucket, r.prefix, dir, sizeof(dir));
	rc = fetch(&a, &r, dir);
	presign_request_clear(&r);
	return rc;
}
