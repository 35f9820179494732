/* cmd_observe.c - `ebsbench observe DEVICE...`: a device's real demand,
 * sampled read-only from the kernel's counters every --interval, as the
 * CSV `recommend --demand` reads (stdout, or --out FILE); progress on
 * stderr.  Stops after --duration, or at SIGINT/SIGTERM with every
 * finished interval written. */
#include "cli/cli.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/internal.h"
#include "job/job.h"
#include "lib/lib.h"
#include "demand/demand.h"

#define MAX_DEVICES 16
#define MIN_INTERVAL_NS 10000000u /* 10 ms: the counters move in jiffies below that */

static const char usage[] =
	"usage: ebsbench observe DEVICE... [--interval 1s] [--duration D] [--out FILE]\n"
	"Samples each block device's I/O counters (/sys/block/DEV/stat) every --interval\n"
	"(default 1s, at least 10ms) for --duration (default: until Ctrl-C) and writes the\n"
	"demand trace as CSV (docs/demand.md) to stdout or --out FILE, for\n"
	"`ebsbench recommend --demand` (or its --peak-from). Read-only: the devices are never\n"
	"opened, so a volume in use is safe to observe. Progress on stderr.\n"
	"Exit: 0 done, 1 a device's counters went away or the output failed, 2 usage.\n";

struct observe_args {
	const char *devices[MAX_DEVICES];
	size_t ndevices;
	const char *interval, *duration, *out;
};

/* A device, up to MAX_DEVICES ("-" is a device's name too). */
static int take_device(void *base, const char *arg)
{
	struct observe_args *a = base;
	if (arg[0] == '-' && arg[1])
		return cli_usage_error("observe", "unknown option", arg);
	if (a->ndevices == MAX_DEVICES)
		return cli_usage_error("observe", "at most 16 devices", NULL);
	a->devices[a->ndevices++] = arg;
	return 0;
}

static int some_device(void *base)
{
	if (((struct observe_args *)base)->ndevices)
		return 0;
	return cli_usage_error("observe", "no device given", NULL);
}

static const struct cli_option options[] = {
	CLI_VALUE("--interval", "1s", struct observe_args, interval),
	CLI_VALUE("--duration", "D", struct observe_args, duration),
	CLI_VALUE("--out", "FILE", struct observe_args, out),
};
static const struct cli_command command = { "observe",		 usage,	      options,
					    ARRAY_SIZE(options), take_device, some_device };

/* A duration option: 0, or EXIT_USAGE with one line. */
static int duration(const char *name, const char *text, uint64_t min_ns, uint64_t *out)
{
	if (options_parse_duration_ns(text, out) || *out < min_ns) {
		fprintf(stderr,
			"ebsbench observe: %s '%s': want a duration of at least %s (1s, 500ms, "
			"10m)\n",
			name, text, min_ns >= 1000000000u ? "1s" : "10ms");
		return EXIT_USAGE;
	}
	return 0;
}

int cmd_observe(int argc, char **argv, const volatile sig_atomic_t *stop)
{
	struct observe_args a = { 0 };
	struct observe_device dev[MAX_DEVICES];
	uint64_t interval_ns = 1000000000u, duration_ns = 0;
	char err[256];
	FILE *out = stdout;

	int rc = cli_parse(&command, argc, argv, &a);
	if (rc)
		return rc < 0 ? 0 : rc;
	if ((a.interval && duration("--interval", a.interval, MIN_INTERVAL_NS, &interval_ns)) ||
	    (a.duration && duration("--duration", a.duration, MIN_INTERVAL_NS, &duration_ns)))
		return EXIT_USAGE;
	for (size_t i = 0; i < a.ndevices; i++)
		if (observe_device_open(a.devices[i], &dev[i], err, sizeof(err))) {
			fprintf(stderr, "ebsbench observe: %s\n", err);
			return EXIT_USAGE;
		}
	if (a.out && !(out = fopen(a.out, "w"))) {
		fprintf(stderr, "ebsbench observe: %s: %s\n", a.out, strerror(errno));
		return 1;
	}
	fprintf(stderr, "ebsbench observe: %zu device%s every %.3g s%s\n", a.ndevices,
		a.ndevices == 1 ? "" : "s", (double)interval_ns / 1e9,
		duration_ns ? "" : ", until Ctrl-C");
	rc = observe_run(dev, a.ndevices, interval_ns, duration_ns, out, stderr, stop);
	if (out != stdout && fclose(out)) {
		fprintf(stderr, "ebsbench observe: %s: %s\n", a.out, strerror(errno));
		rc = 1;
	}
	return rc;
}
