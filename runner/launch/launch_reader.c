/* launch_reader.c - a launched run's results read back with the user's
 * credentials: the checks before the launch, the fetch after it (see
 * launch_reader.h). */
#include "launch/launch_reader.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/lib.h"

int launch_reader_init(struct launch_reader *rd, const char *prefix, const char *out, char *err,
		       size_t errlen)
{
	if (presign_prefix(prefix, rd->r.prefix, sizeof(rd->r.prefix), err, errlen))
		return -1;
	rd->r.bucket = rd->bucket;
	rd->r.region = rd->region;
	if (out)
		snprintf(rd->dir, sizeof(rd->dir), "%s", out);
	else
		s3_fetch_default_dir(rd->bucket, rd->r.prefix, rd->dir, sizeof(rd->dir));
	return 0;
}

static bool dir_in_use(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool used = false;
	if (!d)
		return errno != ENOENT;
	while (!used && (e = readdir(d)))
		used = strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return used;
}

struct s3_fetch launch_reader_target(const struct launch_reader *rd)
{
	return (struct s3_fetch){ .cred = &rd->r.cred,
				  .region = rd->region,
				  .scheme = rd->r.endpoint.scheme,
				  .host = rd->r.endpoint.host,
				  .bucket = rd->bucket,
				  .prefix = rd->r.prefix,
				  .dir = rd->dir,
				  .ca_file = rd->ca_file,
				  .progress = stderr };
}

int launch_reader_check_dir(const struct launch_reader *rd)
{
	if (!dir_in_use(rd->dir))
		return 0;
	fprintf(stderr, "%s: %s is not empty: give --out a new directory\n", rd->who, rd->dir);
	return 2;
}

int launch_reader_check(struct launch_reader *rd)
{
	char err[1024];
	if (presign_endpoint(rd->endpoint, rd->region, &rd->r.endpoint, err, sizeof(err)) ||
	    presign_request_credentials(&rd->r, rd->profile, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", rd->who, err);
		return 2;
	}
	struct s3_fetch f = launch_reader_target(rd);
	int rc = s3_fetch_probe(&f, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr,
			"%s: %s: check the bucket, its region and the credentials (--profile)\n",
			rd->who, err);
		return 5;
	}
	if (rc > 0) {
		fprintf(stderr,
			"%s: s3://%s/%s holds objects already: give --s3 a prefix of its own to "
			"this run\n",
			rd->who, rd->bucket, rd->r.prefix);
		return 2;
	}
	return 0;
}

int launch_reader_fetch(struct launch_reader *rd)
{
	char err[1024], path[1200];
	if (presign_request_credentials(&rd->r, rd->profile, err, sizeof(err))) {
		fprintf(stderr, "%s: the fetch: %s\n", rd->who, err);
		return 1;
	}
	struct s3_fetch f = launch_reader_target(rd);
	int rc = s3_fetch_run(&f, err, sizeof(err));
	if (rc) {
		if (rc > 0)
			fprintf(stderr, "%s: nothing was uploaded under s3://%s/%s\n", rd->who,
				rd->bucket, rd->r.prefix);
		else
			fprintf(stderr, "%s: the fetch: %s\n", rd->who, err);
		return 1;
	}
	fprintf(stderr, "%s: %u objects, %llu bytes into %s\n", rd->who, f.objects,
		(unsigned long long)f.bytes, rd->dir);
	s3_fetch_report_path(rd->dir, path, sizeof(path));
	printf("%s\n", path);
	return fflush(stdout) ? 1 : 0;
}

void launch_reader_clear(struct launch_reader *rd)
{
	presign_request_clear(&rd->r);
}
