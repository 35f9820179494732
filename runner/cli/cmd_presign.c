/* cmd_presign.c - `ebsbench presign`'s arguments, URLs on stdout (the
 * request, credentials and signing are run/presign_request.c's).
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

#include "cli/internal.h"
#include "lib/lib.h"
#include "launch/launch.h"
#include "job/job.h"

static const char usage[] =
	"usage: ebsbench presign --bucket B --prefix P [--region R] --expires 6h\n"
	"                        [--endpoint URL] [--plan CONFIG.json] [--post [--max-size 1G]]\n"
	"                        [--profile NAME]\n"
	"Signs S3 uploads for one run and prints the block to put in the run's\n"
	"config (EC2 user-data or a Kubernetes Secret):\n"
	"  {\"upload\": {\"put\": {\"results.json\": URL, ...}, \"expires\": TIME}}\n"
	"One presigned PUT URL per file the run writes: those of --plan's devices\n"
	"and phases, else the EKS gp2/gp3 benchmark's run (gp2 and gp3, six phases).\n"
	"--post prints one POST policy for any key under the prefix instead, at most\n"
	"--max-size bytes per file (default 1G).  Either way a warning says when the\n"
	"plan's estimated length does not fit in --expires.\n"
	"--region: else AWS_REGION, else AWS_DEFAULT_REGION, else the profile's region\n"
	"in AWS_CONFIG_FILE (~/.aws/config).\n"
	"--expires: 30m, 6h, 7d (at most 7 days).  --endpoint: an S3-compatible\n"
	"server, http(s)://host[:port].  Addressing is path-style:\n"
	"https://s3.R.amazonaws.com/B/P/results.json by default.\n"
	"Credentials, as AWS's tools find them: AWS_ACCESS_KEY_ID,\n"
	"AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN (skipped when --profile is\n"
	"given); then the profile (--profile, else AWS_PROFILE, else default): its\n"
	"keys in AWS_SHARED_CREDENTIALS_FILE (~/.aws/credentials), its\n"
	"credential_process, its keys in AWS_CONFIG_FILE (~/.aws/config).\n"
	"The output grants write access to the bucket until it expires: store it as\n"
	"a secret.\n";

static int usage_error(const char *what, const char *arg)
{
	return cli_usage_error("presign", what, arg);
}

/* presign's arguments: the request's, and --max-size's text (NULL: not
 * given), parsed once the rest is known. */
struct presign_cli {
	struct presign_args a;
	const char *max_size;
};

#define PRESIGN_VALUE(name, arg, field) CLI_VALUE(name, arg, struct presign_cli, field)
static const struct cli_option options[] = {
	CLI_NEED_VALUE("--bucket", "B", struct presign_cli, a.bucket),
	CLI_NEED_VALUE("--prefix", "P", struct presign_cli, a.prefix),
	PRESIGN_VALUE("--region", "R", a.region),
	CLI_NEED_VALUE("--expires", "6h", struct presign_cli, a.expires),
	PRESIGN_VALUE("--endpoint", "URL", a.endpoint),
	PRESIGN_VALUE("--plan", "CONFIG.json", a.plan),
	PRESIGN_VALUE("--max-size", "1G", max_size),
	PRESIGN_VALUE("--profile", "NAME", a.profile),
	CLI_FLAG("--post", struct presign_cli, a.post),
};
static const struct cli_command command = { "presign",		 usage, options,
					    ARRAY_SIZE(options), NULL,	NULL };

/* Returns 0, -1 after --help, or EXIT_USAGE. */
static int parse_args(int argc, char **argv, struct presign_cli *p, char *region, size_t cap)
{
	struct presign_args *a = &p->a;
	int rc = cli_parse(&command, argc, argv, p);
	if (rc)
		return rc;
	if (cli_need_region("presign", &a->region, a->profile, region, cap))
		return EXIT_USAGE;
	if (p->max_size && !a->post)
		return usage_error("--max-size applies to --post only", NULL);
	return 0;
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
	struct presign_cli p = { .a = { .max_bytes = 1ull << 30 } };
	struct presign_args *a = &p.a;
	struct presign_request r;
	char err[512], region[64];

	int rc = parse_args(argc, argv, &p, region, sizeof(region));
	if (rc)
		return rc < 0 ? 0 : rc;
	if (p.max_size && (options_parse_size(p.max_size, &a->max_bytes) || !a->max_bytes))
		return usage_error("--max-size wants a size like 1G, not", p.max_size);
	if (presign_request_from_args(&r, a, err, sizeof(err))) {
		fprintf(stderr, "ebsbench presign: %s\n", err);
		return EXIT_USAGE;
	}
	json_t *block = presign_sign(&r, a, stderr, err, sizeof(err));
	presign_request_clear(&r);
	if (!block) {
		fprintf(stderr, "ebsbench presign: %s\n", err);
		return EXIT_USAGE;
	}
	rc = print_block(block, &r);
	json_decref(block);
	return rc;
}
