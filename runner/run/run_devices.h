/* run_devices.h - from the config and what discovery found to the devices a
 * run uses, and the safety rule that guards every write plan. */
#ifndef EBSBENCH_RUN_DEVICES_H
#define EBSBENCH_RUN_DEVICES_H

#include <signal.h>
#include <stddef.h>

#include "run/config.h"
#include "device/device.h"
#include "run/plan.h"

/* Picks the devices: those the config names (by path or volume id), else
 * every EBS(-like) volume that is not a system disk.  Fills devices[] (at
 * most CONFIG_MAX_DEVICES) and *count; -1 with a one-line reason. */
int run_devices_resolve(const struct run_config *c, const struct discover_list *found,
			struct run_device *devices, size_t *count, char *err, size_t errlen);

/* The labelling rule: labels name files and table columns, so they are
 * the config's "label", else its "type" ("gp2"), else the kernel's name
 * for the device (kernel_name; NULL or "" when not known). */
const char *run_devices_label_base(const struct device_config *want, const char *kernel_name);
/* devices[n] gets base, numbered ("gp2-2") when one of devices[0..n) has
 * it already. */
void run_devices_label(struct run_device *devices, size_t n, const char *base);
/* devices[*count] from what discovery found (or a stand-in for it) and
 * the config's entry (NULL: none): volume facts, randread prediction and
 * label, as a run uses them; then ++*count. */
void run_devices_add(struct run_device *devices, size_t *count, const struct discovered_device *d,
		     const struct device_config *want);

/* Refuses a write plan on any device that holds data not listed in
 * allow_destroy, or that is mounted, held or a system disk, before any
 * I/O; the reason names the device and what was found. */
int run_devices_check_writes(const struct run_config *c, const struct run_device *devices,
			     size_t count, char *err, size_t errlen);

/* The second look, before the first write: each device's region in
 * p->read_first read whole (job/read_first.h), the one after the other;
 * what was read goes into its entry of devices_json as "read_first".
 * Returns 0 when all held only zeros and ebsbench's own data, -1 with a
 * one-line refusal naming the device and the byte (or the reason it could
 * not be read, or that stop ended the reading). */
int run_devices_read_first(const struct plan *p, const struct run_device *devices, size_t count,
			   json_t *devices_json, const volatile sig_atomic_t *stop, char *err,
			   size_t errlen);

/* Before the first I/O of the run (and before the read first, which loads
 * what it reads): each device's initialization probe (job/init_probe.h)
 * into its entry of devices_json as "initialization", unless the entry has
 * one already (a resume's, from the stopped run); a line on stderr for a
 * volume still loading from its snapshot, or one the probe could not read. */
void run_devices_probe(const struct run_device *devices, size_t count, json_t *devices_json,
		       const volatile sig_atomic_t *stop);

#endif
