/* cmd_ec2.c - `ebsbench ec2`'s options; the launch is run/ec2.c's.
 *
 * stdout is the input of `aws ec2 run-instances --cli-input-json` (or,
 * with --user-data, the filled script) and nothing else, written only when
 * everything was checked, signed and the binary uploaded.  Errors are one
 * line on stderr: exit 2 for usage, input and credentials, 1 when S3
 * refused the binary.  No URL, policy or key is printed on stderr. */
#include "cli/cli.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lib.h"
#include "launch/launch.h"

static const char usage[] =
	"usage: ebsbench ec2 --volume TYPE:SIZE[:IOPS[:MIBPS]]... --s3 s3://BUCKET/PREFIX\n"
	"                    [--region R] [--instance-type m5.xlarge] [--image-id AMI]\n"
	"                    [--config PLAN.json] [--plan NAME] [--binary PATH] [--user-data]\n"
	"                    [--endpoint URL] [--ca-file PEM] [--profile NAME]\n"
	"Writes one run on a stock Amazon Linux 2023 instance as the input of\n"
	"  aws ec2 run-instances --region R --cli-input-json \"$(ebsbench ec2 ...)\"\n"
	"the instance (it terminates itself when the run ends), one volume per\n"
	"--volume in its block-device mapping (/dev/sdf, /dev/sdg, ...; deleted with\n"
	"it; gp2, gp3, io1, io2, st1, sc1; sizes in GiB; each phase runs on them in\n"
	"the order given), and the user-data: image/ec2/user-data.sh with a presigned\n"
	"GET of this binary (uploaded to PREFIX/ first, beside the results), its\n"
	"sha256, and the run's config with one presigned POST policy for PREFIX/\n"
	"(signed as `ebsbench presign --post` signs, with the credentials presign\n"
	"finds), living as long as the plan needs.  Then `ebsbench fetch --wait\n"
	"s3://BUCKET/PREFIX` downloads the results when the run has ended.\n"
	"--config: a run config without devices or upload (phases, time_scale ...).\n"
	"--plan NAME: that plan in place of the config's phases, as `ebsbench run\n"
	"--plan` runs it (sweep).\n"
	"--binary: upload that binary instead of this one.  --user-data: print only\n"
	"the filled script (for your own launch tooling; gzip it when it is over\n"
	"EC2's 16 KB).  --region: else AWS_REGION, else AWS_DEFAULT_REGION, else the\n"
	"profile's region in AWS_CONFIG_FILE (~/.aws/config).\n"
	"The output grants write access to the prefix until the policy expires: do\n"
	"not share it.\n";

static int take_volume(void *base, const char *spec)
{
	struct ec2_request *q = base;
	return cli_add_volume("ec2", spec, q->volumes, &q->volume_count);
}

#define EC2_VALUE(name, arg, field) CLI_VALUE(name, arg, struct ec2_request, field)
static const struct cli_option options[] = {
	CLI_NEED_TAKE("--volume", "TYPE:SIZE[:IOPS[:MIBPS]]", take_volume),
	CLI_NEED_VALUE("--s3", "s3://BUCKET/PREFIX", struct ec2_request, s3),
	EC2_VALUE("--region", "R", region),
	EC2_VALUE("--instance-type", "m5.xlarge", instance_type),
	EC2_VALUE("--image-id", "AMI", image_id),
	EC2_VALUE("--config", "PLAN.json", config),
	EC2_VALUE("--binary", "PATH", binary),
	EC2_VALUE("--endpoint", "URL", endpoint),
	EC2_VALUE("--ca-file", "PEM", ca_file),
	EC2_VALUE("--profile", "NAME", profile),
	EC2_VALUE("--plan", "NAME", plan),
	CLI_FLAG("--user-data", struct ec2_request, user_data_only),
};
static const struct cli_command command = { "ec2", usage, options, ARRAY_SIZE(options), NULL };

/* 0, -1 after --help, or EXIT_USAGE (said on stderr). */
static int parse_args(int argc, char **argv, struct ec2_request *q, char *region, size_t cap)
{
	int rc = cli_parse(&command, argc, argv, q);
	return rc ? rc : cli_need_region("ec2", &q->region, q->profile, region, cap);
}

static int print_launch(json_t *input, const struct ec2_request *q, const struct ec2_made *m)
{
	char until[21];
	const char *script = json_string_value(json_object_get(input, "UserData"));
	int bad = q->user_data_only
			  ? fputs(script, stdout) == EOF
			  : json_dumpf(input, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER) ||
				    fputc('\n', stdout) == EOF;
	if (bad || fflush(stdout)) {
		fprintf(stderr, "ebsbench ec2: writing to stdout failed\n");
		return 1;
	}
	if (m->unknown_instance)
		fprintf(stderr,
			"ebsbench ec2: %s is not in the EBS model's instance table: the plan "
			"assumes no instance limit\n",
			m->unknown_instance);
	if (sigv4_iso_time(m->expires, until))
		until[0] = '\0';
	char fetch[1600];
	const struct cli_fetch_hint hint = { m->bucket,	  m->prefix,  q->region, q->profile,
					     q->endpoint, q->ca_file, 0 };
	cli_fetch_hint(fetch, sizeof(fetch), &hint);
	fprintf(stderr,
		"ebsbench ec2: instance %s, plan %.0f s, user-data %zu bytes; its POST policy "
		"allows writes to s3://%s/%s until %s: keep the output secret.  Then: %s\n",
		m->run, m->planned_s, m->user_data_bytes, m->bucket, m->prefix, until, fetch);
	return 0;
}

int cmd_ec2(int argc, char **argv, const volatile sig_atomic_t *stop)
{
	(void)stop; /* an upload of a few megabytes and some signing */
	struct ec2_request q = { .instance_type = "m5.xlarge" };
	struct ec2_made made;
	char err[512], region[64];

	int rc = parse_args(argc, argv, &q, region, sizeof(region));
	if (rc)
		return rc < 0 ? 0 : rc;
	json_t *input = ec2_launch(&q, &made, stderr, err, sizeof(err));
	if (!input) {
		fprintf(stderr, "ebsbench ec2: %s\n", err);
		return made.upload_failed ? 1 : EXIT_USAGE;
	}
	rc = print_launch(input, &q, &made);
	json_decref(input);
	return rc;
}
