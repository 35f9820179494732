/* cmd_discover.c - `ebsbench discover`'s arguments; the device table and
 * its JSON are device/discover_text.c's. */
#include "cli/cli.h"

#include <jansson.h>
#include <stdio.h>

#include "cli/internal.h"
#include "device/device.h"
#include "job/job.h"
#include "lib/lib.h"

static const char usage[] =
	"usage: ebsbench discover [--json] [--all] [--accept-model MODEL] [--no-probe]\n"
	"Lists NVMe namespaces (--all: every disk, loop devices included): EBS volume,\n"
	"instance store or other, size, and what makes a device unsafe to write: system\n"
	"disk, mounted, held (dm/md/LVM), partitions, and what it holds: libblkid's TYPE,\n"
	"PTTYPE and USAGE (filesystem, raid, crypto), or unrecognised non-zero data.\n"
	"--accept-model treats that NVMe model as an EBS volume (QEMU: \"QEMU NVMe Ctrl\").\n"
	"Each EBS volume is probed (read-only, a second or two): 64 blocks read twice tell\n"
	"a volume still loading from its snapshot (first reads much slower) from one that\n"
	"is not; --no-probe skips it.\n";

/* Each EBS volume's initialization probe (init_probe.h), in list order:
 * a JSON object, or null where it was not probed or could not read. */
static json_t *probe_all(const struct discover_list *list, const volatile sig_atomic_t *stop)
{
	json_t *all = json_array();
	for (size_t i = 0; i < list->count; i++) {
		const struct discovered_device *d = &list->devices[i];
		struct job_context ctx = { .stop = stop, .label = "[initialization probe]" };
		struct init_probe r;
		char err[256];
		if (!d->ebs_like || (stop && *stop)) {
			json_array_append_new(all, json_null());
		} else if (init_probe_device(&r, d->dev_path, d->size_bytes, &ctx, err,
					     sizeof(err))) {
			fprintf(stderr, "ebsbench discover: %s: no initialization probe: %s\n",
				d->dev_path, err);
			json_array_append_new(all, json_null());
		} else {
			json_array_append_new(all, init_probe_json(&r));
		}
	}
	return all;
}

/* The table's probe lines: "/dev/nvme1n1: still loading from its snapshot: ...". */
static void print_probes(FILE *out, const struct discover_list *list, const json_t *probes)
{
	for (size_t i = 0; i < list->count; i++) {
		const json_t *p = json_array_get(probes, i);
		struct init_probe r = {
			.state = json_string_value(json_object_get(p, "state")),
			.blocks = (uint64_t)json_integer_value(json_object_get(p, "blocks")),
			.first_ms = json_number_value(json_object_get(p, "first_read_ms")),
			.second_ms = json_number_value(json_object_get(p, "second_read_ms")),
		};
		char line[256];
		if (!r.state)
			continue;
		init_probe_describe(&r, line, sizeof(line));
		fprintf(out, "%s: %s\n", list->devices[i].dev_path, line);
	}
}

struct discover_args {
	struct discover_options opt;
	bool json, no_probe;
};

static const struct cli_option options[] = {
	CLI_FLAG("--json", struct discover_args, json),
	CLI_FLAG("--no-probe", struct discover_args, no_probe),
	CLI_FLAG("--all", struct discover_args, opt.all_block_devices),
	CLI_VALUE("--accept-model", "MODEL", struct discover_args, opt.accept_model),
};
static const struct cli_command command = { "discover",		 usage, options,
					    ARRAY_SIZE(options), NULL,	NULL };

int cmd_discover(int argc, char **argv, const volatile sig_atomic_t *stop)
{
	struct discover_args a = { 0 };
	struct discover_list list;
	char err[512];
	int rc = cli_parse(&command, argc, argv, &a);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (discover_devices(&a.opt, &list, err, sizeof(err))) {
		fprintf(stderr, "ebsbench discover: %s\n", err);
		return 1;
	}
	json_t *probes = a.no_probe ? json_array() : probe_all(&list, stop);
	if (a.json) {
		json_t *arr = discover_list_json(&list);
		for (size_t i = 0; !a.no_probe && i < list.count; i++)
			json_object_set(json_array_get(arr, i), "initialization",
					json_array_get(probes, i));
		json_dumpf(arr, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
		json_decref(arr);
	} else {
		discover_print_table(stdout, &list);
		print_probes(stdout, &list, probes);
	}
	json_decref(probes);
	discover_list_free(&list);
	return 0;
}
