/* cmd_discover.c - `ebsbench discover`'s arguments; the device table and
 * its JSON are device/discover_text.c's. */
#include "cli/cli.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "device/device.h"

static const char usage[] =
	"usage: ebsbench discover [--json] [--all] [--accept-model MODEL]\n"
	"Lists NVMe namespaces (--all: every disk, loop devices included): EBS volume,\n"
	"instance store or other, size, and what makes a device unsafe to write: system\n"
	"disk, mounted, held (dm/md/LVM), partitions, and what it holds: libblkid's TYPE,\n"
	"PTTYPE and USAGE (filesystem, raid, crypto), or unrecognised non-zero data.\n"
	"--accept-model treats that NVMe model as an EBS volume (QEMU: \"QEMU NVMe Ctrl\").\n";

int cmd_discover(int argc, char **argv, const volatile sig_atomic_t *stop)
{
	(void)stop; /* short: it has nothing to stop early */
	struct discover_options opt = { 0 };
	struct discover_list list;
	bool as_json = false;
	char err[512];
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			as_json = true;
		else if (!strcmp(argv[i], "--all"))
			opt.all_block_devices = true;
		else if (!strcmp(argv[i], "--accept-model") && i + 1 < argc)
			opt.accept_model = argv[++i];
		else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage, stdout);
			return 0;
		} else {
			fprintf(stderr, "ebsbench discover: unknown or incomplete argument '%s'\n",
				argv[i]);
			return 2;
		}
	}
	if (discover_devices(&opt, &list, err, sizeof(err))) {
		fprintf(stderr, "ebsbench discover: %s\n", err);
		return 1;
	}
	if (as_json) {
		json_t *arr = discover_list_json(&list);
		json_dumpf(arr, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
		json_decref(arr);
	} else {
		discover_print_table(stdout, &list);
	}
	discover_list_free(&list);
	return 0;
}
