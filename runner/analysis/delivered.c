/* delivered.c - the level a volume held below what it is sold as. */
#include "analysis/delivered.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/finding.h"
#include "lib/lib.h"
#include "results/results.h"
#include "stats/stats.h"

/* A phase the volume's own limit binds at full demand. */
static bool binds_at_full_demand(const json_t *p, const char *unit)
{
	const char *bound = json_string_value(json_object_get(p, "bound"));

	return results_str_is(json_object_get(p, "unit"), unit) &&
	       !results_str_is(json_object_get(p, "verdict"), ebs_verdict_name(EBS_LOADING)) &&
	       json_is_null(json_object_get(p, "offered")) &&
	       json_is_null(json_object_get(p, "credits_at_start")) &&
	       results_num_or(p, "iodepth", 1) > VERDICT_LOW_DEPTH && bound &&
	       (!strcmp(bound, ebs_bound_name(EBS_BOUND_VOLUME_IOPS)) ||
		!strcmp(bound, ebs_bound_name(EBS_BOUND_VOLUME_THROUGHPUT)) ||
		!strcmp(bound, ebs_bound_name(EBS_BOUND_INSTANCE_IOPS)) ||
		!strcmp(bound, ebs_bound_name(EBS_BOUND_INSTANCE_THROUGHPUT))) &&
	       isfinite(results_num(json_object_get(p, "plateau"))) &&
	       results_num(json_object_get(p, "predicted")) > 0;
}

bool delivered_find(const json_t *phases, const char *unit, struct delivered *out)
{
	size_t n = json_array_size(phases), k = 0, i;
	double *level = calloc(n ? n : 1, sizeof(*level));
	double *allowed = calloc(n ? n : 1, sizeof(*allowed));
	double lo = HUGE_VAL, hi = 0;
	bool below = true;
	const json_t *p;

	*out = (struct delivered){ .unit = unit };
	json_array_foreach(phases, i, p)
	{
		if (!level || !allowed || !binds_at_full_demand(p, unit))
			continue;
		level[k] = results_num(json_object_get(p, "plateau"));
		allowed[k] = results_num(json_object_get(p, "predicted"));
		below = below && level[k] < allowed[k] * (1 - VERDICT_TOLERANCE);
		lo = fmin(lo, level[k]);
		hi = fmax(hi, level[k]);
		out->by_instance =
			out->by_instance || !strncmp(json_string_value(json_object_get(p, "bound")),
						     "instance", strlen("instance"));
		const char *name = json_string_value(json_object_get(p, "phase"));
		size_t used = strlen(out->phases);
		if (name && !strstr(out->phases, name))
			snprintf(out->phases + used, sizeof(out->phases) - used, "%s%s",
				 used ? ", " : "", name);
		k++;
	}
	/* One level: the phases agree with each other within the tolerance. */
	bool found = k > 0 && below && hi <= lo * (1 + VERDICT_TOLERANCE);
	if (found) {
		out->level = stats_median(level, k);
		out->provisioned = stats_median(allowed, k);
		out->count = k;
	}
	free(level);
	free(allowed);
	return found;
}

/* Seconds log page 0xD0 counted each limit exceeded over the phases named
 * in dl (NaN: no phase recorded the page). */
static void exceeded_s(const json_t *results, const struct verdict_device *d,
		       const struct delivered *dl, double *volume, double *instance)
{
	const char *kind = strcmp(dl->unit, "IOPS") ? "throughput" : "iops";
	char vkey[48], ikey[48];
	const json_t *phase;
	size_t i;

	snprintf(vkey, sizeof(vkey), "volume_exceeded_%s_us", kind);
	snprintf(ikey, sizeof(ikey), "instance_exceeded_%s_us", kind);
	*volume = *instance = NAN;
	json_array_foreach(json_object_get(results, RESULTS_KEY_PHASES), i, phase)
	{
		const json_t *stats = json_object_get(phase, "ebs_stats");
		const char *name = json_string_value(json_object_get(phase, "phase"));
		if (!results_str_is(json_object_get(phase, "device"), d->label) || !name ||
		    !strstr(dl->phases, name) || !json_is_true(json_object_get(stats, "available")))
			continue;
		*volume = (isnan(*volume) ? 0 : *volume) + results_num_or(stats, vkey, 0) / 1e6;
		*instance =
			(isnan(*instance) ? 0 : *instance) + results_num_or(stats, ikey, 0) / 1e6;
	}
}

/* The instance's limit in the unit, "the m5.xlarge's EBS limit (6000 IOPS,
 * 18750 on burst)", or "the instance's EBS limit" when its type is unknown. */
static void instance_text(char *buf, size_t len, const struct verdict_device *d,
			  const struct delivered *dl)
{
	const struct instance_ebs_limits *in = d->instance;
	bool iops = !strcmp(dl->unit, "IOPS");

	if (!in) {
		snprintf(buf, len, "the instance's EBS limit (its type unknown)");
		return;
	}
	double base = iops ? in->baseline_iops : in->baseline_mbps * 1e6 / MIB;
	double burst = iops ? in->burst_iops : in->burst_mbps * 1e6 / MIB;
	if (burst > base)
		snprintf(buf, len, "the %s's EBS limit (%.0f %s, %.0f for its daily 30 minutes)",
			 in->name, base, dl->unit, burst);
	else
		snprintf(buf, len, "the %s's EBS limit (%.0f %s)", in->name, base, dl->unit);
}

/* The instance's baseline in the unit; NaN when unknown or without burst. */
static double instance_baseline(const struct verdict_device *d, const struct delivered *dl)
{
	const struct instance_ebs_limits *in = d->instance;

	if (!ebs_instance_has_burst(in))
		return NAN;
	return strcmp(dl->unit, "IOPS") ? in->baseline_mbps * 1e6 / MIB : in->baseline_iops;
}

bool delivered_instance_spent(const json_t *results, const struct verdict_device *d,
			      const struct delivered *dl, json_t *findings)
{
	double base = instance_baseline(d, dl), volume_s, instance_s;
	char line[512];

	exceeded_s(results, d, dl, &volume_s, &instance_s);
	if (!(fabs(dl->level - base) <= VERDICT_TOLERANCE * base) || volume_s > instance_s)
		return false;
	snprintf(line, sizeof(line),
		 "%s held %.0f %s in %s from the first second, the %s's EBS baseline (%.0f), not "
		 "the %.0f the volume allows: the instance's own EBS burst was spent before the "
		 "run, so the instance, not the volume, bound it; its phases are judged against "
		 "that baseline.",
		 d->label, dl->level, dl->unit, dl->phases, d->instance->name, base,
		 dl->provisioned);
	finding_add(findings, FINDING_LIMIT, line);
	return true;
}

json_t *delivered_json(const json_t *results, const struct verdict_device *d,
		       const struct delivered *dl, json_t *findings)
{
	double volume_s, instance_s, ratio = dl->level / dl->provisioned;
	char causes[480], inst[96], line[768];

	exceeded_s(results, d, dl, &volume_s, &instance_s);
	instance_text(inst, sizeof(inst), d, dl);
	if (instance_s > 0 && instance_s >= volume_s)
		snprintf(causes, sizeof(causes),
			 "log page 0xD0 counted the instance's limit exceeded for %.1f s (the "
			 "volume's %.1f s), so the cause is %s or other volumes sharing it",
			 instance_s, volume_s, inst);
	else if (volume_s > 0)
		snprintf(causes, sizeof(causes),
			 "log page 0xD0 counted the volume's own limit exceeded for %.1f s (the "
			 "instance's %.1f s), so the volume is provisioned below what the config "
			 "says: check the config's facts (aws ec2 describe-volumes), then a "
			 "modification still optimizing (aws ec2 describe-volumes-modifications)",
			 volume_s, instance_s);
	else
		snprintf(causes, sizeof(causes),
			 "the likely causes, in order: the config's facts (aws ec2 "
			 "describe-volumes shows what it is provisioned at), a modification still "
			 "optimizing (aws ec2 describe-volumes-modifications), %s, other volumes "
			 "sharing that limit",
			 inst);
	snprintf(line, sizeof(line),
		 "%s delivers %.0f %s, %.0f %% of the %.0f %s, in %s: %s. Its phases are judged "
		 "against %.0f (as delivered).",
		 d->label, dl->level, dl->unit, 100 * ratio, dl->provisioned,
		 dl->by_instance ? "the instance's limit allows it" : "it is sold as", dl->phases,
		 causes, dl->level);
	finding_add(findings, FINDING_DELIVERED, line);
	return json_pack(
		"{s:s,s:f,s:f,s:f,s:s,s:o,s:o,s:s}", "unit", dl->unit, "level", dl->level,
		"provisioned", dl->provisioned, "ratio", ratio, "phases", dl->phases,
		"volume_exceeded_s", isfinite(volume_s) ? json_real(volume_s) : json_null(),
		"instance_exceeded_s", isfinite(instance_s) ? json_real(instance_s) : json_null(),
		"sentence", line);
}
