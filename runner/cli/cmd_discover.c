/* cmd_discover.c - `ebsbench discover`'s arguments; the device table and
 * its JSON are device/discover_text.c's. */
#include "cli/cli.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "device/device.h"
#include "job/job.h"

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

int cmd_discover(int argc, char **argv, const volatile sig_atomic_t *stop)
{
	struct discover_options opt = { 0 };
	struct discover_list list;
	bool as_json = false, probe = true;
	char err[512];
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			as_json = true;
		else if (!strcmp(argv[i], "--no-probe"))
			probe = false;
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
	json_t *probes = probe ? probe_all(&list, stop) : json_array();
	if (as_json) {
		json_t *arr = discover_list_json(&list);
		for (size_t i = 0; probe && i < list.count; i++)
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
