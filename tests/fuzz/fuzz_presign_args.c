/* fuzz_presign_args.c - `ebsbench presign`'s inputs: --expires, --bucket,
 * --prefix, --endpoint and --region (one per input line, in that order),
 * each checked as cmd_presign does, then signed into the PUT block for the
 * default run and a POST policy.  --plan is the run config, fuzzed by
 * fuzz_run_config. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "launch/launch.h"
#include "launch/internal.h"

enum { F_EXPIRES, F_BUCKET, F_PREFIX, F_ENDPOINT, F_REGION, F_COUNT };

/* Signs both blocks when every input passed its check. */
static void sign(struct presign_request *r)
{
	struct presign_names n;
	char err[512];

	memset(&n, 0, sizeof(n));
	if (presign_names_default(&n, err, sizeof(err)) == 0)
		json_decref(presign_put_block(r, &n, err, sizeof(err)));
	presign_names_free(&n);
	json_decref(presign_post_block(r, 1u << 30, err, sizeof(err)));
}

/* One input: the presign options, one per line. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstring(data, size);
	char *fields[F_COUNT] = { NULL };
	size_t n = fuzz_split(text, '\n', fields, F_COUNT);
	struct presign_request r;
	char err[512];

	memset(&r, 0, sizeof(r));
	r.cred.access_key_id = "AKIAIOSFODNN7EXAMPLE";
	r.cred.secret_key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
	r.when = 1788307200; /* 2026-09-02T00:00:00Z */
	r.bucket = fields[F_BUCKET] ? fields[F_BUCKET] : "";
	r.region = fields[F_REGION] ? fields[F_REGION] : "ap-northeast-2";
	if (presign_parse_expires(fields[F_EXPIRES], &r.expires_s, err, sizeof(err)) == 0 &&
	    presign_check_bucket(r.bucket, err, sizeof(err)) == 0 &&
	    presign_prefix(n > F_PREFIX ? fields[F_PREFIX] : "", r.prefix, sizeof(r.prefix), err,
			   sizeof(err)) == 0 &&
	    presign_endpoint(n > F_ENDPOINT && fields[F_ENDPOINT][0] ? fields[F_ENDPOINT] : NULL,
			     r.region, &r.endpoint, err, sizeof(err)) == 0)
		sign(&r);
	free(text);
	return 0;
}
