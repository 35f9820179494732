/* design_target.c - the share of full-demand seconds at AWS's design level. */
#include "analysis/design_target.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/finding.h"
#include "lib/lib.h"
#include "results/results.h"

/* The share of the time AWS designs each type to hold the level. */
static double of_time(enum ebs_type type)
{
	return type == EBS_IO1 || type == EBS_IO2 ? 0.999 : 0.99;
}

/* Whether a verdict is of a phase its own (or the delivered) limit binds at full demand. */
static bool at_full_demand(const json_t *p, const char *unit)
{
	const char *bound = json_string_value(json_object_get(p, "bound"));

	return results_str_is(json_object_get(p, "unit"), unit) &&
	       json_is_null(json_object_get(p, "offered")) &&
	       results_num_or(p, "iodepth", 1) > VERDICT_LOW_DEPTH && bound &&
	       (!strcmp(bound, ebs_bound_name(EBS_BOUND_VOLUME_IOPS)) ||
		!strcmp(bound, ebs_bound_name(EBS_BOUND_VOLUME_THROUGHPUT)) ||
		!strcmp(bound, ebs_bound_name(EBS_BOUND_DELIVERED)));
}

/* Counts the phase's real seconds, and those at or above `level`. */
static void count_seconds(const json_t *phase, double per_op, double level, size_t *seconds,
			  size_t *at_level)
{
	size_t n = results_second_windows(phase, NULL, 0);
	double *w = n ? malloc(n * sizeof(*w)) : NULL;

	if (!w)
		return;
	results_second_windows(phase, w, n);
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(w[i]))
			continue;
		++*seconds;
		*at_level += w[i] * per_op >= level;
	}
	free(w);
}

json_t *design_target_judge(const json_t *results, const struct verdict_device *d,
			    const json_t *phases, double provisioned, json_t *findings)
{
	bool throughput = d->volume.type == EBS_ST1 || d->volume.type == EBS_SC1;
	const char *unit = throughput ? "MiB/s" : "IOPS";
	double share_of_time = of_time(d->volume.type), level = DESIGN_TARGET_LEVEL * provisioned;
	size_t seconds = 0, at_level = 0, loading = 0, i;
	const json_t *p;
	char line[400];

	if (!d->is_ebs || !(provisioned > 0))
		return json_null();
	json_array_foreach(phases, i, p)
	{
		const char *name = json_string_value(json_object_get(p, "phase"));
		const json_t *phase = name ? results_phase(results, name, d->label) : NULL;
		if (!phase || !at_full_demand(p, unit))
			continue;
		/* Blocks still loading from a snapshot: not what the target is about. */
		if (results_str_is(json_object_get(p, "verdict"), ebs_verdict_name(EBS_LOADING))) {
			loading++;
			continue;
		}
		double bs = results_num_or(phase, "bs", NAN);
		count_seconds(phase, throughput ? bs / MIB : 1, level, &seconds, &at_level);
	}
	/* Fewer seconds than this and one slow second is already a miss. */
	double needed = ceil(1 / (1 - share_of_time) - 1e-9);
	double share = seconds ? (double)at_level / (double)seconds : NAN;
	const char *verdict = !seconds && loading	 ? "not judged: still loading"
			      : (double)seconds < needed ? "too short to judge"
			      : share >= share_of_time	 ? "met"
							 : "missed";
	if (!seconds)
		snprintf(line, sizeof(line),
			 "%s: AWS's design target (%.0f %% of its %.0f %s %.1f %% of the time) "
			 "cannot be judged: %s.",
			 d->label, DESIGN_TARGET_LEVEL * 100, provisioned, unit,
			 share_of_time * 100,
			 loading ? "its phases at full demand read blocks still loading from its "
				   "snapshot, which the target is not about"
				 : "no phase at full demand against its own limit recorded a "
				   "second-by-second series");
	else if ((double)seconds < needed)
		snprintf(
			line, sizeof(line),
			"%s: %zu of %zu seconds at full demand at or above %.0f %s (%.0f %% of its "
			"%.0f): too short to judge AWS's design target (%.1f %% of the time needs "
			"at least %.0f seconds).",
			d->label, at_level, seconds, level, unit, DESIGN_TARGET_LEVEL * 100,
			provisioned, share_of_time * 100, needed);
	else
		snprintf(line, sizeof(line),
			 "%s: %zu of %zu seconds at full demand (%.1f %%) at or above %.0f %s "
			 "(%.0f %% "
			 "of its %.0f): AWS's design target, %.1f %% of the time, %s in this run.",
			 d->label, at_level, seconds, 100 * share, level, unit,
			 DESIGN_TARGET_LEVEL * 100, provisioned, share_of_time * 100, verdict);
	finding_add(findings,
		    strcmp(verdict, "too short to judge") && !loading ? FINDING_DESIGN_TARGET
								      : FINDING_DETAIL,
		    line);
	return json_pack("{s:f,s:f,s:s,s:f,s:I,s:I,s:o,s:s,s:s}", "target", DESIGN_TARGET_LEVEL,
			 "of_time", share_of_time, "unit", unit, "level", level, "seconds",
			 (json_int_t)seconds, "at_level", (json_int_t)at_level, "share",
			 isfinite(share) ? json_real(share) : json_null(), "verdict", verdict,
			 "sentence", line);
}
