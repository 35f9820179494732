/* instance_cliff.c - tells a volume's credit cliff from the end of the
 * instance's own EBS burst, on the run's clock (see instance_cliff.h). */
#include "analysis/instance_cliff.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/finding.h"
#include "lib/lib.h"
#include "results/results.h"

#define MAX_FALLS 16
#define SENTENCE_LEN 640

/* One device's found cliff, placed on the run's clock. */
struct fall {
	const char *label;
	json_t *cliff;	      /* analysis.devices[].cliff, tagged with its kind */
	const char *phase;    /* the phase it fell in: randread, seqread (st1/sc1) */
	const char *unit;     /* of its levels: IOPS, or MiB/s on a throughput bucket */
	double run_s;	      /* when it fell, from the run's first phase start */
	double phase_s;	      /* the same, from its own phase's start */
	double before, after; /* medians either side */
	double bs;
	double volume_base, instance_base; /* in unit, at the phase's I/O size */
	int stats; /* log page 0xD0: 1 instance exceeded, 0 only the volume, -1 unknown */
	bool instance_like;
};

/* What the run's clock and the instance give every fall. */
struct judge {
	const json_t *results;
	const struct instance_ebs_limits *inst;
	const char *instance_type; /* NULL: not recorded */
	double start_ms, time_scale;
	struct fall falls[MAX_FALLS];
	size_t count;
};

/* "1,800 s" for long spans, "18.5 s" for short ones (a scaled run). */
static const char *secs(char *buf, size_t len, double s)
{
	snprintf(buf, len, s >= 100 ? "%.0f s" : "%.1f s", s);
	return buf;
}

double instance_cliff_volume_ops(const json_t *results, const char *label, double bs, bool burst)
{
	struct ebs_volume v;
	struct ebs_workload w = { .io_size_bytes = bs, .credits_at_start = EBS_CREDITS_FULL };
	const json_t *device = results_device(results, label);
	struct ebs_prediction p;

	if (!device)
		return NAN;
	analysis_volume_from_json(device, &v);
	p = ebs_predict(&v, &w);
	return burst ? p.burst.ops : p.baseline.ops;
}

double instance_cliff_instance_ops(const struct instance_ebs_limits *inst, double bs, bool burst)
{
	struct ebs_rate unlimited = { HUGE_VAL, EBS_BOUND_NONE };
	return ebs_rate_with_instance(unlimited, bs, inst, burst).ops;
}

/* What log page 0xD0 said about the phase: 1 the instance throttled, 0
 * the volume did and the instance did not, -1 not read or neither. */
static int stats_say(const json_t *phase)
{
	const json_t *s = json_object_get(phase, "ebs_stats");
	double inst = results_num_or(s, "instance_exceeded_iops_us", 0) +
		      results_num_or(s, "instance_exceeded_throughput_us", 0);
	double vol = results_num_or(s, "volume_exceeded_iops_us", 0) +
		     results_num_or(s, "volume_exceeded_throughput_us", 0);

	if (!json_is_true(json_object_get(s, "available")))
		return -1;
	if (inst > 0)
		return 1;
	return vol > 0 ? 0 : -1;
}

bool instance_cliff_near(double x, double level)
{
	return level > 0 && fabs(x - level) <= INSTANCE_CLIFF_LEVEL_TOLERANCE * level;
}

/* Places the device's found cliff, if any, on the run's clock. */
static void fall_add(struct judge *j, json_t *device_analysis)
{
	const char *label = json_string_value(json_object_get(device_analysis, "device"));
	json_t *cliff = json_object_get(device_analysis, "cliff");
	struct ebs_volume v;
	analysis_volume_from_json(results_device(j->results, label), &v);
	const char *name = ebs_cliff_phase(v.type);
	const json_t *phase = label ? results_phase(j->results, name, label) : NULL;
	struct fall *f = &j->falls[j->count];

	if (!phase || j->count == MAX_FALLS ||
	    !results_str_is(json_object_get(cliff, "status"), "found"))
		return;
	*f = (struct fall){ .label = label, .cliff = cliff, .phase = name };
	f->phase_s = results_num(json_object_get(cliff, "second"));
	f->run_s = (results_num(json_object_get(phase, "started_ms")) - j->start_ms) / 1000 +
		   f->phase_s;
	f->before = results_num(RESULTS_GET(cliff, "before", "median"));
	f->after = results_num(RESULTS_GET(cliff, "after", "median"));
	f->bs = results_num_or(phase, "bs", 4096);
	/* A throughput bucket's cliff is in MiB/s (analysis.c): its bases too. */
	double to_unit = ebs_type_throughput_bucket(v.type) ? f->bs / MIB : 1;
	f->unit = ebs_type_throughput_bucket(v.type) ? "MiB/s" : "IOPS";
	f->volume_base = instance_cliff_volume_ops(j->results, label, f->bs, false) * to_unit;
	f->instance_base =
		j->inst ? instance_cliff_instance_ops(j->inst, f->bs, false) * to_unit : NAN;
	f->stats = stats_say(phase);
	f->instance_like =
		f->stats == 1 || (instance_cliff_near(f->after, f->instance_base) &&
				  !instance_cliff_near(f->after, f->volume_base) && f->stats != 0);
	j->count++;
}

/* Whether every instance-like fall came at the first one's run second. */
static bool falls_line_up(const struct judge *j, const struct fall *first, char *why, size_t len)
{
	double window_s = 1.0 * j->time_scale;
	double tolerance = fmax(2 * window_s, 0.05 * first->run_s);
	char a[32], b[32];

	for (size_t i = 0; i < j->count; i++) {
		const struct fall *f = &j->falls[i];
		if (f->instance_like && fabs(f->run_s - first->run_s) > tolerance) {
			snprintf(why, len,
				 "the devices' falls do not line up (%s at %s, %s at %s): the "
				 "instance has one bucket and falls once",
				 first->label, secs(a, sizeof(a), first->run_s), f->label,
				 secs(b, sizeof(b), f->run_s));
			return false;
		}
	}
	return true;
}

static double phase_ops(const json_t *p)
{
	return results_num_or(RESULTS_GET(p, "job", "read"), "iops", 0) +
	       results_num_or(RESULTS_GET(p, "job", "write"), "iops", 0);
}

/* A together group's phase (plan.h) counts as its whole group: the
 * instance holds the devices' sum.  False for the group's later members
 * (judged with the first); *ops and *volumes summed over the group. */
static bool group_sum(const json_t *results, const json_t *p, double bs, double *ops,
		      double *volumes)
{
	const json_t *group = RESULTS_GET(p, "together", "group"), *q;
	size_t i;

	if (!json_is_integer(group))
		return true;
	if (!json_equal(group, json_object_get(p, "step")))
		return false;
	*ops = *volumes = 0;
	json_array_foreach(json_object_get(results, RESULTS_KEY_PHASES), i, q)
	{
		if (!json_equal(group, RESULTS_GET(q, "together", "group")))
			continue;
		*ops += phase_ops(q);
		*volumes += instance_cliff_volume_ops(
			results, json_string_value(json_object_get(q, "device")), bs, true);
	}
	return true;
}

/* Whether every phase that began after the fall, on any device, stayed
 * at or below the instance's baseline (a together group's devices
 * summed); *held counts those whose volume could have gone faster. */
static bool held_after(const struct judge *j, const struct fall *first, size_t *held, char *why,
		       size_t len)
{
	const json_t *p;
	size_t i;

	*held = 0;
	json_array_foreach(json_object_get(j->results, RESULTS_KEY_PHASES), i, p)
	{
		const char *label = json_string_value(json_object_get(p, "device"));
		const char *name = json_string_value(json_object_get(p, "phase"));
		double bs = results_num_or(p, "bs", NAN);
		double at_s = (results_num(json_object_get(p, "started_ms")) - j->start_ms) / 1000;
		double ops = phase_ops(p);
		double cap = instance_cliff_instance_ops(j->inst, bs, false);
		double volumes =
			label ? instance_cliff_volume_ops(j->results, label, bs, true) : NAN;
		if (!label || !(bs > 0) || !(at_s >= first->run_s) ||
		    !group_sum(j->results, p, bs, &ops, &volumes) || !(volumes > cap))
			continue;
		if (ops > cap * (1 + INSTANCE_CLIFF_LEVEL_TOLERANCE)) {
			snprintf(why, len,
				 "%s %s ran at %.0f IOPS%s after it, above the %s baseline of "
				 "%.0f: the instance was not holding the volumes",
				 label, name ? name : "?", ops,
				 json_object_get(p, "together") ? " with the devices driven with it"
								: "",
				 j->inst->name, cap);
			return false;
		}
		(*held)++;
	}
	return true;
}

static void tag(json_t *cliff, const char *kind, const char *sentence)
{
	json_object_set_new(cliff, "kind", json_string(kind));
	json_object_set_new(cliff, "cause", json_string(sentence));
}

/* "not the gp2 credit cliff": the volume types of the instance's falls. */
static void instance_sentence(const struct judge *j, const struct fall *first, size_t held,
			      char *buf, size_t len)
{
	const json_t *vol = json_object_get(results_device(j->results, first->label), "volume");
	const char *type = json_string_value(json_object_get(vol, "type"));
	char at[32], model[32], after[96];

	if (held)
		snprintf(after, sizeof(after),
			 "; %zu phase%s measured after it held at or below it", held,
			 held == 1 ? "" : "s");
	else
		snprintf(after, sizeof(after), "; no phase measured after it could go faster");
	snprintf(buf, len,
		 "the instance's EBS burst ended at %s (the model: %s at full demand): every "
		 "volume fell to the %s baseline of %.0f %s together (%s fell from %.0f to "
		 "%.0f%s); not the %s credit cliff (the volume's own baseline is %.0f %s).",
		 secs(at, sizeof(at), first->run_s),
		 secs(model, sizeof(model), j->inst->burst_seconds_per_day * j->time_scale),
		 j->inst->name, first->instance_base, first->unit, first->label, first->before,
		 first->after, after, type ? type : "volume's", first->volume_base, first->unit);
}

/* The volume's own cliff, and why it is not the instance's. */
static void volume_sentence(const struct judge *j, const struct fall *f, const char *why, char *buf,
			    size_t len)
{
	char at[32], run_at[32], head[128];

	snprintf(head, sizeof(head), "%s: the cliff at %s into %s (%s of the run)", f->label,
		 secs(at, sizeof(at), f->phase_s), f->phase,
		 secs(run_at, sizeof(run_at), f->run_s));
	if (!ebs_instance_has_burst(j->inst))
		snprintf(buf, len,
			 "%s is the volume's own: %s has no EBS burst of its own (its maximum "
			 "is its baseline).",
			 head, j->inst->name);
	else if (why && *why)
		snprintf(buf, len, "%s is the volume's own: %s.", head, why);
	else if (f->stats == 0)
		snprintf(buf, len,
			 "%s is the volume's own: the EBS statistics (log page 0xD0) show the "
			 "volume throttling and no instance-exceeded time.",
			 head);
	else
		snprintf(buf, len,
			 "%s is the volume's own: it fell to %.0f %s (the volume's baseline is "
			 "%.0f), not to the %s EBS baseline of %.0f.",
			 head, f->after, f->unit, f->volume_base, j->inst->name, f->instance_base);
}

/* Every cliff, when the instance's limits are not known. */
static void judge_unknown(struct judge *j, json_t *sentences)
{
	char line[SENTENCE_LEN], why[160], at[32], run_at[32];

	if (j->instance_type)
		snprintf(why, sizeof(why), "%s is not in the model's instance table",
			 j->instance_type);
	else
		snprintf(why, sizeof(why), "the instance type was not recorded");
	for (size_t i = 0; i < j->count; i++) {
		snprintf(line, sizeof(line),
			 "%s: the instance could not be judged (%s), so whether the cliff at %s "
			 "into %s (%s of the run) is the volume's or the end of the "
			 "instance's EBS burst is not known.",
			 j->falls[i].label, why, secs(at, sizeof(at), j->falls[i].phase_s),
			 j->falls[i].phase, secs(run_at, sizeof(run_at), j->falls[i].run_s));
		tag(j->falls[i].cliff, "unknown", line);
		json_array_append_new(sentences, json_string(line));
	}
}

/* Every cliff against a known instance; returns the run's kind. */
static const char *judge_known(struct judge *j, json_t *sentences)
{
	const struct fall *first = NULL;
	char why[320] = "", line[SENTENCE_LEN];
	size_t held = 0;
	bool instance = false;

	for (size_t i = 0; i < j->count && !first; i++)
		first = j->falls[i].instance_like ? &j->falls[i] : NULL;
	if (first && ebs_instance_has_burst(j->inst))
		instance = falls_line_up(j, first, why, sizeof(why)) &&
			   held_after(j, first, &held, why, sizeof(why));
	if (instance) {
		instance_sentence(j, first, held, line, sizeof(line));
		json_array_append_new(sentences, json_string(line));
	}
	for (size_t i = 0; i < j->count; i++) {
		struct fall *f = &j->falls[i];
		if (instance && f->instance_like) {
			tag(f->cliff, "instance", line);
			continue;
		}
		char own[SENTENCE_LEN];
		volume_sentence(j, f, f->instance_like ? why : NULL, own, sizeof(own));
		tag(f->cliff, "volume", own);
		json_array_append_new(sentences, json_string(own));
	}
	return instance ? "instance" : "volume";
}

json_t *instance_cliff_judge(const json_t *results, json_t *analysis_devices, json_t *findings)
{
	struct judge j = { .results = results };
	const json_t *first_phase = json_array_get(json_object_get(results, RESULTS_KEY_PHASES), 0);
	json_t *d, *sentences = json_array(), *s;
	const char *kind = "none";
	size_t i;

	j.instance_type =
		json_string_value(RESULTS_GET(results, RESULTS_KEY_ENVIRONMENT, "instance_type"));
	j.inst = j.instance_type ? ebs_instance_limits_find(j.instance_type) : NULL;
	j.start_ms = results_num(json_object_get(first_phase, "started_ms"));
	j.time_scale = results_num_or(json_object_get(results, RESULTS_KEY_PLAN), "time_scale", 1);
	if (!(j.time_scale > 0) || !isfinite(j.time_scale))
		j.time_scale = 1;
	json_array_foreach(analysis_devices, i, d)
	{
		fall_add(&j, d);
	}
	if (j.count && !j.inst) {
		judge_unknown(&j, sentences);
		kind = "unknown";
	} else if (j.count) {
		kind = judge_known(&j, sentences);
	}
	json_array_foreach(sentences, i, s)
	{
		/* The instance's fall is a finding of its own; a cliff that is the
		 * volume's own only confirms the cliff's sentence. */
		finding_add(findings, !strcmp(kind, "instance") ? FINDING_LIMIT : FINDING_DETAIL,
			    json_string_value(s));
	}
	return json_pack("{s:s,s:s?,s:b,s:o}", "kind", kind, "instance_type", j.instance_type,
			 "instance_bursts", ebs_instance_has_burst(j.inst), "sentences", sentences);
}
