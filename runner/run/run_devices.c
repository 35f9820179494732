/* run_devices.c - device selection, volume facts and the write guard. */
#include "run/run_devices.h"
#include "run/internal.h"
#include "lib/lib.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool same_path(const char *a, const char *b)
{
	char ra[PATH_MAX], rb[PATH_MAX];
	if (!strcmp(a, b))
		return true;
	return realpath(a, ra) && realpath(b, rb) && !strcmp(ra, rb);
}

static const struct discovered_device *find_device(const struct discover_list *found,
						   const struct device_config *want)
{
	for (size_t i = 0; i < found->count; i++) {
		const struct discovered_device *d = &found->devices[i];
		if (want->path[0] ? same_path(want->path, d->dev_path)
				  : !strcmp(want->volume_id, d->volume_id))
			return d;
	}
	return NULL;
}

/* Facts the config gives are facts; the rest is derived and says so. */
static void volume_facts(struct run_device *r, const struct device_config *want)
{
	double device_gib = (double)r->info.size_bytes / (double)(1ull << 30);
	enum ebs_type type = want && want->has_type ? want->type : EBS_GP3;
	r->type_assumed = !(want && want->has_type);
	r->size_assumed = !(want && want->size_gib > 0);
	ebs_volume_init(&r->volume, type, r->size_assumed ? device_gib : want->size_gib);
	if (want && want->iops > 0) {
		r->volume.iops = want->iops;
		r->volume.iops_assumed = false;
	}
	if (want && want->throughput_mibs > 0) {
		r->volume.throughput_mibs = want->throughput_mibs;
		r->volume.throughput_assumed = false;
	}
	struct ebs_workload w = { .io_size_bytes = 4096, .credits_at_start = EBS_CREDITS_FULL };
	r->randread = ebs_predict(&r->volume, &w);
}

void run_devices_label(struct run_device *devices, size_t n, const char *base)
{
	struct run_device *r = &devices[n];
	snprintf(r->label, sizeof(r->label), "%s", base);
	for (unsigned k = 2; k < 100; k++) {
		bool taken = false;
		for (size_t i = 0; i < n; i++)
			taken |= !strcmp(devices[i].label, r->label);
		if (!taken)
			return;
		snprintf(r->label, sizeof(r->label), "%.24s-%u", base, k);
	}
}

const char *run_devices_label_base(const struct device_config *want, const char *kernel_name)
{
	if (want && want->label[0])
		return want->label;
	if (want && want->has_type)
		return ebs_type_name(want->type);
	return kernel_name;
}

void run_devices_add(struct run_device *devices, size_t *count, const struct discovered_device *d,
		     const struct device_config *want)
{
	struct run_device *r = &devices[*count];
	memset(r, 0, sizeof(*r));
	r->info = *d;
	volume_facts(r, want);
	run_devices_label(devices, *count, run_devices_label_base(want, d->name));
	(*count)++;
}

int run_devices_resolve(const struct run_config *c, const struct discover_list *found,
			struct run_device *devices, size_t *count, char *err, size_t errlen)
{
	*count = 0;
	for (size_t i = 0; i < c->device_count; i++) {
		const struct device_config *want = &c->devices[i];
		const struct discovered_device *d = find_device(found, want);
		if (!d) {
			snprintf(err, errlen,
				 "device %s was not found (ebsbench discover lists "
				 "what is attached)",
				 want->path[0] ? want->path : want->volume_id);
			return -1;
		}
		run_devices_add(devices, count, d, want);
	}
	for (size_t i = 0; !c->device_count && i < found->count; i++) {
		const struct discovered_device *d = &found->devices[i];
		char why[512];
		if (!d->ebs_like || d->system || *count == CONFIG_MAX_DEVICES)
			continue;
		/* Unasked, only blank volumes: an appliance's own boot disk (a
		 * GPT with its ESP, mounted nowhere) or a data volume is never
		 * picked up by default, even for a read-only plan. */
		if (discover_blocker(d, NULL, 0, why, sizeof(why)) != DISCOVER_WRITE_OK) {
			char name[sizeof(d->dev_path) + sizeof(d->volume_id) + 4];
			discover_device_name(d, name, sizeof(name));
			fprintf(stderr,
				"ebsbench run: leaving out %s: %s; only blank volumes are taken "
				"unasked (name it in the config's devices to test it)\n",
				name, why);
			continue;
		}
		run_devices_add(devices, count, d, NULL);
	}
	if (*count == 0) {
		snprintf(err, errlen,
			 "no EBS volume found to test (name devices in the config, or "
			 "set accept_model for an emulator)");
		return -1;
	}
	return 0;
}

int run_devices_check_writes(const struct run_config *c, const struct run_device *devices,
			     size_t count, char *err, size_t errlen)
{
	const char *allow[CONFIG_MAX_ALLOW];
	size_t allowed = config_allow_list(c, allow);
	for (size_t i = 0; i < count; i++) {
		char why[512];
		if (discover_write_refusal(&devices[i].info, allow, allowed, why, sizeof(why)) !=
		    DISCOVER_WRITE_OK) {
			return error_set(err, errlen, "refusing to write: %s", why);
		}
	}
	return 0;
}

/* results.json's devices[].read_first for what r read. */
static json_t *read_first_json(const struct read_first *r)
{
	return json_pack("{sIsIsIsfss}", "offset", (json_int_t)r->offset, "bytes",
			 (json_int_t)r->length, "bytes_read", (json_int_t)r->bytes_read, "seconds",
			 (double)r->elapsed_ns / 1e9, "found",
			 r->found	    ? "unrecognised data"
			 : r->ebsbench_data ? "ebsbench data"
					    : "zeros");
}

int run_devices_read_first(const struct plan *p, const struct run_device *devices, size_t count,
			   json_t *devices_json, const volatile sig_atomic_t *stop, char *err,
			   size_t errlen)
{
	uint64_t after = p->total_ns;
	for (size_t i = 0; i < count; i++) {
		const struct plan_read_first *want = &p->read_first[i];
		const struct run_device *d = &devices[i];
		char name[sizeof(d->info.dev_path) + sizeof(d->info.volume_id) + 4], label[160],
			why[512];
		struct read_first r;
		if (!want->length)
			continue;
		after -= after > want->planned_ns ? want->planned_ns : after;
		snprintf(label, sizeof(label), "[read first] %s %s", d->label, d->info.dev_path);
		struct job_context ctx = { .stop = stop,
					   .label = label,
					   .remaining_after_ns = after };
		discover_device_name(&d->info, name, sizeof(name));
		if (read_first_device(&r, d->info.dev_path, want->offset, want->length, &ctx, why,
				      sizeof(why))) {
			return error_set(err, errlen,
					 "refusing to write: %s: cannot check it for data: %s",
					 name, why);
		}
		json_object_set_new(json_array_get(devices_json, i), "read_first",
				    read_first_json(&r));
		if (!read_first_clean(&r)) {
			char what[256];
			read_first_describe(&r, what, sizeof(what));
			snprintf(err, errlen,
				 "refusing to write: %s: %s; list %s in allow_destroy to overwrite "
				 "it",
				 name, what,
				 d->info.volume_id[0] ? d->info.volume_id : d->info.dev_path);
			return -1;
		}
	}
	return 0;
}

void run_devices_probe(const struct run_device *devices, size_t count, json_t *devices_json,
		       const volatile sig_atomic_t *stop)
{
	for (size_t i = 0; i < count && !(stop && *stop); i++) {
		const struct run_device *d = &devices[i];
		json_t *entry = json_array_get(devices_json, i);
		/* A resume keeps the stopped run's probe: the blocks it read are
		 * loaded now, so a second probe could only say "not loading". */
		if (json_object_get(entry, "initialization"))
			continue;
		char label[160], why[512];
		struct init_probe r;
		snprintf(label, sizeof(label), "[initialization probe] %s %s", d->label,
			 d->info.dev_path);
		struct job_context ctx = { .stop = stop, .label = label };
		if (init_probe_device(&r, d->info.dev_path, d->info.size_bytes, &ctx, why,
				      sizeof(why))) {
			fprintf(stderr, "ebsbench run: %s: no initialization probe: %s\n", d->label,
				why);
			continue;
		}
		/* First reads slower than repeats on a device not recognised as EBS
		 * are a cache's below it (a loop device's file), never a snapshot's. */
		if (!d->info.ebs_like)
			r.state = "not judged";
		json_object_set_new(entry, "initialization", init_probe_json(&r));
		if (!strcmp(r.state, "loading")) {
			init_probe_describe(&r, why, sizeof(why));
			fprintf(stderr, "ebsbench run: %s (%s): %s\n", d->label, d->info.dev_path,
				why);
		}
	}
}
