/* options_json.h - a JSON job object, {"name": "gp2-rr", "rw": "randread",
 * "iodepth": 32, "time_based": true}, read through the same option table
 * as the command line, so a plan and a fio command mean the same thing. */
#ifndef EBSBENCH_OPTIONS_JSON_H
#define EBSBENCH_OPTIONS_JSON_H

#include <jansson.h>
#include <stddef.h>

#include "job/options.h"

/* Applies every member of obj in order on top of what o holds already (so
 * plan-wide defaults can go first).  Returns 0, or -1 with a one-line
 * reason naming the member. */
int options_apply_json(struct job_options *o, const json_t *obj, char *err, size_t errlen);

#endif
