/* launch_reader.h - what a one-command launch (`ebsbench k8s --apply`,
 * `ebsbench ec2 --launch`) reads its run's results with: the user's own
 * credentials (the chain presign uses), the run's prefix, and the local
 * directory they go into.  Before the launch it checks that the directory
 * is new or empty and that the bucket lists the prefix (empty) with those
 * credentials; at the end it fetches the prefix as `ebsbench fetch` does
 * and prints the report's path on stdout.  Every line it says on stderr
 * starts with the command's name; none holds a URL or a secret. */
#ifndef EBSBENCH_LAUNCH_READER_H
#define EBSBENCH_LAUNCH_READER_H

#include <stdbool.h>
#include <stddef.h>

#include "launch/presign.h"
#include "upload/upload.h"

struct launch_reader {
	const char *who; /* "ebsbench k8s": each line's head */
	const char *bucket, *region, *endpoint, *profile, *ca_file;
	struct presign_request r; /* r.prefix: the run's, normalized */
	char dir[1100];		  /* where the results go */
};

/* rd's prefix (normalized) and directory (out, else the prefix's last
 * component), the other fields as set.  0, or -1 with a reason. */
int launch_reader_init(struct launch_reader *rd, const char *prefix, const char *out, char *err,
		       size_t errlen);

/* Before anything is made: the directory is new or empty.  0, or 2 said
 * on stderr in one line. */
int launch_reader_check_dir(const struct launch_reader *rd);
/* Then: the credentials load, the bucket answers to them and the prefix
 * holds nothing.  0, 2 (the credentials or a used prefix) or 5 (S3
 * refused the listing), said on stderr in one line. */
int launch_reader_check(struct launch_reader *rd);

/* The fetch's target: the prefix with the credentials, into rd->dir. */
struct s3_fetch launch_reader_target(const struct launch_reader *rd);

/* The run's files into rd->dir (the credentials loaded again: they may
 * have been renewed), the totals on stderr and the path of report.html
 * (else summary.md) on stdout.  0, or 1 said on stderr. */
int launch_reader_fetch(struct launch_reader *rd);

/* Wipes the credentials. */
void launch_reader_clear(struct launch_reader *rd);

#endif
