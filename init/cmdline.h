/* cmdline.h - the appliance's words on the kernel command line.
 *
 *   ebsbench.config=B64|/PATH   the config: base64 of its JSON, or a file
 *                               in the initramfs (first of the sources)
 *   ebsbench.image_digest=D     recorded in results.json (the image cannot
 *                               hold its own digest)
 *   ebsbench.watchdog_s=N       overrides the computed watchdog deadline
 *   ebsbench.imds=URL           IMDS base URL (default http://169.254.169.254)
 *   ebsbench.rescue=1           a shell on the console instead of powering
 *                               off after a failure (the watchdog still runs) */
#ifndef EBSBENCH_INIT_CMDLINE_H
#define EBSBENCH_INIT_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

/* The value of the last "key=value" word of cmdline into out (NUL-ended).
 * 1 found, 0 absent, -1 longer than len - 1 (out is then empty). */
int cmdline_value(const char *cmdline, const char *key, char *out, size_t len);

/* Standard or URL-safe base64, padding optional, into out; the decoded
 * length, or -1 on a character outside the alphabet or no room. */
long base64_decode(const char *in, unsigned char *out, size_t len);

#endif
