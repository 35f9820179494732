/* report_analysis.h - the analysis of a loaded results.json, run again for
 * `ebsbench report`: from the phases, devices and prices the file records,
 * optionally re-priced from a config's "prices". */
#ifndef EBSBENCH_REPORT_ANALYSIS_H
#define EBSBENCH_REPORT_ANALYSIS_H

#include <jansson.h>
#include <stddef.h>

#include "analysis/analysis.h"

/* The strings a recorded price table names, which p's pointers use. */
struct report_price_names {
	char region[64], date[64], source[512];
};

/* The price table results.json recorded ("prices"): the default table
 * with every recorded price on top, a null read as unknown. */
void report_prices_recorded(const json_t *run, struct ebs_prices *p, struct report_price_names *n);
/* The prices recommend weighs a run's volumes at: those it recorded, and
 * for a price it recorded as unknown (a run from before the built-in table
 * had it) the table's of the same region, its source saying so. */
void report_prices_to_decide(const json_t *run, struct ebs_prices *p, struct report_price_names *n);

/* The "prices" object of the config at config_path, checked (every name
 * known, every value a number); *prices holds a reference the caller
 * drops.  -1 with a one-line reason naming the file or the price. */
int report_prices_load(const char *config_path, json_t **prices, char *err, size_t errlen);

/* Replaces run's "analysis" (and its "prices" with the table used: the one
 * it recorded, then overrides, which may be NULL, on top).  Returns 0, or
 * -1 with a one-line reason. */
int report_reanalyse(json_t *run, const json_t *overrides, char *err, size_t errlen);

#endif
