/* ebs_model.c - the arithmetic the reference benchmark does by hand:
 * baseline, burst, credit refill, 256 KiB accounting, throughput caps, what
 * bound a phase (the tables: ebs_model_tables.c; prices: ebs_prices.c). */
#include "model/ebs_model.h"
#include "model/internal.h"
#include "lib/lib.h"

#define MB 1e6 /* AWS publishes instance limits in MB/s */

/* x, held between lo and hi. */
static double clamp(double x, double lo, double hi)
{
	return fmin(fmax(x, lo), hi);
}

/* The volume's IOPS, or its type's default when we could not read them. */
static double provisioned_iops(const struct ebs_type_rules *r, const struct ebs_volume *v)
{
	return v->iops > 0 ? v->iops : r->iops_default;
}

/* The throughput cap of a provisioned volume: gp3's own setting, io1's
 * knee (500 MiB/s, then 16 KiB per IOPS above 32,000), io2's per IOPS. */
static double provisioned_mibs(const struct ebs_type_rules *r, const struct ebs_volume *v,
			       double iops)
{
	if (r->mibs_provisioned)
		return v->throughput_mibs > 0 ? v->throughput_mibs : r->mibs_default;
	if (r->knee_iops > 0 && iops <= r->knee_iops)
		return r->knee_mibs;
	if (r->knee_iops > 0)
		return fmin(r->max_mibs, iops * r->kib_per_iops_above_knee * KIB / MIB);
	return fmin(r->max_mibs, iops * r->mibs_per_iops);
}

struct volume_limits {
	double baseline_units, burst_units; /* per second */
	double cap_mibs;
	double bucket;
};

/* Baseline and burst units per second, throughput cap and bucket size. */
static struct volume_limits volume_limits(const struct ebs_type_rules *r,
					  const struct ebs_volume *v)
{
	struct volume_limits l = { 0 };

	if (!r->size_derived) {
		l.baseline_units = provisioned_iops(r, v);
		l.burst_units = l.baseline_units;
		l.cap_mibs = provisioned_mibs(r, v, l.baseline_units);
		return l;
	}
	l.baseline_units =
		clamp(r->baseline_per_gib * v->size_gib, r->baseline_min, r->baseline_max);
	l.burst_units = fmin(r->burst_fixed + r->burst_per_gib * v->size_gib, r->burst_max);
	/* gp2 from 1,000 GiB: baseline reaches the burst level, no bucket. */
	if (l.burst_units > l.baseline_units)
		l.bucket = r->bucket_fixed + r->bucket_per_gib * v->size_gib;
	else
		l.burst_units = l.baseline_units;
	l.cap_mibs = v->size_gib <= r->small_max_gib ? r->small_mibs : r->max_mibs;
	return l;
}

/* A volume can move no more than its units allow, even below its cap. */
static double state_mibs(double units_per_s, double cap_mibs, double unit_bytes)
{
	return fmin(cap_mibs, units_per_s * unit_bytes / MIB);
}

/* I/O per second of io_bytes allowed by a unit rate and a MiB/s cap. */
static struct ebs_rate rate_at_size(double units_per_s, double mibs, double io_units,
				    double io_bytes)
{
	double by_units = units_per_s / io_units;
	double by_mibs = mibs * MIB / io_bytes;

	/* A tie (1 MiB I/O on st1) is a throughput limit. */
	if (by_mibs <= by_units * (1 + 1e-12))
		return (struct ebs_rate){ by_mibs, EBS_BOUND_VOLUME_THROUGHPUT };
	return (struct ebs_rate){ by_units, EBS_BOUND_VOLUME_IOPS };
}

struct ebs_prediction ebs_predict(const struct ebs_volume *v, const struct ebs_workload *w)
{
	const struct ebs_type_rules *r = ebs_type_rules(v->type);
	struct volume_limits l = volume_limits(r, v);
	double io_bytes = fmax(w->io_size_bytes, 1);
	double units = io_bytes / r->unit_bytes;
	struct ebs_prediction p = { 0 };

	p.io_bytes = io_bytes;
	p.io_units = w->sequential && io_bytes >= r->merge_min_bytes ? units : ceil(units);
	p.baseline_iops = l.baseline_units;
	p.burst_iops = l.burst_units;
	p.baseline_mibs = state_mibs(l.baseline_units, l.cap_mibs, r->unit_bytes);
	p.burst_mibs = state_mibs(l.burst_units, l.cap_mibs, r->unit_bytes);
	p.bucket = l.bucket;
	p.credits = fmin(l.bucket, fmax(w->credits_at_start, 0) +
					   fmax(w->idle_before_s, 0) * l.baseline_units);
	p.baseline = rate_at_size(p.baseline_iops, p.baseline_mibs, p.io_units, io_bytes);
	p.burst = rate_at_size(p.burst_iops, p.burst_mibs, p.io_units, io_bytes);
	p.bursts = l.bucket > 0 && p.burst.ops > p.baseline.ops;
	if (!p.bursts)
		p.burst = p.baseline;
	p.burst_seconds = p.bursts ? ebs_burst_seconds_at(&p, HUGE_VAL) : 0;
	return p;
}

double ebs_burst_seconds_at(const struct ebs_prediction *p, double demand_ops)
{
	double rate = fmin(demand_ops, p->burst.ops);
	/* Credits refill at the baseline unit rate while they drain. */
	double drain = rate * p->io_units - p->baseline_iops;

	if (drain <= 0)
		return HUGE_VAL;
	return p->credits / drain;
}

struct ebs_rate ebs_expected_rate(const struct ebs_prediction *p, double duration_s,
				  double demand_ops)
{
	double rate = fmin(demand_ops, p->burst.ops);
	double lasts;

	if (rate < p->baseline.ops)
		return (struct ebs_rate){ rate, EBS_BOUND_NONE };
	lasts = ebs_burst_seconds_at(p, demand_ops);
	if (lasts >= duration_s) {
		bool capped = demand_ops >= p->burst.ops;
		return (struct ebs_rate){ rate, capped ? p->burst.bound : EBS_BOUND_NONE };
	}
	/* Burst for `lasts` seconds, then baseline: baseline + credits / D. */
	return (struct ebs_rate){ (lasts * rate + (duration_s - lasts) * p->baseline.ops) /
					  duration_s,
				  p->baseline.bound };
}

double ebs_volume_iops(const struct ebs_volume *v)
{
	const struct ebs_type_rules *r = ebs_type_rules(v->type);
	return r ? volume_limits(r, v).baseline_units : NAN;
}

double ebs_volume_mibs(const struct ebs_volume *v)
{
	const struct ebs_type_rules *r = ebs_type_rules(v->type);
	return r ? volume_limits(r, v).cap_mibs : NAN;
}

double ebs_size_derived_iops(enum ebs_type type, double size_gib)
{
	const struct ebs_type_rules *r = ebs_type_rules(type);
	struct ebs_volume v = { .type = type, .size_gib = size_gib };

	if (!r || !r->size_derived || !r->iops_reported || !(size_gib > 0))
		return NAN;
	return volume_limits(r, &v).baseline_units;
}

struct ebs_rate ebs_rate_with_instance(struct ebs_rate volume, double io_size_bytes,
				       const struct instance_ebs_limits *inst, bool instance_burst)
{
	struct ebs_rate out = volume;
	double iops, by_mb;

	if (!inst)
		return out;
	iops = instance_burst ? inst->burst_iops : inst->baseline_iops;
	by_mb = (instance_burst ? inst->burst_mbps : inst->baseline_mbps) * MB /
		fmax(io_size_bytes, 1);
	if (iops < out.ops)
		out = (struct ebs_rate){ iops, EBS_BOUND_INSTANCE_IOPS };
	if (by_mb < out.ops)
		out = (struct ebs_rate){ by_mb, EBS_BOUND_INSTANCE_THROUGHPUT };
	return out;
}

struct ebs_rate ebs_phase_expected_iops(const struct ebs_prediction *p, const struct ebs_phase *ph)
{
	bool latency_known = ph->latency_s > 0 && ph->iodepth > 0;
	double by_latency = latency_known ? ph->iodepth / ph->latency_s : HUGE_VAL;
	double asked = ph->demand_ops > 0 ? ph->demand_ops : HUGE_VAL;
	struct ebs_rate r = ebs_expected_rate(p, ph->duration_s, fmin(asked, by_latency));

	/* Demand bound it: the device's latency when that is the lower. */
	if (r.bound == EBS_BOUND_NONE && by_latency <= asked)
		r.bound = EBS_BOUND_LATENCY;
	return ebs_rate_with_instance(r, p->io_bytes, ph->instance, ph->instance_burst);
}

struct ebs_throughput ebs_seq_throughput_cap(const struct ebs_volume *v, double io_size_bytes,
					     bool volume_burst,
					     const struct instance_ebs_limits *inst,
					     bool instance_burst)
{
	struct ebs_workload w = { .io_size_bytes = fmax(io_size_bytes, 1),
				  .sequential = true,
				  .credits_at_start = EBS_CREDITS_FULL };
	struct ebs_prediction p = ebs_predict(v, &w);
	struct ebs_rate r = volume_burst ? p.burst : p.baseline;

	r = ebs_rate_with_instance(r, w.io_size_bytes, inst, instance_burst);
	return (struct ebs_throughput){ r.ops * w.io_size_bytes / MIB, r.bound };
}

struct ebs_credit_state ebs_credits_from_cliff(const struct ebs_prediction *p, double cliff_s,
					       double demand_ops)
{
	double rate = fmin(demand_ops, p->burst.ops);
	double drain = rate * p->io_units - p->baseline_iops;
	double credits = fmax(cliff_s, 0) * fmax(drain, 0);

	return (struct ebs_credit_state){ credits,
					  p->bucket > 0 ? 100 * credits / p->bucket : NAN };
}

static int check_provisioned(const struct ebs_type_rules *r, const struct ebs_volume *v, char *err,
			     size_t errlen)
{
	double iops = v->iops, mibs = v->throughput_mibs;

	if (!(iops >= r->iops_min && iops <= r->iops_max))
		return error_set(err, errlen, "%s: %.0f IOPS outside %.0f..%.0f", r->name, iops,
				 r->iops_min, r->iops_max);
	/* gp3's included 3,000 are valid at any size: max(3,000, 500 x GiB). */
	if (iops > fmax(r->iops_min, r->iops_per_gib_max * v->size_gib))
		return error_set(err, errlen, "%s: %.0f IOPS above %.0f per GiB of %.0f GiB",
				 r->name, iops, r->iops_per_gib_max, v->size_gib);
	if (!r->mibs_provisioned)
		return 0;
	if (!(mibs >= r->mibs_min && mibs <= r->max_mibs))
		return error_set(err, errlen, "%s: %.0f MiB/s outside %.0f..%.0f", r->name, mibs,
				 r->mibs_min, r->max_mibs);
	if (mibs > r->mibs_per_iops * iops)
		return error_set(err, errlen,
				 "%s: %.0f MiB/s above %.2f MiB/s per IOPS of %.0f IOPS", r->name,
				 mibs, r->mibs_per_iops, iops);
	return 0;
}

int ebs_volume_check(const struct ebs_volume *v, char *err, size_t errlen)
{
	const struct ebs_type_rules *r = ebs_type_rules(v->type);

	if (!r)
		return error_set(err, errlen, "unknown volume type %d", (int)v->type);
	if (!(v->size_gib >= r->min_gib && v->size_gib <= r->max_gib))
		return error_set(err, errlen, "%s: %.0f GiB outside %.0f..%.0f GiB", r->name,
				 v->size_gib, r->min_gib, r->max_gib);
	return r->size_derived ? 0 : check_provisioned(r, v, err, errlen);
}

enum ebs_verdict ebs_verdict_of(double measured, double predicted, double tolerance)
{
	double ratio;

	if (!(predicted > 0) || isnan(measured))
		return EBS_NOT_PREDICTED;
	ratio = measured / predicted;
	if (ratio < 1 - tolerance)
		return EBS_BELOW_PREDICTION;
	if (ratio > 1 + tolerance)
		return EBS_ABOVE_PREDICTION;
	return EBS_AS_PREDICTED;
}

const char *ebs_verdict_name(enum ebs_verdict verdict)
{
	switch (verdict) {
	case EBS_AS_PREDICTED:
		return "as predicted";
	case EBS_BELOW_PREDICTION:
		return "worse";
	case EBS_ABOVE_PREDICTION:
		return "better";
	case EBS_AS_DELIVERED:
		return "as delivered";
	case EBS_LOADING:
		return "still loading";
	case EBS_NOT_PREDICTED:
		break;
	}
	return "not predicted";
}

const char *ebs_bound_name(enum ebs_bound bound)
{
	switch (bound) {
	case EBS_BOUND_NONE:
		return "the offered load (rate_iops)";
	case EBS_BOUND_VOLUME_IOPS:
		return "volume IOPS";
	case EBS_BOUND_VOLUME_THROUGHPUT:
		return "volume throughput";
	case EBS_BOUND_INSTANCE_IOPS:
		return "instance IOPS";
	case EBS_BOUND_INSTANCE_THROUGHPUT:
		return "instance throughput";
	case EBS_BOUND_LATENCY:
		return "latency (iodepth / service time)";
	case EBS_BOUND_DELIVERED:
		return "the delivered limit";
	}
	return "unknown";
}
