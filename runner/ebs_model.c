/* ebs_model.c - EBS volume, instance and price tables, and the arithmetic
 * the seed does by hand: baseline, burst, credit refill, 256 KiB
 * accounting, throughput caps and monthly cost. */
#include "ebs_model.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define KIB 1024.0
#define MIB (1024.0 * 1024.0)
#define MB 1e6

/* Volume types, dated 2026-09 (the seed's date).  Source: AWS EBS User
 * Guide, "Amazon EBS volume types", "General Purpose SSD", "Provisioned
 * IOPS SSD", "Throughput Optimized HDD and Cold HDD" and "I/O
 * characteristics" as published up to 2025; the gp2 and gp3 figures are
 * also in the seed and the design notes.  Not re-checked against AWS:
 * - gp3 maxima are the long-standing 16,000 IOPS / 1,000 MiB/s / 16 TiB.
 *   AWS announced bigger gp3 volumes in 2025 (we believe 80,000 IOPS,
 *   2,000 MiB/s, 64 TiB); that only changes ebs_volume_check, never a
 *   prediction, which uses what the volume reports it has.
 * - io2 is the classic io2 (500 IOPS/GiB, 64,000 IOPS, 1,000 MiB/s).
 *   io2 Block Express, which AWS now creates for io2 on Nitro instances,
 *   allows 1,000 IOPS/GiB, 256,000 IOPS, 4,000 MiB/s and 64 TiB.
 * - io1/io2 throughput is taken as 256 KiB/s per provisioned IOPS up to
 *   1,000 MiB/s; older AWS pages cap io1 at 500 MiB/s below 32,000 IOPS.
 * - st1/sc1: we believe EBS counts every random I/O as a full 1 MiB
 *   against the throughput bucket (AWS, "Inefficiency of small
 *   read/writes on HDD"); the bucket holds 1 TiB of credits per TiB.
 * - iops_default for io1/io2 (3,000) is a placeholder for a volume whose
 *   provisioned IOPS we could not read; ebs_volume_init flags it.
 * gp2 between 170 and 334 GiB: AWS gives 250 MiB/s "if burst credits are
 * available".  We model the cap as 128 MiB/s up to 170 GiB and 250 above,
 * and let the 256 KiB accounting do the rest: without credits a gp2
 * volume has 3 units/GiB, i.e. 0.75 MiB/s per GiB, which is below 250
 * exactly for volumes under 334 GiB.  No linear interpolation needed. */
static const struct ebs_type_rules type_table[EBS_TYPE_COUNT] = {
	[EBS_GP2] = {
		.type = EBS_GP2, .name = "gp2", .unit_bytes = 256 * KIB,
		.min_gib = 1, .max_gib = 16384,
		.max_mibs = 250, .small_mibs = 128, .small_max_gib = 170,
		.size_derived = true,
		.baseline_per_gib = 3, .baseline_min = 100, .baseline_max = 16000,
		.burst_fixed = 3000, .burst_max = 3000,
		.bucket_fixed = 5.4e6,
	},
	[EBS_GP3] = {
		.type = EBS_GP3, .name = "gp3", .unit_bytes = 256 * KIB,
		.min_gib = 1, .max_gib = 16384, .max_mibs = 1000,
		.iops_default = 3000, .iops_min = 3000, .iops_max = 16000,
		.iops_per_gib_max = 500,
		.mibs_provisioned = true,
		.mibs_default = 125, .mibs_min = 125, .mibs_per_iops = 0.25,
	},
	[EBS_IO1] = {
		.type = EBS_IO1, .name = "io1", .unit_bytes = 256 * KIB,
		.min_gib = 4, .max_gib = 16384, .max_mibs = 1000,
		.iops_default = 3000, .iops_min = 100, .iops_max = 64000,
		.iops_per_gib_max = 50, .mibs_per_iops = 0.25,
	},
	[EBS_IO2] = {
		.type = EBS_IO2, .name = "io2", .unit_bytes = 256 * KIB,
		.min_gib = 4, .max_gib = 16384, .max_mibs = 1000,
		.iops_default = 3000, .iops_min = 100, .iops_max = 64000,
		.iops_per_gib_max = 500, .mibs_per_iops = 0.25,
	},
	[EBS_ST1] = {
		.type = EBS_ST1, .name = "st1", .unit_bytes = MIB,
		.min_gib = 125, .max_gib = 16384, .max_mibs = 500,
		.size_derived = true,
		.baseline_per_gib = 40 / KIB, .baseline_max = 500,
		.burst_per_gib = 250 / KIB, .burst_max = 500,
		.bucket_per_gib = KIB,
	},
	[EBS_SC1] = {
		.type = EBS_SC1, .name = "sc1", .unit_bytes = MIB,
		.min_gib = 125, .max_gib = 16384, .max_mibs = 250,
		.size_derived = true,
		.baseline_per_gib = 12 / KIB, .baseline_max = 192,
		.burst_per_gib = 80 / KIB, .burst_max = 250,
		.bucket_per_gib = KIB,
	},
};

/* Instance EBS limits, dated 2026-09.  Source: AWS EC2 User Guide,
 * "Amazon EBS-optimized instance types" (the same figures as
 * DescribeInstanceTypes' EbsOptimizedInfo) as published up to 2025, from
 * memory except m5.xlarge, which the seed and the design notes confirm,
 * and m5.large's 3,600 baseline IOPS, which the seed quotes.  Throughput is MB/s at
 * 128 KiB I/O, IOPS at 16 KiB I/O.  Least sure: the m7i rows (taken to
 * match m6i) and c5.2xlarge's 10,000 baseline IOPS.  Sizes whose burst
 * exceeds baseline may burst for 30 minutes at least once a day. */
static const struct instance_ebs_limits instance_table[] = {
	/* name, baseline IOPS, burst IOPS, baseline MB/s, burst MB/s, burst s/day */
	{ "m5.large", 3600, 18750, 81.25, 593.75, 1800 },
	{ "m5.xlarge", 6000, 18750, 143.75, 593.75, 1800 },
	{ "m5.2xlarge", 12000, 18750, 287.5, 593.75, 1800 },
	{ "m5.4xlarge", 18750, 18750, 593.75, 593.75, 0 },
	{ "m5.8xlarge", 30000, 30000, 850, 850, 0 },
	{ "m6i.large", 3600, 40000, 81.25, 1250, 1800 },
	{ "m6i.xlarge", 6000, 40000, 156.25, 1250, 1800 },
	{ "m6i.2xlarge", 12000, 40000, 312.5, 1250, 1800 },
	{ "m6i.4xlarge", 20000, 40000, 625, 1250, 1800 },
	{ "m6i.8xlarge", 40000, 40000, 1250, 1250, 0 },
	{ "m7i.large", 3600, 40000, 81.25, 1250, 1800 },
	{ "m7i.xlarge", 6000, 40000, 156.25, 1250, 1800 },
	{ "m7i.2xlarge", 12000, 40000, 312.5, 1250, 1800 },
	{ "m7i.4xlarge", 20000, 40000, 625, 1250, 1800 },
	{ "m7i.8xlarge", 40000, 40000, 1250, 1250, 0 },
	{ "c5.large", 4000, 20000, 81.25, 593.75, 1800 },
	{ "c5.xlarge", 6000, 20000, 143.75, 593.75, 1800 },
	{ "c5.2xlarge", 10000, 20000, 287.5, 593.75, 1800 },
	{ "c5.4xlarge", 20000, 20000, 593.75, 593.75, 0 },
	{ "c5.9xlarge", 40000, 40000, 1187.5, 1187.5, 0 },
	{ "r5.large", 3600, 18750, 81.25, 593.75, 1800 },
	{ "r5.xlarge", 6000, 18750, 143.75, 593.75, 1800 },
	{ "r5.2xlarge", 12000, 18750, 287.5, 593.75, 1800 },
	{ "r5.4xlarge", 18750, 18750, 593.75, 593.75, 0 },
	{ "r5.8xlarge", 30000, 30000, 850, 850, 0 },
};

/* Seoul (ap-northeast-2) prices, 2026-09, from the seed (AWS Pricing
 * API).  gp3 includes 3,000 IOPS and 125 MiB/s.  io1, io2, st1 and sc1
 * Seoul prices are not in the seed and we do not know them: NaN until a
 * config sets them (us-east-1 for scale: io1/io2 $0.125/GB-month and
 * $0.065/IOPS-month, io2 tiers $0.0455 and $0.03185; st1 $0.045; sc1
 * $0.015). */
static const struct ebs_prices seoul_prices = {
	.region = "ap-northeast-2",
	.as_of = "2026-09",
	.source = "seed document (AWS Pricing API, September 2026); io1/io2/st1/sc1 unknown",
	.type = {
		[EBS_GP2] = { .gib_month = 0.114 },
		[EBS_GP3] = { .gib_month = 0.0912, .iops_month = 0.0057, .mibs_month = 0.0456,
			      .iops_included = 3000, .mibs_included = 125 },
		[EBS_IO1] = { .gib_month = NAN, .iops_month = NAN },
		[EBS_IO2] = { .gib_month = NAN, .iops_month = NAN, .iops_month_over = { NAN, NAN } },
		[EBS_ST1] = { .gib_month = NAN },
		[EBS_SC1] = { .gib_month = NAN },
	},
};

/* io2's IOPS price tiers start here. */
static const double io2_tier_start[2] = { 32000, 64000 };

const char *ebs_model_source(void)
{
	return "volume types and instance EBS limits: AWS EBS and EC2 user guides as published "
	       "up to 2025, table dated 2026-09 (ebs_model.c marks the uncertain figures); "
	       "prices: the seed, ap-northeast-2, 2026-09";
}

const struct ebs_type_rules *ebs_type_rules(enum ebs_type type)
{
	if ((unsigned)type >= EBS_TYPE_COUNT)
		return NULL;
	return &type_table[type];
}

int ebs_type_parse(const char *name, enum ebs_type *out)
{
	for (unsigned i = 0; i < EBS_TYPE_COUNT; i++) {
		if (strcasecmp(name, type_table[i].name) == 0) {
			*out = type_table[i].type;
			return 0;
		}
	}
	return -1;
}

const char *ebs_type_name(enum ebs_type type)
{
	const struct ebs_type_rules *r = ebs_type_rules(type);
	return r ? r->name : "unknown";
}

void ebs_volume_init(struct ebs_volume *v, enum ebs_type type, double size_gib)
{
	const struct ebs_type_rules *r = ebs_type_rules(type);

	*v = (struct ebs_volume){ .type = type, .size_gib = size_gib };
	if (!r || r->size_derived)
		return;
	v->iops = r->iops_default;
	v->iops_assumed = true;
	if (r->mibs_provisioned) {
		v->throughput_mibs = r->mibs_default;
		v->throughput_assumed = true;
	}
}

static double clamp(double x, double lo, double hi)
{
	return fmin(fmax(x, lo), hi);
}

static double provisioned_iops(const struct ebs_type_rules *r, const struct ebs_volume *v)
{
	return v->iops > 0 ? v->iops : r->iops_default;
}

static double provisioned_mibs(const struct ebs_type_rules *r, const struct ebs_volume *v,
			       double iops)
{
	if (!r->mibs_provisioned)
		return fmin(r->max_mibs, iops * r->mibs_per_iops);
	return v->throughput_mibs > 0 ? v->throughput_mibs : r->mibs_default;
}

struct volume_limits {
	double baseline_units, burst_units; /* per second */
	double cap_mibs;
	double bucket;
};

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

	p.io_units = w->sequential ? units : ceil(units);
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

const struct instance_ebs_limits *instance_limits_find(const char *instance_type)
{
	for (size_t i = 0; i < sizeof(instance_table) / sizeof(instance_table[0]); i++)
		if (strcasecmp(instance_type, instance_table[i].name) == 0)
			return &instance_table[i];
	return NULL;
}

__attribute__((format(printf, 3, 4))) static int fail(char *err, size_t errlen, const char *fmt,
						      ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static int check_provisioned(const struct ebs_type_rules *r, const struct ebs_volume *v, char *err,
			     size_t errlen)
{
	double iops = v->iops, mibs = v->throughput_mibs;

	if (!(iops >= r->iops_min && iops <= r->iops_max))
		return fail(err, errlen, "%s: %.0f IOPS outside %.0f..%.0f", r->name, iops,
			    r->iops_min, r->iops_max);
	if (iops > r->iops_per_gib_max * v->size_gib)
		return fail(err, errlen, "%s: %.0f IOPS above %.0f per GiB of %.0f GiB", r->name,
			    iops, r->iops_per_gib_max, v->size_gib);
	if (!r->mibs_provisioned)
		return 0;
	if (!(mibs >= r->mibs_min && mibs <= r->max_mibs))
		return fail(err, errlen, "%s: %.0f MiB/s outside %.0f..%.0f", r->name, mibs,
			    r->mibs_min, r->max_mibs);
	if (mibs > r->mibs_per_iops * iops)
		return fail(err, errlen, "%s: %.0f MiB/s above %.2f MiB/s per IOPS of %.0f IOPS",
			    r->name, mibs, r->mibs_per_iops, iops);
	return 0;
}

int ebs_volume_check(const struct ebs_volume *v, char *err, size_t errlen)
{
	const struct ebs_type_rules *r = ebs_type_rules(v->type);

	if (!r)
		return fail(err, errlen, "unknown volume type %d", (int)v->type);
	if (!(v->size_gib >= r->min_gib && v->size_gib <= r->max_gib))
		return fail(err, errlen, "%s: %.0f GiB outside %.0f..%.0f GiB", r->name,
			    v->size_gib, r->min_gib, r->max_gib);
	return r->size_derived ? 0 : check_provisioned(r, v, err, errlen);
}

struct ebs_prices ebs_prices_default(void)
{
	return seoul_prices;
}

static double *price_field(struct ebs_type_prices *tp, const char *field)
{
	if (strcmp(field, "gib_month") == 0)
		return &tp->gib_month;
	if (strcmp(field, "iops_month") == 0)
		return &tp->iops_month;
	if (strcmp(field, "mibs_month") == 0)
		return &tp->mibs_month;
	if (strcmp(field, "iops_included") == 0)
		return &tp->iops_included;
	if (strcmp(field, "mibs_included") == 0)
		return &tp->mibs_included;
	if (strcmp(field, "iops_month_over_32000") == 0)
		return &tp->iops_month_over[0];
	if (strcmp(field, "iops_month_over_64000") == 0)
		return &tp->iops_month_over[1];
	return NULL;
}

int ebs_prices_set(struct ebs_prices *p, const char *name, double value)
{
	const char *dot = strchr(name, '.');
	char type_name[8];
	enum ebs_type type;
	double *field;

	if (!dot || (size_t)(dot - name) >= sizeof(type_name))
		return -1;
	memcpy(type_name, name, (size_t)(dot - name));
	type_name[dot - name] = '\0';
	if (ebs_type_parse(type_name, &type) != 0)
		return -1;
	field = price_field(&p->type[type], dot + 1);
	if (!field)
		return -1;
	*field = value;
	return 0;
}

/* An unknown price only poisons a cost that needs it. */
static double charge(double quantity, double price)
{
	return quantity > 0 ? quantity * price : 0;
}

static double iops_charge(enum ebs_type type, const struct ebs_type_prices *tp, double billable)
{
	if (type != EBS_IO2)
		return charge(billable, tp->iops_month);
	return charge(fmin(billable, io2_tier_start[0]), tp->iops_month) +
	       charge(fmin(billable, io2_tier_start[1]) - io2_tier_start[0],
		      tp->iops_month_over[0]) +
	       charge(billable - io2_tier_start[1], tp->iops_month_over[1]);
}

double ebs_monthly_cost(const struct ebs_volume *v, const struct ebs_prices *p)
{
	const struct ebs_type_rules *r = ebs_type_rules(v->type);
	const struct ebs_type_prices *tp = &p->type[v->type];
	double cost = v->size_gib * tp->gib_month;
	double iops;

	if (r->size_derived)
		return cost;
	iops = provisioned_iops(r, v);
	cost += iops_charge(v->type, tp, iops - tp->iops_included);
	if (r->mibs_provisioned)
		cost += charge(provisioned_mibs(r, v, iops) - tp->mibs_included, tp->mibs_month);
	return cost;
}

double ebs_cost_per_3000_iops(const struct ebs_volume *v, const struct ebs_prices *p)
{
	struct volume_limits l = volume_limits(ebs_type_rules(v->type), v);

	return ebs_monthly_cost(v, p) * 3000 / l.baseline_units;
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
		return "below prediction";
	case EBS_ABOVE_PREDICTION:
		return "above prediction";
	case EBS_NOT_PREDICTED:
		break;
	}
	return "no prediction";
}

const char *ebs_bound_name(enum ebs_bound bound)
{
	switch (bound) {
	case EBS_BOUND_NONE:
		return "demand";
	case EBS_BOUND_VOLUME_IOPS:
		return "volume IOPS";
	case EBS_BOUND_VOLUME_THROUGHPUT:
		return "volume throughput";
	case EBS_BOUND_INSTANCE_IOPS:
		return "instance IOPS";
	case EBS_BOUND_INSTANCE_THROUGHPUT:
		return "instance throughput";
	}
	return "unknown";
}
