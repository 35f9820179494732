/* ebs_model.h - what an EBS volume and its instance should deliver: the
 * numbers `ebsbench run` compares a measurement with (what it costs is in
 * ebs_prices.h).
 *
 * Everything here is pure arithmetic over dated tables: the volume and
 * instance tables in ebs_model_tables.c, each with its date and the AWS
 * pages it comes from.  Rates are per second; sizes in GiB are
 * what AWS calls GB in its prices; MiB/s for volumes, MB/s (10^6) for
 * instances, because that is how AWS publishes each. */
#ifndef EBSBENCH_EBS_MODEL_H
#define EBSBENCH_EBS_MODEL_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

enum ebs_type { EBS_GP2, EBS_GP3, EBS_IO1, EBS_IO2, EBS_ST1, EBS_SC1 };
#define EBS_TYPE_COUNT 6

/* gp3's baseline at any size: the least it can be provisioned with, its
 * default, and what its price includes (ebs_prices.c). */
#define EBS_GP3_IOPS_INCLUDED 3000
#define EBS_GP3_MIBS_INCLUDED 125

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
	/* gp2: `aws ec2 describe-volumes` reports its baseline as Iops (the EC2
	 * API documents Iops for gp2, gp3, io1 and io2, not st1 or sc1). */
	bool iops_reported;
	double baseline_per_gib, baseline_min, baseline_max;
	double burst_fixed, burst_per_gib, burst_max;
	double bucket_fixed, bucket_per_gib; /* credits, in units */
	/* gp3, io1, io2: provisioned IOPS (units per second). */
	double iops_default, iops_min, iops_max, iops_per_gib_max;
	/* gp3 provisions throughput on its own (mibs_min..max_mibs, at most
	 * mibs_per_iops per IOPS); io2 gets mibs_per_iops per IOPS.  io1 has
	 * a knee: knee_mibs up to knee_iops, then kib_per_iops_above_knee
	 * KiB/s per IOPS (500 MiB/s to 32,000 IOPS, 16 KiB per IOPS above). */
	bool mibs_provisioned;
	double mibs_default, mibs_min, mibs_per_iops;
	double knee_iops, knee_mibs, kib_per_iops_above_knee;
	/* Contiguous I/O at least this big merges into full units; smaller
	 * sequential I/O counts one unit each (AWS: "32 KiB or over"). */
	double merge_min_bytes;
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
	/* EBS merges contiguous I/O of at least merge_min_bytes into whole
	 * units; this is a best case (AWS says it "attempts" to merge). */
	bool sequential;
	double idle_before_s;	 /* credits refill at baseline meanwhile */
	double credits_at_start; /* before the idle gap; EBS_CREDITS_FULL for a new volume */
};
#define EBS_CREDITS_FULL HUGE_VAL

/* What stops a rate going higher.  The first five are in the order of
 * enum ebs_throttle in ebs_stats.h, which says what did throttle a
 * measured phase; LATENCY has no throttle counterpart. */
enum ebs_bound {
	EBS_BOUND_NONE, /* demand, not a limit: a rated phase's rate_iops */
	EBS_BOUND_VOLUME_IOPS,
	EBS_BOUND_VOLUME_THROUGHPUT,
	EBS_BOUND_INSTANCE_IOPS,
	EBS_BOUND_INSTANCE_THROUGHPUT,
	EBS_BOUND_LATENCY,   /* iodepth / service time: nothing throttles */
	EBS_BOUND_DELIVERED, /* the level the volume was measured to hold (delivered.h) */
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
	double io_bytes; /* the workload's I/O size */
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
	/* The instance's own EBS burst: burst_* for this long at least once
	 * a day, then baseline_*, on every volume at once.  0 when burst
	 * equals baseline (the instance has no burst). */
	double burst_seconds_per_day;
};
#define INSTANCE_BURST_WINDOW_S 86400.0 /* "at least once every 24 hours" */

enum ebs_verdict {
	EBS_AS_PREDICTED,
	EBS_BELOW_PREDICTION,
	EBS_ABOVE_PREDICTION,
	EBS_AS_DELIVERED,  /* within tolerance of a delivered limit below the model's */
	EBS_LOADING,	   /* below the prediction, reading blocks not yet loaded from a snapshot */
	EBS_NOT_PREDICTED, /* no positive prediction to compare with; last */
};

const struct ebs_type_rules *ebs_type_rules(enum ebs_type type);
/* "gp3", any case.  Returns 0, or -1 for an unknown name. */
int ebs_type_parse(const char *name, enum ebs_type *out);
const char *ebs_type_name(enum ebs_type type);
/* Whether the type's credits are throughput (st1, sc1: a 1 MiB unit, so
 * units per second are MiB/s): such a volume is measured with 1 MiB
 * sequential I/O, as AWS advises for HDD, and its cliff is in MiB/s. */
bool ebs_type_throughput_bucket(enum ebs_type type);
/* The phase whose series shows the volume's credit cliff: 4k "randread"
 * for an IOPS bucket, 1 MiB sequential "seqread" for a throughput one. */
const char *ebs_cliff_phase(enum ebs_type type);

/* A volume of the given type and size with the type's defaults for what
 * it provisions, flagged as assumed. */
void ebs_volume_init(struct ebs_volume *v, enum ebs_type type, double size_gib);
/* Whether AWS would accept the volume, by the table.  Returns 0, or -1
 * with a message in err.  Predictions do not depend on it: a stale table
 * must not clamp what AWS did provision. */
int ebs_volume_check(const struct ebs_volume *v, char *err, size_t errlen);

struct ebs_prediction ebs_predict(const struct ebs_volume *v, const struct ebs_workload *w);
/* What a provisioned volume has, or its type's default when unset; for
 * gp2/st1/sc1 their baseline IOPS and throughput cap. */
double ebs_volume_iops(const struct ebs_volume *v);
double ebs_volume_mibs(const struct ebs_volume *v);
/* The Iops `aws ec2 describe-volumes` reports for a volume whose IOPS
 * follow from its size: gp2's baseline (3 per GiB, 100..16,000); NaN for
 * a type whose Iops it does not report or that provisions them. */
double ebs_size_derived_iops(enum ebs_type type, double size_gib);
/* How long the volume serves min(demand_ops, burst rate) before credits
 * run out: gp2 100 GiB at 3,000 IOPS of 4 KiB, 2,000 s.  HUGE_VAL when
 * that rate never drains credits (no burst needed, or none to give). */
double ebs_burst_seconds_at(const struct ebs_prediction *p, double demand_ops);
/* The lower of a volume rate and the instance's EBS limits.  Instance
 * IOPS count each I/O once (AWS quotes them at 16 KiB); instance_burst
 * picks the 30-minutes-a-day figures.  inst may be NULL. */
struct ebs_rate ebs_rate_with_instance(struct ebs_rate volume, double io_size_bytes,
				       const struct instance_ebs_limits *inst, bool instance_burst);

/* A phase as the analysis measured it, for what it should have reached. */
struct ebs_phase {
	double duration_s;
	double demand_ops; /* 0 or HUGE_VAL: as much as the phase can get */
	double iodepth;
	/* One I/O's service time without throttling (the reference benchmark's qd1 gp2:
	 * 0.56 ms); 0 or NaN: unknown, latency bounds nothing. */
	double latency_s;
	const struct instance_ebs_limits *instance; /* NULL: unknown */
	bool instance_burst;
};
/* The IOPS a phase should reach: the lowest of what the volume allows
 * over the phase (provisioned IOPS, or gp2's bucket: burst while the
 * credits in p last, then baseline), the instance limit and
 * iodepth / latency, with the one that bound it.  At qd1 on a full gp2
 * the latency binds (1 / 0.56 ms = 1,786 < 3,000); after a 60 s rest the
 * bucket does (600 < 1,786). */
struct ebs_rate ebs_phase_expected_iops(const struct ebs_prediction *p, const struct ebs_phase *ph);

/* A bucket's balance, in credits (units) and as a share of the bucket. */
struct ebs_credit_state {
	double credits;
	double percent; /* of p->bucket (gp2: 5.4 M); NaN without a bucket */
};
/* The balance a burst phase started with, inferred from when its cliff
 * came: what the burst drained net of refill in cliff_s seconds,
 * cliff_s x (rate x units per I/O - baseline), at rate =
 * min(demand_ops, burst rate).  The reference benchmark's 100 GiB gp2 fell at 2,000 s
 * at 3,000 IOPS: 5.4 M credits, 100 %. */
struct ebs_credit_state ebs_credits_from_cliff(const struct ebs_prediction *p, double cliff_s,
					       double demand_ops);

/* "m5.xlarge"; NULL when the table does not know it. */
const struct instance_ebs_limits *ebs_instance_limits_find(const char *instance_type);
/* Whether the instance has its own EBS burst, which ends in a cliff of
 * its own after burst_seconds_per_day at full demand. */
bool ebs_instance_has_burst(const struct instance_ebs_limits *inst);

/* measured against predicted, as a relative tolerance (0.05 = 5 %). */
enum ebs_verdict ebs_verdict_of(double measured, double predicted, double tolerance);
/* The verdict in the summary's words: "as predicted", "better", "worse",
 * "not predicted". */
const char *ebs_verdict_name(enum ebs_verdict verdict);
const char *ebs_bound_name(enum ebs_bound bound);

#endif
