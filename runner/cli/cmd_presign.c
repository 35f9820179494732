/* cmd_presign.c - credentials from the environment, URLs on stdout.
 *
 * stdout is the upload block and nothing else, so it can be piped into a
 * Secret.  Errors are one line on stderr, exit 2 for anything the caller
 * can fix (options, credentials, the plan).  The secret key is never
 * printed; the URLs themselves grant write access until they expire, which
 * one stderr line says every time. */
#include "cli/cli.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/lib.h"
#include "run/run.h"
#include "job/job.h"

#define EXIT_USAGE 2
/* Boot, discovery and the upload itself come on top of the plan. */
#define EXPIRY_MARGIN_S 900.0

static const char usage[] =
	"usage: ebsbench presign --bucket B --prefix P --region R --expires 6h\n"
	"                        [--endpoint URL] [--plan CONFIG.json] [--post [--max-size 1G]]\n"
	"Signs S3 uploads for one run with the credentials in AWS_ACCESS_KEY_ID,\n"
	"AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN (if set), and prints the block\n"
	"to put in the run's config (EC2 user-data or a Kubernetes Secret):\n"
	"  {\"upload\": {\"put\": {\"results.json\": URL, ...}, \"expires\": TIME}}\n"
	"One presigned PUT URL per file the run writes: those of --plan's devices\n"
	"and phases, else the EKS gp2/gp3 benchmark's run (gp2 and gp3, six phases).\n"
	"--post prints one POST policy for any key under the prefix instead, at most\n"
	"--max-size bytes per file (default 1G).  Either way a warning says when the\n"
	"plan's estimated length does not fit in --expires.\n"
	"--expires: 30m, 6h, 7d (at most 7 days).  --endpoint: an S3-compatible\n"
	"server, http(s)://host[:port].  Addressing is path-style:\n"
	"https://s3.R.amazonaws.com/B/P/results.json by default.\n"
	"The output grants write access to the bucket until it expires: store it as\n"
	"a secret.\n";

struct presign_args {
	const char *bucket, *prefix, *region, *expires, *endpoint, *plan, *max_size;
	bool post;
};

static int usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "ebsbench presign: %s%s%s (try ebsbench presign --help)\n", what,
		arg ? " " : "", arg ? arg : "");
	return EXIT_USAGE;
}

/* --name VALUE or --name=VALUE into *slot; 1 if argv[*i] is not --name. */
static int take_value(int argc, char **argv, int *i, const char *name, const char **slot)
{
	size_t n = strlen(name);
	if (strncmp(argv[*i], name, n))
		return 1;
	if (argv[*i][n] == '=') {
		*slot = argv[*i] + n + 1;
		return 0;
	}
	if (argv[*i][n])
		return 1;
	if (*i + 1 == argc)
		return usage_error("missing value for", name);
	*slot = argv[++*i];
	return 0;
}

static int parse_one(int argc, char **argv, int *i, struct presign_args *a)
{
	static const char *const names[] = { "--bucket",   "--prefix", "--region",  "--expires",
					     "--endpoint", "--plan",   "--max-size" };
	const char **slots[] = { &a->bucket,   &a->prefix, &a->region,	&a->expires,
				 &a->endpoint, &a->plan,   &a->max_size };
	for (size_t k = 0; k < ARRAY_SIZE(names); k++) {
		int rc = take_value(argc, argv, i, names[k], slots[k]);
		if (rc != 1)
			return rc;
	}
	if (!strcmp(argv[*i], "--post")) {
		a->post = true;
		return 0;
	}
	return usage_error("unknown option", argv[*i]);
}

/* Returns 0, -1 after --help, or EXIT_USAGE. */
static int parse_args(int argc, char **argv, struct presign_args *a)
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
	if (!a->bucket || !a->prefix || !a->region || !a->expires)
		return usage_error("--bucket, --prefix, --region and --expires are required", NULL);
	if (a->max_size && !a->post)
		return usage_error("--max-size applies to --post only", NULL);
	return 0;
}

/* Credentials from the environment, as every AWS tool reads them. */
static int credentials(struct sigv4_credentials *cred)
{
	cred->access_key_id = getenv("AWS_ACCESS_KEY_ID");
	cred->secret_key = getenv("AWS_SECRET_ACCESS_KEY");
	cred->session_token = getenv("AWS_SESSION_TOKEN");
	if (cred->access_key_id && cred->access_key_id[0] && cred->secret_key &&
	    cred->secret_key[0])
		return 0;
	fprintf(stderr, "ebsbench presign: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY "
			"(and AWS_SESSION_TOKEN for temporary credentials)\n");
	return EXIT_USAGE;
}

/* Now, or EBSBENCH_PRESIGN_TIME (20260902T000000Z) so tests can compare
 * with another signer at the same instant. */
static int signing_time(time_t *when)
{
	const char *fixed = getenv("EBSBENCH_PRESIGN_TIME");
	if (!fixed) {
		*when = time(NULL);
		return 0;
	}
	if (!sigv4_parse_amz_date(fixed, when))
		return 0;
	fprintf(stderr,
		"ebsbench presign: EBSBENCH_PRESIGN_TIME '%s' is not like 20260902T000000Z\n",
		fixed);
	return EXIT_USAGE;
}

static int build_request(const struct presign_args *a, struct presign_request *r)
{
	char err[512];
	memset(r, 0, sizeof(*r));
	r->bucket = a->bucket;
	r->region = a->region;
	if (presign_parse_expires(a->expires, &r->expires_s, err, sizeof(err)) ||
	    presign_check_bucket(a->bucket, err, sizeof(err)) ||
	    presign_prefix(a->prefix, r->prefix, sizeof(r->prefix), err, sizeof(err)) ||
	    presign_endpoint(a->endpoint, a->region, &r->endpoint, err, sizeof(err))) {
		fprintf(stderr, "ebsbench presign: %s\n", err);
		return EXIT_USAGE;
	}
	int rc = credentials(&r->cred);
	return rc ? rc : signing_time(&r->when);
}

/* The names to sign (PUT), or only the plan's length (POST): the default
 * run's, or --plan's. */
static int load_plan(const struct presign_args *a, struct presign_names *n)
{
	char err[512];
	struct run_config c;
	int rc;

	memset(n, 0, sizeof(*n));
	if (!a->plan) {
		rc = presign_names_default(n, err, sizeof(err));
	} else {
		config_defaults(&c);
		rc = config_load_file(&c, a->plan, err, sizeof(err));
		if (!rc && a->post)
			rc = presign_plan_seconds(&c, &n->planned_s, err, sizeof(err));
		else if (!rc)
			rc = presign_names_from_config(n, &c, err, sizeof(err));
		config_free(&c);
	}
	if (rc)
		fprintf(stderr, "ebsbench presign: %s\n", err);
	return rc ? EXIT_USAGE : 0;
}

/* A URL that expires mid-run loses the results: say so before the run. */
static void warn_expiry(const struct presign_names *n, unsigned expires_s)
{
	if (n->planned_s <= 0 || n->planned_s + EXPIRY_MARGIN_S <= expires_s)
		return;
	fprintf(stderr,
		"ebsbench presign: warning: the plan runs about %.0f min (plus boot and "
		"upload) but the URLs expire after %.0f min: raise --expires\n",
		n->planned_s / 60, expires_s / 60.0);
}

static json_t *sign(const struct presign_args *a, const struct presign_request *r)
{
	char err[512];
	struct presign_names n;
	uint64_t max_bytes = 1ull << 30;
	json_t *block = NULL;

	if (a->max_size && (options_parse_size(a->max_size, &max_bytes) || !max_bytes)) {
		usage_error("--max-size wants a size like 1G, not", a->max_size);
		return NULL;
	}
	if (load_plan(a, &n))
		return NULL;
	warn_expiry(&n, r->expires_s);
	if (a->post)
		block = presign_post_block(r, max_bytes, err, sizeof(err));
	else
		block = presign_put_block(r, &n, err, sizeof(err));
	presign_names_free(&n);
	if (!block)
		fprintf(stderr, "ebsbench presign: %s\n", err);
	return block;
}

static int print_block(json_t *block, const struct presign_request *r)
{
	char until[21];
	int rc = json_dumpf(block, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (rc || fputc('\n', stdout) == EOF || fflush(stdout)) {
		fprintf(stderr, "ebsbench presign: writing to stdout failed\n");
		return 1;
	}
	if (sigv4_iso_time(r->when + (time_t)r->expires_s, until))
		until[0] = '\0';
	fprintf(stderr,
		"ebsbench presign: the output holds credentials-bearing URLs that allow writes "
		"to s3://%s/%s until %s: store it as a secret\n",
		r->bucket, r->prefix, until);
	return 0;
}

int cmd_presign(int argc, char **argv, const volatile sig_atomic_t *stop)
{
	(void)stop; /* short: it has nothing to stop early */
	struct presign_args a;
	struct presign_request r;

	memset(&a, 0, sizeof(a));
	int rc = parse_args(argc, argv, &a);
	if (rc)
		return rc < 0 ? 0 : rc;
	rc = build_request(&a, &r);
	if (rc)
		return rc;
	json_t *block = sign(&a, &r);
	if (!block)
		return EXIT_USAGE;
	rc = print_block(block, &r);
	json_decref(block);
	return rc;
}
