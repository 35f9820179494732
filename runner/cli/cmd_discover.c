/* cmd_discover.c - the device table, or the same as JSON. */
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

static const char *kind_of(const struct discovered_device *d)
{
	if (d->ebs_like)
		return "ebs";
	return d->kind == NVME_CTRL_INSTANCE_STORE ? "instance-store" : "other";
}

/* The blockers in one phrase: "mounted at /data, ext4" or "". */
static void state_of(const struct discovered_device *d, char *buf, size_t len)
{
	char sigs[128] = "";
	size_t used = 0;
	buf[0] = '\0';
	if (d->system)
		used += (size_t)snprintf(buf + used, len - used, "system (%s) ", d->system_mount);
	if (d->mounted && used < len)
		used += (size_t)snprintf(buf + used, len - used, "mounted at %s ", d->mount_point);
	if (d->held && used < len)
		used += (size_t)snprintf(buf + used, len - used, "held by %s ", d->holder);
	if (d->partitions && used < len)
		used += (size_t)snprintf(buf + used, len - used, "%u partitions ", d->partitions);
	if (d->probe_status == 0)
		blkdev_contents_short(&d->contents, sigs, sizeof(sigs));
	else
		snprintf(sigs, sizeof(sigs), "unreadable");
	if (sigs[0] && used < len)
		used += (size_t)snprintf(buf + used, len - used, "%s ", sigs);
	if (used && used <= len)
		buf[used - 1] = '\0';
}

/* libblkid's findings and the scan's, as found (null where nothing). */
static json_t *contents_json(const struct blkdev_contents *c)
{
	json_t *o = json_object();
	const char *keys[] = { "type", "usage", "pttype" };
	const char *vals[] = { c->type, c->usage, c->pttype };
	for (size_t i = 0; i < 3; i++)
		json_object_set_new(o, keys[i], vals[i][0] ? json_string(vals[i]) : json_null());
	json_object_set_new(o, "ambivalent", json_boolean(c->ambivalent));
	json_object_set_new(o, "unrecognised_data_at",
			    c->unrecognised ? json_integer((json_int_t)c->unrecognised_at)
					    : json_null());
	json_object_set_new(o, "ebsbench_data", json_boolean(c->ebsbench_data));
	return o;
}

static json_t *device_json(const struct discovered_device *d)
{
	char state[512], sigs[128] = "";
	state_of(d, state, sizeof(state));
	if (d->probe_status == 0)
		blkdev_contents_short(&d->contents, sigs, sizeof(sigs));
	json_t *o =
		json_pack("{sssssssIsisssssssbsbsbsisbss}", "name", d->name, "path", d->dev_path,
			  "kind", kind_of(d), "size_bytes", (json_int_t)d->size_bytes,
			  "logical_block_size", (int)d->logical_block_size, "model", d->model,
			  "serial", d->serial, "volume_id", d->volume_id, "system", d->system,
			  "mounted", d->mounted, "held", d->held, "partitions", (int)d->partitions,
			  "readable", d->probe_status == 0, "signatures", sigs);
	json_object_set_new(o, "contents",
			    d->probe_status == 0 ? contents_json(&d->contents) : json_null());
	json_object_set_new(o, "blockers", json_string(state));
	return o;
}

static void print_table(FILE *out, const struct discover_list *list)
{
	fprintf(out, "%-14s %10s %5s %-15s %-22s %-24s %s\n", "DEVICE", "SIZE", "LBS", "KIND",
		"VOLUME", "MODEL", "IN USE / DATA");
	for (size_t i = 0; i < list->count; i++) {
		const struct discovered_device *d = &list->devices[i];
		char size[24], state[512];
		snprintf(size, sizeof(size), "%.1fG", (double)d->size_bytes / (1 << 30));
		state_of(d, state, sizeof(state));
		fprintf(out, "%-14s %10s %5u %-15s %-22s %-24.24s %s\n", d->dev_path, size,
			d->logical_block_size, kind_of(d), d->volume_id[0] ? d->volume_id : "-",
			d->model[0] ? d->model : "-", state[0] ? state : "-");
	}
}

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
		json_t *arr = json_array();
		for (size_t i = 0; i < list.count; i++)
			json_array_append_new(arr, device_json(&list.devices[i]));
		json_dumpf(arr, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
		json_decref(arr);
	} else {
		print_table(stdout, &list);
	}
	discover_list_free(&list);
	return 0;
}
