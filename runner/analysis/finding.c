/* finding.c - ranked findings from the analysis's sentences. */
#include "analysis/finding.h"

#include <math.h>
#include <stdio.h>

void finding_add(json_t *list, enum finding_rank rank, const char *text)
{
	json_array_append_new(list, json_pack("{s:i,s:s}", "rank", (int)rank, "text", text));
}

const char *finding_text(const json_t *entry)
{
	return json_string_value(json_object_get(entry, "text"));
}

void finding_split(const json_t *list, json_t **findings, json_t **details)
{
	size_t i;
	const json_t *f;

	*findings = json_array();
	*details = json_array();
	json_array_foreach(list, i, f)
		json_array_append_new(*details, json_string(finding_text(f)));
	/* Rank by rank, run order within one: a pass per rank is a stable
	 * sort of a list that never holds more than a few dozen. */
	for (int rank = 0; rank < FINDING_DETAIL; rank++)
		json_array_foreach(list, i, f)
		{
			if (json_array_size(*findings) == FINDINGS_MAX)
				return;
			if (json_integer_value(json_object_get(f, "rank")) == rank)
				json_array_append_new(*findings, json_string(finding_text(f)));
		}
}

const char *finding_credits(char *buf, size_t len, double credits, double of, bool mib)
{
	double scale = mib ? 1024 : 1e6;
	const char *unit = mib ? " GiB of credit" : " M credits";
	if (isnan(of))
		snprintf(buf, len, mib ? "%.0f%s" : "%.2f%s", credits / scale, unit);
	else
		snprintf(buf, len, mib ? "%.0f of %.0f%s" : "%.2f M of %.2f%s", credits / scale,
			 of / scale, unit);
	return buf;
}
