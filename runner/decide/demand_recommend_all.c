/* demand_recommend_all.c - `recommend --demand` from its traces to its
 * answers: the traces read, the peak factor and the instance settled, and
 * each trace searched against the volume it was measured on. */
#include "decide/demand_recommend.h"
#include "decide/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "results/results.h"

/* The results' device whose volume ID is the trace's, else its only EBS
 * device; NULL when neither. */
static const json_t *device_for(const json_t *run, const char *volume)
{
	const json_t *d, *only = NULL;
	size_t i, ebs = 0;

	json_array_foreach(json_object_get(run, RESULTS_KEY_DEVICES), i, d)
	{
		const char *id = json_string_value(json_object_get(d, "volume_id"));
		if (id && !strcmp(id, volume))
			return d;
		if (id && !strncmp(id, "vol-", 4)) {
			only = d;
			ebs++;
		}
	}
	return ebs == 1 ? only : NULL;
}

/* The replay's settings: the peak factor (given, or from a fine trace at
 * the first trace's interval), the instance.  0, or -1 with a reason. */
static int settings(const struct demand_question *q, const json_t *run,
		    const struct demand_set *set, struct demand_recommend_opts *o, char *err,
		    size_t errlen)
{
	o->budget = q->budget;
	o->gib = q->gib;
	o->results = run;
	o->sim.peak_factor = q->peak_factor > 0 ? q->peak_factor : 1;
	if (q->peak_from) {
		struct demand_set fine = { 0 };
		int rc = demand_read_file(q->peak_from, &fine, err, errlen);
		for (size_t i = 0; !rc && i < fine.n; i++)
			o->sim.peak_factor =
				fmax(o->sim.peak_factor,
				     demand_peak_to_mean(&fine.v[i], set->v[0].interval_s));
		demand_set_free(&fine);
		if (rc)
			return -1;
	}
	const char *inst =
		json_string_value(RESULTS_GET(run, RESULTS_KEY_ENVIRONMENT, "instance_type"));
	o->sim.instance = q->instance ? q->instance : inst ? ebs_instance_limits_find(inst) : NULL;
	return 0;
}

int demand_recommend_all(const struct demand_question *q, const json_t *run,
			 const struct ebs_prices *prices, struct demand_set *set,
			 struct demand_answer **ans, size_t *n, FILE *warn, char *err,
			 size_t errlen)
{
	struct demand_recommend_opts o = { 0 };
	struct ebs_volume from_results;
	char why[512];

	*ans = NULL;
	*n = 0;
	for (size_t f = 0; f < q->nfiles; f++)
		if (demand_read_file(q->files[f], set, err, errlen))
			return -1;
	if (settings(q, run, set, &o, err, errlen))
		return -1;
	if (!(*ans = calloc(set->n ? set->n : 1, sizeof(**ans)))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < set->n; i++) {
		const json_t *dev = q->volume ? NULL : device_for(run, set->v[i].volume);
		o.current = q->volume;
		if (dev) {
			analysis_volume_from_json(dev, &from_results);
			o.current = &from_results;
		}
		if (demand_recommend(&set->v[i], &o, prices, &(*ans)[*n], why, sizeof(why)))
			fprintf(warn, "ebsbench recommend: %s: skipped\n", why);
		else
			++*n;
	}
	return 0;
}
