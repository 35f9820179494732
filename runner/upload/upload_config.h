/* upload_config.h - when the presigned URLs and the POST policy stop working, and the latest
 * time a run may end (upload_config.c); upload_config_check, in the face,
 * is what the rest of the house calls. */
#ifndef EBSBENCH_UPLOAD_CONFIG_H
#define EBSBENCH_UPLOAD_CONFIG_H

#include <time.h>

/* When a presigned URL stops working: X-Amz-Date + X-Amz-Expires (SigV4)
 * or Expires (SigV2).  1 with *expires set, 0 when the URL says nothing,
 * -1 when it says something unreadable. */
int upload_config_url_expiry(const char *url, time_t *expires);
/* The "expiration" of a base64 POST policy: 0, or -1. */
int upload_config_policy_expiry(const char *policy_b64, time_t *expires);
/* The latest time a run started at now and planned to last planned_s may
 * end: the estimate, plus UPLOAD_EXPIRY_SLACK of it, plus the margin. */
time_t upload_config_deadline(time_t now, double planned_s);

#endif
