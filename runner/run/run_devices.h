/* run_devices.h - a run's devices as presign plans them too: each from
 * what discovery found (or a stand-in) and the config, labelled.  Choosing
 * them, and the safety rule that guards every write plan, are the run's
 * own (run/internal.h). */
#ifndef EBSBENCH_RUN_DEVICES_H
#define EBSBENCH_RUN_DEVICES_H

#include <stddef.h>

#include "run/config.h"
#include "device/device.h"
#include "run/plan.h"

/* devices[n] gets base, numbered ("gp2-2") when one of devices[0..n) has
 * it already. */
void run_devices_label(struct run_device *devices, size_t n, const char *base);
/* devices[*count] from what discovery found (or a stand-in for it) and
 * the config's entry (NULL: none): volume facts, randread prediction and
 * label, as a run uses them; then ++*count. */
void run_devices_add(struct run_device *devices, size_t *count, const struct discovered_device *d,
		     const struct device_config *want);

#endif
