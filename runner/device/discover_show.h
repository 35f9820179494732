/* discover_show.h - what `ebsbench discover` prints of what it found
 * (discover_show.c). */
#ifndef EBSBENCH_DISCOVER_SHOW_H
#define EBSBENCH_DISCOVER_SHOW_H

#include <jansson.h>
#include <stdio.h>

#include "device/discover.h"

/* Every device of list as `discover --json` shows it (device/internal.h:
 * discover_device_json), in an array. */
json_t *discover_list_json(const struct discover_list *list);
/* The device table `ebsbench discover` prints: a header line, then one
 * line per device (size, block size, kind, volume, model, blockers). */
void discover_print_table(FILE *out, const struct discover_list *list);

#endif
