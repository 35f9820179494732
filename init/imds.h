/* imds.h - EC2's instance metadata service, version 2 (a session token
 * from PUT /latest/api/token, then GETs carrying it).
 *
 * Every wait is short and bounded: off EC2 (or with the endpoint blocked)
 * the appliance must say so and move on in seconds, not minutes. */
#ifndef EBSBENCH_INIT_IMDS_H
#define EBSBENCH_INIT_IMDS_H

#include <stdbool.h>
#include <stddef.h>

#define IMDS_BASE_DEFAULT "http://169.254.169.254"
#define IMDS_ATTEMPTS 3
#define IMDS_TIMEOUT_MS 2000

struct imds {
	char base[128];
	char token[256];
};

struct imds_facts {
	char instance_type[32];
	char instance_id[32];
	char zone[32];
};

/* A session token into m.  0, or -1 with a one-line reason in err
 * ("IMDS unreachable at http://...: connect timed out"). */
int imds_open(struct imds *m, const char *base, char *err, size_t errlen);

/* GET base + path with the token.  1 with a malloc'ed NUL-ended body,
 * 0 when IMDS answers 404 (no user-data given), -1 with a reason. */
int imds_get(const struct imds *m, const char *path, char **body, char *err, size_t errlen);

/* Instance type, id and availability zone; a missing one stays "". */
void imds_read_facts(const struct imds *m, struct imds_facts *f);

#endif
