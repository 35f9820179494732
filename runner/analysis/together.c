/* together.c - the instance's EBS ceiling from the together phase: the
 * devices' series summed, each level held judged against the volumes' sum
 * and the instance's limits, the aggregate's fall told (see together.h). */
#include "analysis/together.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cliff.h"
#include "analysis/finding.h"
#include "analysis/instance_cliff.h"
#include "model/model.h"
#include "results/results.h"

#define MAX_GROUPS 8
#define MAX_MEMBERS 16
#define LINE_LEN 1600
/* The aggregate fell: the level after is below this share of the one before. */
#define TOGETHER_FALL_RATIO 0.8

/* One together group of the run: its phases, a device each. */
struct group {
	const json_t *id;
	const json_t *phase[MAX_MEMBERS];
	size_t n;
};

/* What a level is compared with, in I/O per second at the phase's size. */
struct limits {
	double volumes, volumes_base;		/* the volumes' limits summed: burst, baseline */
	const struct instance_ebs_limits *inst; /* NULL: unknown */
	const char *type;			/* the instance type recorded, or NULL */
	bool ebs;				/* every device an EBS volume */
	double inst_burst, inst_base;
};

enum bound { BOUND_VOLUMES, BOUND_INSTANCE, BOUND_BOTH, BOUND_NEITHER, BOUND_UNKNOWN };
static const char *const bound_names[] = { "volumes", "instance", "both", "neither", "unknown" };

static bool near(double x, double level)
{
	return instance_cliff_near(x, level);
}

/* Whose limit a level is at (together.h). */
static enum bound judge_level(double level, const struct limits *l)
{
	bool v = near(level, l->volumes) || near(level, l->volumes_base);
	bool i = l->inst && (near(level, l->inst_burst) || near(level, l->inst_base));

	if (!l->inst)
		return v ? BOUND_VOLUMES : BOUND_UNKNOWN;
	if (v && i)
		return BOUND_BOTH;
	if (v)
		return BOUND_VOLUMES;
	/* The instance, only where the volumes could have gone faster. */
	if (i && l->volumes > level * (1 + INSTANCE_CLIFF_LEVEL_TOLERANCE))
		return BOUND_INSTANCE;
	return BOUND_NEITHER;
}

/* "the m5.xlarge allows 6000 (18750 on its EBS burst)" */
static void instance_allows(char *buf, size_t len, const struct limits *l)
{
	if (!ebs_instance_has_burst(l->inst))
		snprintf(buf, len, "the %s allows %.0f", l->inst->name, l->inst_base);
	else
		snprintf(buf, len, "the %s allows %.0f on its EBS burst, %.0f after it",
			 l->inst->name, l->inst_burst, l->inst_base);
}

/* "the volumes set it: their limits sum to 9000 (...)", and the like. */
static void bound_clause(char *buf, size_t len, double level, enum bound b, const struct limits *l)
{
	char inst[160] = "";
	double vol = near(level, l->volumes) ? l->volumes : l->volumes_base;

	if (l->inst)
		instance_allows(inst, sizeof(inst), l);
	switch (b) {
	case BOUND_VOLUMES:
		if (l->inst)
			snprintf(buf, len, "the volumes set it: their limits sum to %.0f (%s)", vol,
				 inst);
		else
			snprintf(buf, len,
				 "the volumes set it: their limits sum to %.0f (the instance's "
				 "own limit is not known)",
				 vol);
		break;
	case BOUND_INSTANCE: {
		bool burst = ebs_instance_has_burst(l->inst) && near(level, l->inst_burst) &&
			     !near(level, l->inst_base);
		snprintf(buf, len,
			 "the %s's EBS limit set it (%.0f, its %s), not the volumes (their limits "
			 "sum to %.0f)",
			 l->inst->name, burst ? l->inst_burst : l->inst_base,
			 !ebs_instance_has_burst(l->inst) ? "limit"
			 : burst			  ? "burst figure"
							  : "baseline",
			 l->volumes);
		break;
	}
	case BOUND_BOTH:
		snprintf(buf, len,
			 "the volumes' limits (summed, %.0f) and the instance's (%s) are too close "
			 "to tell which set it",
			 vol, inst);
		break;
	case BOUND_NEITHER:
		snprintf(buf, len, "neither limit set it: the volumes' limits sum to %.0f and %s",
			 l->volumes, inst);
		break;
	default:
		snprintf(buf, len,
			 "below the volumes' limits (summed, %.0f); whether the instance's EBS "
			 "limit set it cannot be told (%s)",
			 l->volumes,
			 l->type ? "its type is not in the model's instance table"
				 : "the instance type was not recorded");
	}
}

/* The groups of the run's phases, by their "together" record. */
static size_t find_groups(const json_t *results, struct group *groups)
{
	const json_t *p;
	size_t i, n = 0;

	json_array_foreach(json_object_get(results, RESULTS_KEY_PHASES), i, p)
	{
		const json_t *id = RESULTS_GET(p, "together", "group");
		size_t g = 0;
		if (!json_is_integer(id) || !json_is_string(json_object_get(p, "device")))
			continue;
		while (g < n && !json_equal(groups[g].id, id))
			g++;
		if (g == n && n == MAX_GROUPS)
			continue;
		if (g == n)
			groups[n++] = (struct group){ .id = id };
		if (groups[g].n < MAX_MEMBERS)
			groups[g].phase[groups[g].n++] = p;
	}
	return n;
}

static double phase_ops(const json_t *p)
{
	return results_num_or(RESULTS_GET(p, "job", "read"), "iops", 0) +
	       results_num_or(RESULTS_GET(p, "job", "write"), "iops", 0);
}

/* The devices' series summed window by window, over the windows all have:
 * a newly allocated array of *len (NULL when a device has none). */
static double *sum_series(const struct group *g, size_t *len)
{
	size_t n = SIZE_MAX;
	for (size_t m = 0; m < g->n; m++) {
		size_t k = json_array_size(json_object_get(g->phase[m], "iops_series"));
		n = k < n ? k : n;
	}
	double *sum = n && n != SIZE_MAX ? calloc(n, sizeof(*sum)) : NULL;
	*len = sum ? n : 0;
	for (size_t m = 0; sum && m < g->n; m++)
		for (size_t k = 0; k < n; k++)
			sum[k] += results_num(
				json_array_get(json_object_get(g->phase[m], "iops_series"), k));
	return sum;
}

/* "1234 IOPS (5.1 MB/s)" */
static const char *rate_text(char *buf, size_t len, double ops, double bs)
{
	snprintf(buf, len, "%.0f IOPS (%.1f MB/s)", ops, ops * bs / 1e6);
	return buf;
}

static json_t *members_json(const struct group *g, double bs, char *names, size_t len)
{
	json_t *list = json_array();
	size_t used = 0;
	for (size_t m = 0; m < g->n; m++) {
		const char *label = json_string_value(json_object_get(g->phase[m], "device"));
		double ops = phase_ops(g->phase[m]);
		json_array_append_new(list, json_pack("{s:s,s:f,s:f}", "device", label, "iops", ops,
						      "mbps", ops * bs / 1e6));
		if (used < len)
			used += (size_t)snprintf(names + used, len - used, "%s%s",
						 m ? (m + 1 == g->n ? " and " : ", ") : "", label);
	}
	return list;
}

static void limits_of(const json_t *results, const struct group *g, double bs, struct limits *l)
{
	memset(l, 0, sizeof(*l));
	l->ebs = true;
	for (size_t m = 0; m < g->n; m++) {
		const char *label = json_string_value(json_object_get(g->phase[m], "device"));
		const json_t *kind = json_object_get(results_device(results, label), "kind");
		l->ebs = l->ebs && !results_str_is(kind, "instance-store") &&
			 !results_str_is(kind, "other");
		l->volumes += instance_cliff_volume_ops(results, label, bs, true);
		l->volumes_base += instance_cliff_volume_ops(results, label, bs, false);
	}
	l->type = json_string_value(RESULTS_GET(results, RESULTS_KEY_ENVIRONMENT, "instance_type"));
	l->inst = l->type ? ebs_instance_limits_find(l->type) : NULL;
	if (l->inst) {
		l->inst_burst = instance_cliff_instance_ops(l->inst, bs, true);
		l->inst_base = instance_cliff_instance_ops(l->inst, bs, false);
	}
}

/* The aggregate's fall: whose it was, and the sentence's clause. */
static const char *fall_kind(double after, const struct limits *l)
{
	bool at_inst = l->inst && near(after, l->inst_base);
	bool at_volumes = near(after, l->volumes_base);
	if (at_inst && !at_volumes && ebs_instance_has_burst(l->inst))
		return "instance";
	if (at_volumes && !at_inst)
		return "volumes";
	return "unknown";
}

static void fall_clause(char *buf, size_t len, const char *kind, double run_s, double scale,
			const struct limits *l)
{
	if (!strcmp(kind, "instance"))
		snprintf(buf, len,
			 "the %s's EBS burst ran out at %.1f s of the run (the model: %.0f s at "
			 "full demand), and the sum fell to its baseline, not to the volumes' "
			 "(%.0f)",
			 l->inst->name, run_s, l->inst->burst_seconds_per_day * scale,
			 l->volumes_base);
	else if (!strcmp(kind, "volumes"))
		snprintf(buf, len,
			 "the volumes' own credit ran out (%.1f s of the run): the sum fell to "
			 "their baselines' (%.0f)%s",
			 run_s, l->volumes_base,
			 l->inst ? ", not to the instance's EBS baseline" : "");
	else
		snprintf(buf, len,
			 "a fall at %.1f s of the run to a level that is neither the volumes' "
			 "baselines summed (%.0f) nor %s",
			 run_s, l->volumes_base,
			 l->inst ? "the instance's EBS baseline" : "a known instance limit");
}

/* A plateau's level: the median of its seconds, the mean when it spans
 * under three. */
static double plateau_level(const struct cliff_plateau *p)
{
	return p->end - p->start >= 3 ? p->median : p->mean;
}

/* The sum's fall, looked for in its real seconds' means (a scaled run's
 * 10 ms windows count too few slow I/Os each, and a loaded host's stalls
 * dip them as deep as a cliff): a deep one as cliff.c finds a credit
 * cliff, or a shallow one (after below TOGETHER_FALL_RATIO of before: three
 * gp3's 9,000 to an m5.xlarge's 6,000) only where it lands on a baseline,
 * the instance's or the volumes' summed.  c's indices count seconds. */
static void find_fall(const double *series, size_t n, size_t per, const struct limits *l,
		      struct cliff *c)
{
	struct cliff_params params = cliff_params_default();
	size_t secs = n / per;
	double *s = secs ? calloc(secs, sizeof(*s)) : NULL;
	struct cliff shallow;

	c->result = CLIFF_TOO_SHORT;
	for (size_t k = 0; s && k < secs * per; k++)
		s[k / per] += series[k] / (double)per;
	if (!s || cliff_find(s, secs, &params, c)) {
		c->result = CLIFF_TOO_SHORT;
	} else if (c->result != CLIFF_FOUND) {
		params.max_ratio = TOGETHER_FALL_RATIO;
		if (!cliff_find(s, secs, &params, &shallow) && shallow.result == CLIFF_FOUND &&
		    ((l->inst && near(plateau_level(&shallow.after), l->inst_base)) ||
		     near(plateau_level(&shallow.after), l->volumes_base)))
			*c = shallow;
	}
	free(s);
}

struct run_clock {
	double start_ms, scale;
};

/* One group's object and its finding. */
static json_t *group_json(const json_t *results, const struct group *g,
			  const struct run_clock *clock, json_t *findings)
{
	const json_t *first = g->phase[0];
	double bs = results_num_or(first, "bs", 4096), window_s = results_window_s(first);
	const char *rw = json_string_value(json_object_get(first, "rw"));
	char names[256] = "", line[LINE_LEN], a[320], b[320], ra[64], rb[64];
	struct limits l;
	struct cliff c;
	size_t n;
	double *series = sum_series(g, &n);
	double sum_ops = 0;

	for (size_t m = 0; m < g->n; m++)
		sum_ops += phase_ops(g->phase[m]);
	limits_of(results, g, bs, &l);
	json_t *o = json_pack("{s:O,s:o,s:f,s:s?}", "group", g->id, "devices",
			      members_json(g, bs, names, sizeof(names)), "bs", bs, "rw", rw);
	size_t per = (size_t)fmax(1.0, round(1.0 / window_s)); /* windows a real second */
	find_fall(series, n, per, &l, &c);
	json_t *agg = json_array();
	for (size_t k = 0; k < n; k++)
		json_array_append_new(agg, json_real(series[k]));
	bool fell = c.result == CLIFF_FOUND && l.ebs;
	bool whole = c.result != CLIFF_TOO_SHORT && c.before.end > c.before.start;
	double level = fell || whole ? plateau_level(&c.before) : sum_ops;
	double after = fell ? plateau_level(&c.after) : NAN;
	free(series);
	enum bound bl = judge_level(level, &l);
	snprintf(line, sizeof(line), "%s driven at once (%.0f KiB %s):", names, bs / 1024,
		 rw ? rw : "I/O");
	bound_clause(a, sizeof(a), level, bl, &l);
	json_object_set_new(o, "window_s", json_real(window_s));
	json_object_set_new(o, "series", agg);
	json_object_set_new(o, "iops", json_real(level));
	json_object_set_new(o, "mbps", json_real(level * bs / 1e6));
	json_object_set_new(o, "bound", json_string(bound_names[bl]));
	json_object_set_new(o, "volumes_iops", json_real(l.volumes));
	json_object_set_new(o, "volumes_baseline_iops", json_real(l.volumes_base));
	json_object_set_new(o, "instance",
			    l.inst ? json_pack("{s:s,s:f,s:f,s:b}", "type", l.inst->name,
					       "burst_iops", l.inst_burst, "baseline_iops",
					       l.inst_base, "bursts",
					       ebs_instance_has_burst(l.inst))
				   : json_null());
	if (!l.ebs) {
		size_t used = strlen(line);
		snprintf(line + used, sizeof(line) - used,
			 " %s in all; not every device is an EBS volume, so the EBS model does not "
			 "apply.",
			 rate_text(ra, sizeof(ra), sum_ops, bs));
		json_object_set_new(o, "bound", json_string("not EBS"));
		json_object_set_new(o, "cliff", json_null());
	} else if (!fell) {
		size_t used = strlen(line);
		snprintf(line + used, sizeof(line) - used, " %s in all; %s.",
			 rate_text(ra, sizeof(ra), level, bs), a);
		json_object_set_new(o, "cliff", json_null());
	} else {
		double at = (double)(c.second * per) * window_s;
		double run_s =
			(results_num(json_object_get(first, "started_ms")) - clock->start_ms) /
				1000 +
			at;
		enum bound ba = judge_level(after, &l);
		const char *kind = fall_kind(after, &l);
		char fall[400];
		size_t used = strlen(line);
		bound_clause(b, sizeof(b), after, ba, &l);
		fall_clause(fall, sizeof(fall), kind, run_s, clock->scale, &l);
		snprintf(line + used, sizeof(line) - used,
			 " %s in all until %.1f s, %s; then %s, %s: %s.",
			 rate_text(ra, sizeof(ra), level, bs), at, a,
			 rate_text(rb, sizeof(rb), after, bs), b, fall);
		json_object_set_new(
			o, "cliff",
			json_pack("{s:f,s:f,s:f,s:f,s:s,s:s,s:o}", "second", at, "run_second",
				  run_s, "before_iops", level, "after_iops", after, "bound_after",
				  bound_names[ba], "kind", kind, "model_second",
				  l.inst && ebs_instance_has_burst(l.inst)
					  ? json_real(l.inst->burst_seconds_per_day * clock->scale)
					  : json_null()));
	}
	json_object_set_new(o, "sentence", json_string(line));
	finding_add(findings, FINDING_LIMIT, line);
	return o;
}

json_t *together_judge(const json_t *results, json_t *findings)
{
	struct group groups[MAX_GROUPS];
	size_t n = find_groups(results, groups);
	const json_t *first = json_array_get(json_object_get(results, RESULTS_KEY_PHASES), 0);
	struct run_clock clock = {
		.start_ms = results_num(json_object_get(first, "started_ms")),
		.scale = results_num_or(json_object_get(results, RESULTS_KEY_PLAN), "time_scale", 1)
	};

	if (!n)
		return NULL;
	if (!(clock.scale > 0) || !isfinite(clock.scale))
		clock.scale = 1;
	json_t *list = json_array();
	for (size_t g = 0; g < n; g++)
		json_array_append_new(list, group_json(results, &groups[g], &clock, findings));
	return list;
}
