/* sweep.c - the block-size sweep against the EBS model: per step the
 * latency, IOPS and throughput bounds, the lowest of them and a verdict. */
#include "analysis/sweep.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/finding.h"
#include "lib/lib.h"
#include "results/results.h"

/* Keeps the lower of the point's prediction and a bound (NaN: unknown). */
static void lower_bound(struct sweep_point *pt, double mibs, enum ebs_bound bound)
{
	if (isfinite(mibs) && !(pt->predicted_mibs <= mibs)) {
		pt->predicted_mibs = mibs;
		pt->bound = bound;
	}
}

struct sweep_point sweep_predict(const struct ebs_volume *v, double bs, double service_s,
				 bool volume_burst, double instance_mibs)
{
	struct ebs_workload w = { .io_size_bytes = bs,
				  .sequential = true,
				  .credits_at_start = EBS_CREDITS_FULL };
	struct ebs_prediction p = ebs_predict(v, &w);
	double units_s = volume_burst && p.bursts ? p.burst_iops : p.baseline_iops;
	struct sweep_point pt = { .bs = bs, .predicted_mibs = NAN, .bound = EBS_BOUND_NONE };

	pt.latency_mibs = service_s > 0 ? bs / service_s / MIB : NAN;
	pt.iops_mibs = p.io_units > 0 ? units_s / p.io_units * bs / MIB : NAN;
	pt.throughput_mibs = volume_burst && p.bursts ? p.burst_mibs : p.baseline_mibs;
	pt.instance_mibs = instance_mibs;
	lower_bound(&pt, pt.latency_mibs, EBS_BOUND_LATENCY);
	lower_bound(&pt, pt.iops_mibs, EBS_BOUND_VOLUME_IOPS);
	lower_bound(&pt, pt.throughput_mibs, EBS_BOUND_VOLUME_THROUGHPUT);
	lower_bound(&pt, pt.instance_mibs, EBS_BOUND_INSTANCE_THROUGHPUT);
	return pt;
}

static json_t *num_or_null(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

/* The k-th "sweep" object of the device's verdict list (same run order). */
static json_t *nth_sweep_verdict(json_t *verdicts, size_t k)
{
	size_t i;
	json_t *v;
	json_array_foreach(verdicts, i, v)
	{
		if (results_str_is(json_object_get(v, "phase"), RESULTS_PHASE_SWEEP) && k-- == 0)
			return v;
	}
	return NULL;
}

/* What a step moved, both directions, in MiB/s. */
static double measured_mibs(const json_t *record)
{
	const json_t *job = json_object_get(record, "job");
	return (results_num_or(json_object_get(job, "read"), "bw_bytes", 0) +
		results_num_or(json_object_get(job, "write"), "bw_bytes", 0)) /
	       MIB;
}

/* One I/O's service time at qd1: its submission (mean slat) and its
 * completion's median (p50 clat, which leaves out a throttle's waits);
 * NaN when the record has no p50.  On EBS the submission is microseconds
 * and the p50 is the service time; in a guest under TCG the submission
 * costs a few hundred: one I/O at a time pays both. */
static double service_seconds(const json_t *record)
{
	const json_t *dir = results_direction(record);
	double p50_ns = results_clat_pct_ns(dir, "50.000000");
	double slat_ns = results_num_or(json_object_get(dir, "slat_ns"), "mean", 0);
	return p50_ns > 0 ? (p50_ns + fmax(slat_ns, 0)) / 1e9 : NAN;
}

/* One step's object: its bounds and prediction from the model, the
 * credits and instance limit from verdict.c's object. */
static json_t *step_json(const struct verdict_device *d, const json_t *record,
			 const json_t *verdict, double base_s)
{
	double bs = results_num_or(record, "bs", NAN), measured = measured_mibs(record);
	double service_s = service_seconds(record);
	const json_t *credits = json_object_get(verdict, "credits_at_start");
	bool burst = !json_is_number(credits) || json_number_value(credits) > 0;
	double inst = results_num_or(json_object_get(verdict, "bounds"), "instance", NAN);
	bool predicted = d->is_ebs && json_is_number(json_object_get(verdict, "predicted"));
	struct sweep_point pt = sweep_predict(&d->volume, bs, base_s, burst, inst);
	enum ebs_verdict v =
		predicted ? ebs_verdict_of(measured, pt.predicted_mibs, VERDICT_TOLERANCE)
			  : EBS_NOT_PREDICTED;

	json_t *bounds = json_pack(
		"{s:o,s:o,s:o,s:o}", "latency_mibs", num_or_null(pt.latency_mibs), "iops_mibs",
		num_or_null(pt.iops_mibs), "throughput_mibs", num_or_null(pt.throughput_mibs),
		"instance_mibs", num_or_null(pt.instance_mibs));
	return json_pack("{s:O?,s:f,s:f,s:o,s:o,s:s?,s:o,s:s,s:f}", "rw",
			 json_object_get(record, "rw"), "bs", bs, "measured_mibs", measured,
			 "service_time_ms", num_or_null(service_s * 1e3), "predicted_mibs",
			 predicted ? num_or_null(pt.predicted_mibs) : json_null(), "bound",
			 predicted ? ebs_bound_name(pt.bound) : NULL, "bounds", bounds, "verdict",
			 ebs_verdict_name(v), "tolerance", VERDICT_TOLERANCE);
}

/* Whether a record is one of the device's sweep steps. */
static bool is_sweep_step(const json_t *record, const char *label)
{
	return results_str_is(json_object_get(record, "device"), label) &&
	       results_str_is(json_object_get(record, "phase"), RESULTS_PHASE_SWEEP);
}

/* The device's own per-I/O time, the latency bound's: the service time of
 * its smallest sweep write (16 KiB), where moving the data costs least
 * and no throughput cap stretches the I/O.  Seed 002's gp3 wrote 16, 32
 * and 64 KiB in the same ~1 ms each.  NaN when there is none. */
static double base_service_seconds(const json_t *results, const char *label)
{
	double bs_min = HUGE_VAL, base = NAN;
	const json_t *record;
	size_t i;
	json_array_foreach(json_object_get(results, RESULTS_KEY_PHASES), i, record)
	{
		double bs = results_num_or(record, "bs", NAN);
		if (is_sweep_step(record, label) &&
		    results_str_is(json_object_get(record, "rw"), "write") && bs < bs_min) {
			bs_min = bs;
			base = service_seconds(record);
		}
	}
	return base;
}

/* "16 KiB", "1 MiB" for the finding. */
static const char *size_text(char *buf, size_t len, double bs)
{
	if (bs >= MIB)
		snprintf(buf, len, "%.0f MiB", bs / MIB);
	else
		snprintf(buf, len, "%.0f KiB", bs / 1024);
	return buf;
}

/* The device's sentence on its sweep: the smallest and largest write, the
 * bound at each end of the model's line, and how many steps it foresaw. */
static void sweep_finding(const struct verdict_device *d, const json_t *list, json_t *findings)
{
	const json_t *first = NULL, *last = NULL, *step;
	size_t i, as_predicted = 0;
	char line[400], a[32], b[32];
	json_array_foreach(list, i, step)
	{
		if (results_str_is(json_object_get(step, "rw"), "write")) {
			first = first ? first : step;
			last = step;
		}
		as_predicted += results_str_is(json_object_get(step, "verdict"), "as predicted");
	}
	if (!first)
		return;
	const char *bound_first = json_string_value(json_object_get(first, "bound"));
	const char *bound_last = json_string_value(json_object_get(last, "bound"));
	snprintf(
		line, sizeof(line),
		"%s sweep (qd1, O_DIRECT): %.1f MiB/s at %s growing to %.1f MiB/s at %s; the "
		"model's line is bound by %s at %s and by %s at %s; %zu of %zu steps as predicted.",
		d->label, results_num_or(first, "measured_mibs", NAN),
		size_text(a, sizeof(a), results_num_or(first, "bs", 0)),
		results_num_or(last, "measured_mibs", NAN),
		size_text(b, sizeof(b), results_num_or(last, "bs", 0)),
		bound_first ? bound_first : "nothing known", a,
		bound_last ? bound_last : "nothing known", b, as_predicted, json_array_size(list));
	finding_add(findings, FINDING_KNEE, line);
}

/* The verdict list's entry for a step takes the sweep's prediction, so the
 * TL;DR and the phase tables say what the sweep's line says: one model. */
static void verdict_takes_step(json_t *verdict, const json_t *step)
{
	if (!verdict)
		return;
	json_object_set(verdict, "predicted", json_object_get(step, "predicted_mibs"));
	json_object_set(verdict, "bound", json_object_get(step, "bound"));
	json_object_set(verdict, "verdict", json_object_get(step, "verdict"));
	json_object_set_new(verdict, "explanation",
			    json_string("the block-size sweep's model: analysis.devices[].sweep"));
}

json_t *sweep_line(const json_t *results, const struct verdict_device *d, json_t *verdicts,
		   json_t *findings)
{
	json_t *list = NULL;
	const json_t *record;
	size_t i, k = 0;
	double base_s = base_service_seconds(results, d->label);

	json_array_foreach(json_object_get(results, RESULTS_KEY_PHASES), i, record)
	{
		if (!is_sweep_step(record, d->label))
			continue;
		if (!list)
			list = json_array();
		json_t *verdict = nth_sweep_verdict(verdicts, k++);
		json_t *step = step_json(d, record, verdict, base_s);
		verdict_takes_step(verdict, step);
		json_array_append_new(list, step);
	}
	if (list)
		sweep_finding(d, list, findings);
	return list;
}
