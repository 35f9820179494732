/* off_model.c - one finding for a device's phases the model did not
 * explain (off_model.h). */
#include "analysis/off_model.h"

#include <stdio.h>
#include <string.h>

#include "analysis/finding.h"
#include "results/results.h"

/* One finding for the phases the model did not explain, each with its
 * figures; their own sentences stay details.  The sweep has its own. */
void off_model_finding(const struct verdict_device *d, const json_t *list, json_t *findings)
{
	char line[640], more[64] = "";
	const json_t *p;
	size_t i, off = 0, named = 0;
	int n = 0;

	json_array_foreach(list, i, p)
	{
		const char *name = json_string_value(json_object_get(p, "phase"));
		bool worse = results_str_is(json_object_get(p, "verdict"), "worse");
		if (!name || !strcmp(name, RESULTS_PHASE_SWEEP) ||
		    !(worse || results_str_is(json_object_get(p, "verdict"), "better")))
			continue;
		if (++off > 6 || n < 0 || (size_t)n >= sizeof(line))
			continue;
		char at[48] = "";
		if (json_is_number(json_object_get(p, "offered")))
			snprintf(at, sizeof(at), " at %.0f offered",
				 results_num(json_object_get(p, "offered")));
		n += snprintf(line + n, sizeof(line) - (size_t)n,
			      "%s %s%s %.0f %s (predicted %.0f)", named++ ? "," : ":", name, at,
			      results_num(json_object_get(p, "measured")),
			      json_string_value(json_object_get(p, "unit")),
			      results_num(json_object_get(p, "predicted")));
	}
	if (!off || n < 0 || (size_t)n >= sizeof(line))
		return;
	if (off > named)
		snprintf(more, sizeof(more), " and %zu more", off - named);
	char out[1024];
	if (snprintf(out, sizeof(out),
		     "%s: %zu phase%s off the model by more than %.0f %%%s%s; each phase's "
		     "bounds are in its table.",
		     d->label, off, off == 1 ? "" : "s", VERDICT_TOLERANCE * 100, line, more) > 0)
		finding_add(findings, FINDING_OFF_MODEL, out);
}
