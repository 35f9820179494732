/* run_record.h - the price table results.json records, which `ebsbench
 * report` records again when it re-prices a run.  The pieces `ebsbench
 * run` measures (devices, EBS statistics around a phase and the kernel's
 * view of the same I/O) are run/'s own: run/internal.h. */
#ifndef EBSBENCH_RUN_RECORD_H
#define EBSBENCH_RUN_RECORD_H

#include <jansson.h>
#include <stdbool.h>

#include "model/model.h"

/* The price table the costs were computed with, with its date and source. */
json_t *run_record_prices(const struct ebs_prices *p, bool overridden);

#endif
