/* discover_show.c - what `ebsbench discover` prints of what it found: the
 * device table, or the same as JSON. */
#include "device/discover_show.h"
#include "device/internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* "ebs", "instance-store" or "other". */
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

json_t *discover_device_json(const struct discovered_device *d)
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

void discover_print_table(FILE *out, const struct discover_list *list)
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

json_t *discover_list_json(const struct discover_list *list)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < list->count; i++)
		json_array_append_new(arr, discover_device_json(&list->devices[i]));
	return arr;
}
