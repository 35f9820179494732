/* ebs_model.h - what an EBS volume and its instance should deliver, and
 * what it costs: the numbers `ebsbench run` compares a measurement with.
 *
 * Everything here is pure arithmetic over dated tables (see ebs_model.c
 * for their dates and sources).  Rates are per second; sizes in GiB are
 * what AWS calls GB in its prices; MiB/s for volumes, MB/s (10^6) for
 * instances, because that is how AWS publishes each. */
#ifndef EBSBENCH_EBS_MODEL_H
#define EBSBENCH_EBS_MODEL_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

enum ebs_type { EBS_GP2, EBS_GP3, EBS_IO1, EBS_IO2, EBS_ST1, EBS_SC1 };
#define EBS_TYPE_COUNT 6

/* One row of the volume type table.  IOPS, bursts and credit buckets are
 * counted in accounting units: an I/O up to unit_bytes is one unit, a
 * bigger one is ceil(size / unit_bytes) units.  For st1/sc1 the unit is
 * 1 MiB, so their units per second are MiB/s. */
struct ebs_type_rules {
	enum ebs_type type;
	const char *name;
	double unit_bytes;
	double min_gib, max_gib;
	/* Throughput cap in MiB/s: small_mibs up to small_max_gib, else
	 * max_mibs.  Only gp2 has a small-volume cap. */
	double max_mibs, small_mibs, small_max_gib;
	/* gp2, st1, sc1: performance follows size (units per second). */
	bool size_derived;
	double baseline_per_gib, baseline_min, baseline_max;
	double burst_fixed, burst_per_gib, burst_max;
	double bucket_fixed, bucket_per_gib; /* credits, in units */
	/* gp3, io1, io2: provisioned IOPS (units per second). */
	double iops_default, iops_min, iops_max, iops_per_gib_max;
	/* gp3 provisions throughput on its own (mibs_min..max_mibs, at most
	 * mibs_per_iops per IOPS); io1/io2 get mibs_per_iops per IOPS. */
	bool mibs_provisioned;
	double mibs_default, mibs_min, mibs_per_iops;
};

struct ebs_volume {
	enum ebs_type type;
	double size_gib;
	/* Provisioned types only; gp2/st1/sc1 derive both from size. */
	double iops;
	double throughput_mibs;
	/* Set when a value is the type's default rather than read from AWS,
	 * so a report can say the prediction rests on an assumption. */
	bool iops_assumed;
	bool throughput_assumed;
};

/* The workload a prediction is for. */
struct ebs_workload {
	double io_size_bytes;
	/* EBS merges contiguous I/O smaller than a unit into one unit; this
	 * is a best case (AWS says it "attempts" to merge). */
	bool sequential;
	double idle_before_s;	 /* credits refill at baseline meanwhile */
	double credits_at_start; /* before the idle gap; EBS_CREDITS_FULL for a new volume */
};
#define EBS_CREDITS_FULL HUGE_VAL

/* What stops a rate going higher.  Same order as enum ebs_throttle in
 * ebs_stats.h, which says what did throttle a measured phase. */
enum ebs_bound {
	EBS_BOUND_NONE, /* demand, not a limit */
	EBS_BOUND_VOLUME_IOPS,
	EBS_BOUND_VOLUME_THROUGHPUT,
	EBS_BOUND_INSTANCE_IOPS,
	EBS_BOUND_INSTANCE_THROUGHPUT,
};

/* I/O per second at the workload's I/O size, and what bounds it. */
struct ebs_rate {
	double ops;
	enum ebs_bound bound;
};

struct ebs_prediction {
	/* The volume's limits whatever the I/O size: units/s and MiB/s. */
	double baseline_iops, burst_iops; /* equal when the volume cannot burst */
	double baseline_mibs, burst_mibs;
	double bucket;	 /* credit bucket size in units; 0: no bucket */
	double credits;	 /* at the start of the test, after the idle refill */
	double io_units; /* units one I/O of the workload costs */
	/* At the workload's I/O size. */
	struct ebs_rate baseline; /* sustained indefinitely */
	struct ebs_rate burst;	  /* while credits last */
	bool bursts;
	/* How long burst lasts at full demand from `credits`; 0 when the
	 * volume does not burst. */
	double burst_seconds;
};

struct instance_ebs_limits {
	const char *name; /* "m5.xlarge" */
	double baseline_iops, burst_iops;
	double baseline_mbps, burst_mbps; /* MB/s, 10^6 bytes */
	double burst_seconds_per_day;	  /* 0 when burst equals baseline */
};

/* Monthly prices for one type.  NaN marks a price we do not know; a cost
 * that needs it is NaN too. */
struct ebs_type_prices {
	double gib_month;
	double iops_month;		     /* per provisioned IOPS above the included */
	double mibs_month;		     /* per provisioned MiB/s above the included */
	double iops_included, mibs_included; /* gp3: 3,000 and 125 come free */
	/* io2 only: AWS bills IOPS above 32,000 and above 64,000 cheaper. */
	double iops_month_over[2];
};

struct ebs_prices {
	const char *region;
	const char *as_of;
	const char *source;
	struct ebs_type_prices type[EBS_TYPE_COUNT];
};

enum ebs_verdict {
	EBS_AS_PREDICTED,
	EBS_BELOW_PREDICTION,
	EBS_ABOVE_PREDICTION,
	EBS_NOT_PREDICTED, /* no positive prediction to compare with */
};

/* Where the tables come from and when they were last checked. */
const char *ebs_model_source(void);

const struct ebs_type_rules *ebs_type_rules(enum ebs_type type);
/* "gp3", any case.  Returns 0, or -1 for an unknown name. */
int ebs_type_parse(const char *name, enum ebs_type *out);
const char *ebs_type_name(enum ebs_type type);

/* A volume of the given type and size with the type's defaults for what
 * it provisions, flagged as assumed. */
void ebs_volume_init(struct ebs_volume *v, enum ebs_type type, double size_gib);
/* Whether AWS would accept the volume, by the table.  Returns 0, or -1
 * with a message in err.  Predictions do not depend on it: a stale table
 * must not clamp what AWS did provision. */
int ebs_volume_check(const struct ebs_volume *v, char *err, size_t errlen);

struct ebs_prediction ebs_predict(const struct ebs_volume *v, const struct ebs_workload *w);
/* How long the volume serves min(demand_ops, burst rate) before credits
 * run out: gp2 100 GiB at 3,000 IOPS of 4 KiB, 2,000 s.  HUGE_VAL when
 * that rate never drains credits (no burst needed, or none to give). */
double ebs_burst_seconds_at(const struct ebs_prediction *p, double demand_ops);
/* Mean rate over a test of duration_s that asks for demand_ops (HUGE_VAL:
 * as much as it can get): burst while credits last, then baseline. */
struct ebs_rate ebs_expected_rate(const struct ebs_prediction *p, double duration_s,
				  double demand_ops);
/* The lower of a volume rate and the instance's EBS limits.  Instance
 * IOPS count each I/O once (AWS quotes them at 16 KiB); instance_burst
 * picks the 30-minutes-a-day figures.  inst may be NULL. */
struct ebs_rate ebs_rate_with_instance(struct ebs_rate volume, double io_size_bytes,
				       const struct instance_ebs_limits *inst, bool instance_burst);

/* "m5.xlarge"; NULL when the table does not know it. */
const struct instance_ebs_limits *instance_limits_find(const char *instance_type);

struct ebs_prices ebs_prices_default(void);
/* Overrides one price: name is "TYPE.FIELD" with FIELD one of gib_month,
 * iops_month, mibs_month, iops_included, mibs_included,
 * iops_month_over_32000, iops_month_over_64000 ("gp3.iops_month").
 * Returns 0, or -1 for an unknown name. */
int ebs_prices_set(struct ebs_prices *p, const char *name, double value);
double ebs_monthly_cost(const struct ebs_volume *v, const struct ebs_prices *p);
/* Monthly cost scaled to 3,000 sustained (baseline) IOPS: what the seed
 * compares gp2 and gp3 by. */
double ebs_cost_per_3000_iops(const struct ebs_volume *v, const struct ebs_prices *p);

/* measured against predicted, as a relative tolerance (0.05 = 5 %). */
enum ebs_verdict ebs_verdict_of(double measured, double predicted, double tolerance);
const char *ebs_verdict_name(enum ebs_verdict verdict);
const char *ebs_bound_name(enum ebs_bound bound);

#endif
