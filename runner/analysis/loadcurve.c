/* loadcurve.c - a device's loadcurve steps in, its percentiles, knee and
 * sentence out (see loadcurve.h for the knee's definition). */
#include "analysis/loadcurve.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/finding.h"
#include "analysis/internal.h"
#include "analysis/verdict.h"
#include "results/results.h"

/* A step above the sustained rate: not the sustained curve. */
static bool off_curve(const struct loadcurve_step *s)
{
	return s->on_burst || s->above_limit;
}

int loadcurve_find_knee(const struct loadcurve_step *steps, size_t n, struct loadcurve_knee *k)
{
	memset(k, 0, sizeof(*k));
	k->last_good = SIZE_MAX;
	k->base = SIZE_MAX;
	for (size_t i = 0; i < n && k->base == SIZE_MAX; i++)
		if (!off_curve(&steps[i]) && steps[i].p99_ms > 0)
			k->base = i;
	if (k->base == SIZE_MAX)
		return -1;
	k->threshold_ms = LOADCURVE_KNEE_FACTOR * steps[k->base].p99_ms;
	/* The knee is where p99 passes the threshold and stays past it at
	 * every higher load: one step's tail spiked by a busy machine, with
	 * the loads above it back under, is noise, not a cap. */
	for (size_t i = k->base; i < n; i++) {
		if (off_curve(&steps[i]) || !(steps[i].p99_ms > 0))
			continue;
		if (steps[i].p99_ms > k->threshold_ms) {
			if (!k->found)
				k->knee = i;
			k->found = true;
			continue;
		}
		k->found = false;
		k->last_good = i;
	}
	return 0;
}

/* A latency percentile of the phase in ms: from the scheduled issue time
 * (lat_ns) when the job recorded it, else the completion latency. */
static double percentile_ms(const json_t *dir, const char *pct)
{
	double ns = results_lat_pct_ns(dir, pct);
	return ns > 0 ? ns / 1e6 : NAN;
}

/* has_bucket: whether the volume has credits to burst on (the run's
 * "on_burst" says only that the step was served above the sustained rate). */
static void step_read(const json_t *phase, bool has_bucket, struct loadcurve_step *s)
{
	const json_t *load = json_object_get(phase, "load"), *dir = results_direction(phase);
	bool above = json_is_true(json_object_get(load, "on_burst"));
	s->percent = results_num_or(load, "percent", NAN);
	s->offered_iops = results_num_or(load, "offered_iops", NAN);
	s->on_burst = above && has_bucket;
	s->above_limit = above && !has_bucket;
	s->measured_iops = results_num_or(RESULTS_GET(phase, "job", "read"), "iops", 0) +
			   results_num_or(RESULTS_GET(phase, "job", "write"), "iops", 0);
	s->p50_ms = percentile_ms(dir, "50.000000");
	s->p95_ms = percentile_ms(dir, "95.000000");
	s->p99_ms = percentile_ms(dir, "99.000000");
	s->p999_ms = percentile_ms(dir, "99.900000");
}

static int by_percent(const void *a, const void *b)
{
	double x = ((const struct loadcurve_step *)a)->percent;
	double y = ((const struct loadcurve_step *)b)->percent;
	return (x > y) - (x < y);
}

/* The device's loadcurve steps, by rising load; *sustained gets the
 * recorded 100 % and *from where it came from. */
static size_t steps_collect(const json_t *results, const char *label, bool has_bucket,
			    struct loadcurve_step **out, double *sustained, const char **from)
{
	const json_t *phases = json_object_get(results, RESULTS_KEY_PHASES), *p;
	size_t i, n = 0;
	*out = calloc(json_array_size(phases) + 1, sizeof(**out));
	*sustained = NAN;
	*from = NULL;
	json_array_foreach(phases, i, p)
	{
		const json_t *load = json_object_get(p, "load");
		if (!*out || !results_str_is(json_object_get(p, "phase"), "loadcurve") ||
		    !results_str_is(json_object_get(p, "device"), label) ||
		    !(results_num_or(load, "percent", 0) > 0))
			continue;
		step_read(p, has_bucket, &(*out)[n++]);
		*sustained = results_num_or(load, "sustained_iops", *sustained);
		*from = json_string_value(json_object_get(load, "sustained_from"));
	}
	if (n)
		qsort(*out, n, sizeof(**out), by_percent);
	return n;
}

static json_t *num_or_null(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static json_t *step_json(const struct loadcurve_step *s)
{
	return json_pack("{s:f,s:f,s:f,s:b,s:b,s:b,s:o,s:o,s:o,s:o}", "percent", s->percent,
			 "offered_iops", s->offered_iops, "measured_iops", s->measured_iops,
			 "on_burst", s->on_burst, "above_limit", s->above_limit, "held",
			 s->measured_iops >= LOADCURVE_HELD_SHARE * s->offered_iops, "p50_ms",
			 num_or_null(s->p50_ms), "p95_ms", num_or_null(s->p95_ms), "p99_ms",
			 num_or_null(s->p99_ms), "p99_9_ms", num_or_null(s->p999_ms));
}

/* The highest p99 of the steps up to and including `upto`, off burst. */
static double p99_up_to(const struct loadcurve_step *s, size_t upto)
{
	double most = 0;
	for (size_t i = 0; i <= upto; i++)
		if (!off_curve(&s[i]) && s[i].p99_ms > most)
			most = s[i].p99_ms;
	return most;
}

/* What sits at the knee: the cap when the knee is at or above 100 %, the
 * delivered limit when the volume held one below its cap (delivered.h). */
static void knee_cause(char *buf, size_t len, const struct loadcurve_step *knee, double sustained,
		       const char *from, bool model, double delivered)
{
	if (model && delivered > 0 && knee->offered_iops >= delivered * (1 - VERDICT_TOLERANCE))
		snprintf(buf, len,
			 ": the limit the volume delivers (%.0f IOPS, not the %.0f it is sold "
			 "as)",
			 delivered, sustained);
	else if (model && delivered > 0)
		snprintf(buf, len,
			 ", below the %.0f IOPS the volume delivers: latency rises before that "
			 "limit",
			 delivered);
	else if (!model)
		snprintf(buf, len,
			 "; the EBS model gives no sustained rate for this device, so no cap is "
			 "named");
	else if (knee->percent >= 100)
		snprintf(buf, len, ": the volume's cap (%.0f IOPS sustained, %s)", sustained,
			 from ? from : "from the model");
	else
		snprintf(buf, len,
			 ", below the %.0f IOPS the model sustains (%s): latency rises "
			 "before the cap",
			 sustained, from ? from : "from the model");
}

/* The summary's sentence about the knee. */
static void knee_sentence(char *buf, size_t len, const char *label, const struct loadcurve_step *s,
			  size_t n, const struct loadcurve_knee *k, double sustained,
			  const char *from, bool model, double delivered)
{
	char cause[256];
	size_t last = n - 1;
	while (last > k->base && off_curve(&s[last]))
		last--; /* the highest load of the sustained curve */
	const struct loadcurve_step *top = &s[last];
	if (!k->found) {
		snprintf(buf, len,
			 "%s: p99 stays under %.3g ms at every load measured, up to %.0f IOPS "
			 "(%.0f %%): no knee (no step's p99 passed %.0fx the %.0f %% step's).",
			 label, p99_up_to(s, last), top->offered_iops, top->percent,
			 LOADCURVE_KNEE_FACTOR, s[k->base].percent);
		return;
	}
	const struct loadcurve_step *knee = &s[k->knee], *good = &s[k->last_good];
	knee_cause(cause, sizeof(cause), knee, sustained, from, model, delivered);
	snprintf(buf, len,
		 "%s: p99 stays under %.3g ms up to %.0f IOPS (%.0f %%); at %.0f offered "
		 "(%.0f %%) it reaches %.3g ms%s.",
		 label, p99_up_to(s, k->last_good), good->offered_iops, good->percent,
		 knee->offered_iops, knee->percent, knee->p99_ms, cause);
}

/* " The 110 % step ran on burst credits ..." for each such step; on a
 * volume without a bucket, that it was served above the limit. */
static void burst_note(char *buf, size_t len, const struct loadcurve_step *s, size_t n)
{
	int used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n && used >= 0 && (size_t)used < len; i++)
		if (s[i].on_burst)
			used += snprintf(
				buf + used, len - (size_t)used,
				" The %.0f %% step ran on burst credits (%.0f IOPS): it "
				"shows the burst, not the sustained curve, and is left out "
				"of the knee.",
				s[i].percent, s[i].measured_iops);
		else if (s[i].above_limit)
			used += snprintf(buf + used, len - (size_t)used,
					 " The %.0f %% step was served above the sustained rate "
					 "(%.0f IOPS) by a volume with no burst bucket: the step "
					 "was shorter than the limit's own tolerance; it is left "
					 "out of the knee.",
					 s[i].percent, s[i].measured_iops);
}

/* Whether the device's volume has a credit bucket to burst on (gp2 under
 * 1,000 GiB, st1, sc1); an old record without devices: as the run planned. */
static bool has_bucket(const json_t *results, const char *label)
{
	const json_t *d = results_device(results, label);
	struct ebs_volume v;
	struct ebs_workload w = { .io_size_bytes = 4096, .credits_at_start = EBS_CREDITS_FULL };
	if (!d)
		return true;
	analysis_volume_from_json(d, &v);
	return ebs_predict(&v, &w).bucket > 0;
}

/* Whether the device is one the EBS model covers. */
static bool device_is_ebs(const json_t *results, const char *label)
{
	const json_t *d = results_device(results, label);
	/* an old record without devices: the run planned it from the model */
	return !d || results_str_is(json_object_get(d, "kind"), "ebs");
}

static json_t *knee_json(const struct loadcurve_step *s, const struct loadcurve_knee *k)
{
	if (!k->found)
		return json_null();
	return json_pack("{s:f,s:f,s:o,s:o}", "percent", s[k->knee].percent, "offered_iops",
			 s[k->knee].offered_iops, "p99_ms", num_or_null(s[k->knee].p99_ms),
			 "last_good_percent",
			 k->last_good == SIZE_MAX ? json_null()
						  : json_real(s[k->last_good].percent));
}

/* The analysis object of a device's curve, its sentence added to findings. */
static json_t *curve_json(const struct loadcurve_step *s, size_t n, const struct loadcurve_knee *k,
			  const char *label, double sustained, const char *from, bool model,
			  double delivered, json_t *findings)
{
	char line[768], burst[512];
	json_t *steps = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(steps, step_json(&s[i]));
	knee_sentence(line, sizeof(line), label, s, n, k, sustained, from, model, delivered);
	burst_note(burst, sizeof(burst), s, n);
	strncat(line, burst, sizeof(line) - strlen(line) - 1);
	finding_add(findings, FINDING_KNEE, line);
	return json_pack("{s:o,s:o,s:b,s:f,s:f,s:o,s:o,s:s}", "sustained_iops",
			 num_or_null(sustained), "sustained_from",
			 from ? json_string(from) : json_null(), "model_applies", model,
			 "knee_factor", LOADCURVE_KNEE_FACTOR, "knee_threshold_ms", k->threshold_ms,
			 "steps", steps, "knee", knee_json(s, k), "sentence", line);
}

json_t *loadcurve_analyse(const json_t *results, const char *label, double delivered_iops,
			  json_t *findings)
{
	struct loadcurve_step *s;
	struct loadcurve_knee k;
	double sustained;
	const char *from;
	size_t n = steps_collect(results, label, has_bucket(results, label), &s, &sustained, &from);
	json_t *o = json_null();
	if (n && loadcurve_find_knee(s, n, &k) == 0)
		o = curve_json(s, n, &k, label, sustained, from, device_is_ebs(results, label),
			       delivered_iops, findings);
	free(s);
	return o;
}
