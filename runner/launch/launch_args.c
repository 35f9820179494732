/* launch_args.c - what a launcher is given, checked before anything is
 * signed: volume specs against the EBS model, the S3 destination; and the
 * run's deadline from the plan. */
#include "launch/launch.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lib.h"
#include "launch/presign.h"
#include "launch/internal.h"
#include "upload/upload.h"

long launch_deadline_s(double planned_s)
{
	return (long)ceil(planned_s * (1 + UPLOAD_EXPIRY_SLACK)) + LAUNCH_START_S + LAUNCH_GRACE_S;
}

long launch_expires_s(long deadline_s)
{
	return deadline_s + LAUNCH_GRACE_S + LAUNCH_APPLY_S;
}

/* One ':'-separated field of a volume spec as a whole number > 0. */
static int spec_number(const char *spec, const char *field, const char *what, double *out,
		       char *err, size_t errlen)
{
	char *end;
	errno = 0;
	unsigned long long n = isdigit((unsigned char)field[0]) ? strtoull(field, &end, 10) : 0;
	if (!n || errno || (*end && *end != ':') || n > 1000000000ull)
		return error_set(err, errlen,
				 "--volume '%s': the %s is not a whole number above 0 (want "
				 "TYPE:SIZE[:IOPS[:MIBPS]], like gp3:100:3000:125)",
				 spec, what);
	*out = (double)n;
	return 0;
}

/* The fields after TYPE: "100", "100:3000", "100:3000:125" into f[]. */
static int spec_fields(const char *spec, const char *rest, double f[3], size_t *count, char *err,
		       size_t errlen)
{
	static const char *const what[] = { "size (GiB)", "IOPS", "throughput (MiB/s)" };
	*count = 0;
	while (*rest) {
		if (*count == 3)
			return error_set(err, errlen,
					 "--volume '%s': more than TYPE:SIZE:IOPS:MIBPS", spec);
		if (spec_number(spec, rest, what[*count], &f[*count], err, errlen))
			return -1;
		(*count)++;
		rest += strcspn(rest, ":");
		if (*rest == ':' && !*++rest)
			return error_set(err, errlen, "--volume '%s': ends in ':'", spec);
	}
	if (!*count)
		return error_set(err, errlen,
				 "--volume '%s': no size (want TYPE:SIZE, like gp2:100)", spec);
	return 0;
}

int launch_parse_volume(const char *text, struct ebs_volume *v, char *err, size_t errlen)
{
	char type[8];
	size_t n = strcspn(text, ":"), count;
	enum ebs_type t;
	double f[3] = { 0 };

	if (n >= sizeof(type) || !text[n])
		return error_set(err, errlen,
				 "--volume '%s': want TYPE:SIZE[:IOPS[:MIBPS]] (gp2:100, "
				 "gp3:100:3000:125)",
				 text);
	memcpy(type, text, n);
	type[n] = '\0';
	if (ebs_type_parse(type, &t))
		return error_set(err, errlen,
				 "--volume '%s': unknown type '%s' (gp2, gp3, io1, io2, st1, sc1)",
				 text, type);
	if (spec_fields(text, text + n + 1, f, &count, err, errlen))
		return -1;
	const struct ebs_type_rules *r = ebs_type_rules(t);
	if (count > 1 && r->size_derived)
		return error_set(err, errlen,
				 "--volume '%s': %s's IOPS and throughput follow its size: give "
				 "%s:SIZE",
				 text, r->name, r->name);
	if (count > 2 && !r->mibs_provisioned)
		return error_set(
			err, errlen,
			"--volume '%s': %s's throughput follows its IOPS: give %s:SIZE:IOPS", text,
			r->name, r->name);
	if (count < 2 && !r->size_derived && !r->mibs_provisioned)
		return error_set(err, errlen, "--volume '%s': %s needs its IOPS: %s:SIZE:IOPS",
				 text, r->name, r->name);
	ebs_volume_init(v, t, f[0]);
	if (count > 1) {
		v->iops = f[1];
		v->iops_assumed = false;
	}
	if (count > 2) {
		v->throughput_mibs = f[2];
		v->throughput_assumed = false;
	}
	char why[160];
	if (ebs_volume_check(v, why, sizeof(why)))
		return error_set(err, errlen, "--volume '%s': %s", text, why);
	return 0;
}

int launch_parse_s3(const char *url, char bucket[64], char *prefix, size_t cap, char *err,
		    size_t errlen)
{
	const char *b = strncmp(url, "s3://", 5) ? NULL : url + 5;
	size_t n = b ? strcspn(b, "/") : 0;
	if (!b || !n || n >= 64 || !b[n] || !b[n + 1] || strlen(b + n + 1) >= cap)
		return error_set(err, errlen,
				 "--s3 '%s': want s3://BUCKET/PREFIX (the run's files go under "
				 "PREFIX)",
				 url);
	memcpy(bucket, b, n);
	bucket[n] = '\0';
	snprintf(prefix, cap, "%s", b + n + 1);
	char why[256];
	if (!presign_check_bucket(bucket, why, sizeof(why)))
		return 0;
	/* presign's reason names its own option: "--bucket 'B': ...". */
	const char *reason = strstr(why, "': ");
	return error_set(err, errlen, "--s3 '%s': '%s' is not a bucket name: %s", url, bucket,
			 reason ? reason + 3 : why);
}
