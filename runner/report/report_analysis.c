/* report_analysis.c - `ebsbench report` runs the analysis again on what a
 * results.json holds, so an edited record (phases, volume facts) or a new
 * price re-renders with findings and costs that match it, instead of the
 * ones the run computed. */
#include "report/report_analysis.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "lib/lib.h"
#include "run/run.h"

static const char *const price_fields[] = { "gib_month", "iops_month", "mibs_month" };

static const char *copy_or(const json_t *o, const char *key, char *buf, size_t len,
			   const char *fallback)
{
	const char *s = json_string_value(json_object_get(o, key));
	if (!s)
		return fallback;
	snprintf(buf, len, "%s", s);
	return buf;
}

/* The table results.json recorded ("prices"): the default table with every
 * recorded price on top, a null read as unknown (NaN), as it was written. */
void report_prices_recorded(const json_t *run, struct ebs_prices *p, struct report_price_names *n)
{
	const json_t *rec = json_object_get(run, RESULTS_KEY_PRICES);
	*p = ebs_prices_default();
	p->region = copy_or(rec, "region", n->region, sizeof(n->region), p->region);
	p->as_of = copy_or(rec, "date", n->date, sizeof(n->date), p->as_of);
	p->source = copy_or(rec, "source", n->source, sizeof(n->source), p->source);
	for (int t = 0; t < EBS_TYPE_COUNT; t++) {
		const char *type = ebs_type_name((enum ebs_type)t);
		const json_t *tp = json_object_get(rec, type);
		for (size_t f = 0; tp && f < ARRAY_SIZE(price_fields); f++) {
			const json_t *v = json_object_get(tp, price_fields[f]);
			char name[48];
			snprintf(name, sizeof(name), "%s.%s", type, price_fields[f]);
			if (json_is_number(v))
				ebs_prices_set(p, name, json_number_value(v));
			else if (json_is_null(v))
				ebs_prices_set(p, name, NAN);
		}
	}
}

void report_prices_to_decide(const json_t *run, struct ebs_prices *p, struct report_price_names *n)
{
	struct ebs_prices table;
	char types[64] = "";
	size_t used = 0;

	report_prices_recorded(run, p, n);
	if (!p->region || !ebs_prices_for_region(p->region, &table))
		return;
	unsigned filled = ebs_prices_fill(p, &table);
	for (int t = 0; t < EBS_TYPE_COUNT && used < sizeof(types); t++)
		if (filled & (1u << t))
			used += (size_t)snprintf(types + used, sizeof(types) - used, "%s%s",
						 used ? "/" : "", ebs_type_name((enum ebs_type)t));
	if (!filled)
		return;
	char recorded[200]; /* a run's source, cut to leave the table's room */
	snprintf(recorded, sizeof(recorded), "%s", p->source ? p->source : "");
	snprintf(n->source, sizeof(n->source),
		 "%s; %s not recorded by the run: the built-in table's, whose source is %s",
		 recorded, types, table.source);
	p->source = n->source;
}

int report_prices_load(const char *config_path, json_t **prices, char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *doc = json_load_file(config_path, JSON_REJECT_DUPLICATES, &jerr);
	*prices = NULL;
	if (!doc)
		return error_set(err, errlen, "%s: %s (line %d)", config_path, jerr.text,
				 jerr.line);
	json_t *obj = json_object_get(doc, "prices");
	if (!json_is_object(obj)) {
		snprintf(err, errlen, "%s has no \"prices\" object to re-price with", config_path);
		json_decref(doc);
		return -1;
	}
	/* Checked here, once, so every run gets the same table or none. */
	struct ebs_prices probe = ebs_prices_default();
	unsigned count;
	if (config_prices_apply(&probe, obj, &count, err, errlen)) {
		json_decref(doc);
		return -1;
	}
	*prices = json_incref(obj);
	json_decref(doc);
	return 0;
}

int report_reanalyse(json_t *run, const json_t *overrides, char *err, size_t errlen)
{
	struct ebs_prices p;
	struct report_price_names names;
	unsigned count = 0;
	report_prices_recorded(run, &p, &names);
	if (overrides && config_prices_apply(&p, (json_t *)overrides, &count, err, errlen))
		return -1;
	bool overridden =
		count > 0 || json_is_true(json_object_get(json_object_get(run, RESULTS_KEY_PRICES),
							  "overridden"));
	analysis_build(run, &p);
	json_object_set_new(run, RESULTS_KEY_PRICES, run_record_prices(&p, overridden));
	return 0;
}
