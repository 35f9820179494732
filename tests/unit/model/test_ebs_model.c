/* test_ebs_model.c - the model reproduces the reference benchmark's arithmetic: gp2's
 * 300 IOPS baseline and 2,000 s burst, the 600 IOPS after a 120 s rest,
 * 256 KiB accounting and m5.xlarge's limits; AWS's current gp3/io1/io2
 * rules, what bounds a phase, the credits a cliff implies and instance
 * bursts (prices: test_ebs_prices.c). */
#include <string.h>

#include "check.h"
#include "model/ebs_model.h"
#include "model/internal.h"
#include "lib/lib.h"

static const struct ebs_workload full_4k = { .io_size_bytes = 4096,
					     .credits_at_start = EBS_CREDITS_FULL };

static struct ebs_volume volume(enum ebs_type type, double size_gib)
{
	struct ebs_volume v;
	ebs_volume_init(&v, type, size_gib);
	return v;
}

static void test_gp2_burst_and_baseline(struct checks *checks)
{
	struct ebs_volume v = volume(EBS_GP2, 100);
	struct ebs_prediction p = ebs_predict(&v, &full_4k);

	CHECK_NEAR(p.baseline_iops, 300, 0);
	CHECK_NEAR(p.burst_iops, 3000, 0);
	CHECK_NEAR(p.baseline.ops, 300, 1e-9);
	CHECK_NEAR(p.burst.ops, 3000, 1e-9);
	CHECK(p.burst.bound == EBS_BOUND_VOLUME_IOPS);
	CHECK(p.bursts);
	CHECK_NEAR(p.credits, 5.4e6, 0);
	/* 5,400,000 / (3,000 - 300): AWS's "100 GiB -> 2,000 seconds". */
	CHECK_NEAR(p.burst_seconds, 2000, 1e-9);
	CHECK_NEAR(ebs_burst_seconds_at(&p, 3000), 2000, 1e-9);
	CHECK_NEAR(ebs_burst_seconds_at(&p, 1650), 4000, 1e-9);
	CHECK(ebs_burst_seconds_at(&p, 300) == HUGE_VAL);
	/* The 2,700 s run: 2,000 s at 3,000, 700 s at 300. */
	CHECK_NEAR(ebs_expected_rate(&p, 2700, HUGE_VAL).ops, (2000 * 3000 + 700 * 300) / 2700.0,
		   1e-9);
}

static void test_gp2_sizes(struct checks *checks)
{
	struct ebs_volume v = volume(EBS_GP2, 334);
	struct ebs_prediction p = ebs_predict(&v, &full_4k);

	CHECK_NEAR(p.baseline_iops, 1002, 1e-9);
	CHECK(p.bursts);
	v = volume(EBS_GP2, 1000);
	p = ebs_predict(&v, &full_4k);
	CHECK_NEAR(p.baseline_iops, 3000, 0);
	CHECK(!p.bursts);
	CHECK_NEAR(p.burst_seconds, 0, 0);
	CHECK_NEAR(p.bucket, 0, 0);
	CHECK_NEAR(p.burst.ops, 3000, 1e-9);
	v = volume(EBS_GP2, 10);
	CHECK_NEAR(ebs_predict(&v, &full_4k).baseline_iops, 100, 0);
	v = volume(EBS_GP2, 8000);
	CHECK_NEAR(ebs_predict(&v, &full_4k).baseline_iops, 16000, 0);
}

static void test_gp2_refill_after_rest(struct checks *checks)
{
	struct ebs_volume v = volume(EBS_GP2, 100);
	/* Exhausted, then 120 s idle while gp3 was tested: 36,000 credits. */
	struct ebs_workload w = { .io_size_bytes = 4096, .idle_before_s = 120 };
	struct ebs_prediction p = ebs_predict(&v, &w);
	struct ebs_rate r;

	CHECK_NEAR(p.credits, 36000, 1e-9);
	r = ebs_expected_rate(&p, 120, HUGE_VAL);
	CHECK_NEAR(r.ops, 600, 1e-9); /* seed measured 601 */
	CHECK(r.bound == EBS_BOUND_VOLUME_IOPS);
	CHECK(ebs_verdict_of(601, r.ops, 0.05) == EBS_AS_PREDICTED);
	/* qd1 after a 60 s rest asks for ~1,759 IOPS: still 300 + 18,000 / 60. */
	w.idle_before_s = 60;
	p = ebs_predict(&v, &w);
	CHECK_NEAR(ebs_expected_rate(&p, 60, 1759).ops, 600, 1e-9); /* seed: 603 */
	/* A short test inside the refilled credits runs at burst. */
	CHECK_NEAR(ebs_expected_rate(&p, 5, HUGE_VAL).ops, 3000, 1e-9);
	/* Below baseline nothing throttles. */
	r = ebs_expected_rate(&p, 60, 200);
	CHECK_NEAR(r.ops, 200, 0);
	CHECK(r.bound == EBS_BOUND_NONE);
	/* The bucket caps the refill. */
	w.idle_before_s = 1e9;
	CHECK_NEAR(ebs_predict(&v, &w).credits, 5.4e6, 0);
}

static void test_256k_accounting_and_throughput(struct checks *checks)
{
	struct ebs_volume v = volume(EBS_GP3, 100);
	struct ebs_workload w = { .io_size_bytes = MIB, .sequential = true };
	struct ebs_prediction p = ebs_predict(&v, &w);

	/* min(3,000 / 4, 125 MiB/s / 1 MiB) */
	CHECK_NEAR(p.io_units, 4, 0);
	CHECK_NEAR(p.baseline.ops, 125, 1e-9);
	CHECK(p.baseline.bound == EBS_BOUND_VOLUME_THROUGHPUT);
	CHECK(!p.bursts);
	CHECK(ebs_verdict_of(127.3, p.baseline.ops, 0.05) == EBS_AS_PREDICTED);
	/* Random 1 MiB costs four units too; 300 KiB costs two. */
	w.sequential = false;
	CHECK_NEAR(ebs_predict(&v, &w).io_units, 4, 0);
	w.io_size_bytes = 300 * 1024;
	CHECK_NEAR(ebs_predict(&v, &w).io_units, 2, 0);
	/* Contiguous I/O merges only from 32 KiB: 4 KiB costs a unit each... */
	w = (struct ebs_workload){ .io_size_bytes = 4096, .sequential = true };
	p = ebs_predict(&v, &w);
	CHECK_NEAR(p.io_units, 1, 0);
	CHECK_NEAR(p.baseline.ops, 3000, 1e-9);
	CHECK(p.baseline.bound == EBS_BOUND_VOLUME_IOPS);
	/* ...32 KiB merges, 8 to a unit: the 125 MiB/s cap binds at 4,000. */
	w.io_size_bytes = 32 * 1024;
	p = ebs_predict(&v, &w);
	CHECK_NEAR(p.io_units, 0.125, 0);
	CHECK_NEAR(p.baseline.ops, 4000, 1e-9);
	CHECK(p.baseline.bound == EBS_BOUND_VOLUME_THROUGHPUT);
}

static void test_gp2_throughput(struct checks *checks)
{
	struct ebs_volume v = volume(EBS_GP2, 100);
	struct ebs_workload w = { .io_size_bytes = MIB, .credits_at_start = EBS_CREDITS_FULL };
	struct ebs_prediction p = ebs_predict(&v, &w);

	/* 128 MiB/s while credits last, 300 units * 256 KiB = 75 MiB/s after. */
	CHECK_NEAR(p.burst.ops, 128, 1e-9);
	CHECK(p.burst.bound == EBS_BOUND_VOLUME_THROUGHPUT);
	CHECK_NEAR(p.baseline.ops, 75, 1e-9);
	CHECK_NEAR(p.baseline_mibs, 75, 1e-9);
	/* 128 * 4 units drain 212 a second net of refill. */
	CHECK_NEAR(p.burst_seconds, 5.4e6 / (512 - 300), 1e-6);
	/* 170-334 GiB: 250 MiB/s only with credits. */
	v = volume(EBS_GP2, 200);
	p = ebs_predict(&v, &w);
	CHECK_NEAR(p.burst_mibs, 250, 1e-9);
	CHECK_NEAR(p.baseline_mibs, 150, 1e-9);
	v = volume(EBS_GP2, 334);
	CHECK_NEAR(ebs_predict(&v, &w).baseline_mibs, 250, 1e-9);
	v = volume(EBS_GP2, 170);
	CHECK_NEAR(ebs_predict(&v, &w).burst_mibs, 128, 1e-9);
}

static void test_hdd(struct checks *checks)
{
	struct ebs_volume v = volume(EBS_ST1, 1024);
	struct ebs_workload w = { .io_size_bytes = MIB,
				  .sequential = true,
				  .credits_at_start = EBS_CREDITS_FULL };
	struct ebs_prediction p = ebs_predict(&v, &w);

	CHECK_NEAR(p.baseline_mibs, 40, 1e-9);
	CHECK_NEAR(p.burst_mibs, 250, 1e-9);
	CHECK_NEAR(p.baseline.ops, 40, 1e-9);
	CHECK(p.baseline.bound == EBS_BOUND_VOLUME_THROUGHPUT);
	/* 1 TiB of credits draining at 250 - 40 MiB/s. */
	CHECK_NEAR(p.burst_seconds, (double)MIB / 210, 1e-6);
	/* A random 4 KiB I/O costs a whole MiB. */
	w = (struct ebs_workload){ .io_size_bytes = 4096 };
	p = ebs_predict(&v, &w);
	CHECK_NEAR(p.baseline.ops, 40, 1e-9);
	CHECK(p.baseline.bound == EBS_BOUND_VOLUME_IOPS);
	v = volume(EBS_SC1, 16384);
	p = ebs_predict(&v, &w);
	CHECK_NEAR(p.baseline_mibs, 192, 1e-9);
	CHECK_NEAR(p.burst_mibs, 250, 1e-9);
}

/* st1 and sc1 are measured by throughput, in a phase of their own; the
 * SSD types by 4k randread. */
static void test_cliff_phase(struct checks *checks)
{
	CHECK(ebs_type_throughput_bucket(EBS_ST1) && ebs_type_throughput_bucket(EBS_SC1));
	CHECK(!ebs_type_throughput_bucket(EBS_GP2) && !ebs_type_throughput_bucket(EBS_IO2));
	CHECK(!strcmp(ebs_cliff_phase(EBS_SC1), "seqread"));
	CHECK(!strcmp(ebs_cliff_phase(EBS_GP2), "randread"));
	CHECK(!strcmp(ebs_cliff_phase(EBS_GP3), "randread"));
}

static void test_provisioned(struct checks *checks)
{
	struct ebs_volume v = volume(EBS_IO2, 200);
	struct ebs_prediction p;

	CHECK(v.iops_assumed);
	v.iops = 20000;
	v.iops_assumed = false;
	p = ebs_predict(&v, &full_4k);
	CHECK_NEAR(p.baseline.ops, 20000, 0);
	CHECK(!p.bursts);
	/* io2 Block Express: 0.25 MiB/s per IOPS up to 4,000 MiB/s. */
	CHECK_NEAR(p.baseline_mibs, 4000, 1e-9);
	v.iops = 8000;
	CHECK_NEAR(ebs_predict(&v, &full_4k).baseline_mibs, 2000, 1e-9);
	v = volume(EBS_GP3, 100);
	CHECK(v.iops_assumed && v.throughput_assumed);
	CHECK_NEAR(v.iops, 3000, 0);
	CHECK_NEAR(v.throughput_mibs, 125, 0);
	CHECK_NEAR(ebs_predict(&v, &full_4k).baseline.ops, 3000, 0);
}

static void test_instance_limits(struct checks *checks)
{
	const struct instance_ebs_limits *m = ebs_instance_limits_find("m5.xlarge");

	if (!CHECK(m != NULL))
		return;
	CHECK_NEAR(m->baseline_iops, 6000, 0);
	CHECK_NEAR(m->burst_iops, 18750, 0);
	CHECK_NEAR(m->baseline_mbps, 143.75, 0);
	CHECK_NEAR(m->burst_mbps, 593.75, 0);
	CHECK_NEAR(m->burst_seconds_per_day, 1800, 0);
	CHECK(ebs_instance_limits_find("M5.XLARGE") == m);
	CHECK(ebs_instance_limits_find("m5.nano") == NULL);
	CHECK(ebs_instance_limits_find("") == NULL);
	CHECK(ebs_instance_limits_find("m5.large")->baseline_iops == 3600);
	const char *names[] = { "m6i.4xlarge", "m7i.large", "c5.2xlarge", "r5.4xlarge" };
	for (unsigned i = 0; i < 4; i++)
		CHECK(ebs_instance_limits_find(names[i]) != NULL);
}

static void test_instance_binds(struct checks *checks)
{
	const struct instance_ebs_limits *m = ebs_instance_limits_find("m5.xlarge");
	struct ebs_volume v = volume(EBS_GP3, 100);
	struct ebs_workload w = { .io_size_bytes = MIB, .sequential = true };
	struct ebs_rate r;

	/* 125 MiB/s is under the instance's 143.75 MB/s: the volume binds. */
	r = ebs_rate_with_instance(ebs_predict(&v, &w).baseline, MIB, m, false);
	CHECK_NEAR(r.ops, 125, 1e-9);
	CHECK(r.bound == EBS_BOUND_VOLUME_THROUGHPUT);
	/* 250 MiB/s stops near 137 MiB/s: the seed's warning. */
	v.throughput_mibs = 250;
	r = ebs_rate_with_instance(ebs_predict(&v, &w).baseline, MIB, m, false);
	CHECK_NEAR(r.ops, 143.75e6 / MIB, 1e-9);
	CHECK(r.bound == EBS_BOUND_INSTANCE_THROUGHPUT);
	r = ebs_rate_with_instance(ebs_predict(&v, &w).baseline, MIB, m, true);
	CHECK(r.bound == EBS_BOUND_VOLUME_THROUGHPUT);
	/* 16,000 provisioned IOPS on a 6,000 IOPS instance. */
	v.iops = 16000;
	r = ebs_rate_with_instance(ebs_predict(&v, &full_4k).baseline, 4096, m, false);
	CHECK_NEAR(r.ops, 6000, 0);
	CHECK(r.bound == EBS_BOUND_INSTANCE_IOPS);
	r = ebs_rate_with_instance(ebs_predict(&v, &full_4k).baseline, 4096, NULL, false);
	CHECK_NEAR(r.ops, 16000, 0);
}

static void test_types_and_checks(struct checks *checks)
{
	enum ebs_type t;
	char err[128];
	struct ebs_volume v;

	for (unsigned i = 0; i < EBS_TYPE_COUNT; i++) {
		CHECK(ebs_type_rules((enum ebs_type)i)->type == (enum ebs_type)i);
		CHECK(ebs_type_parse(ebs_type_name((enum ebs_type)i), &t) == 0 && t == i);
	}
	CHECK(ebs_type_parse("GP3", &t) == 0 && t == EBS_GP3);
	CHECK(ebs_type_parse("gp4", &t) == -1);
	CHECK(ebs_type_rules((enum ebs_type)EBS_TYPE_COUNT) == NULL);
	v = volume(EBS_GP3, 100);
	CHECK(ebs_volume_check(&v, err, sizeof(err)) == 0);
	v.iops = 50000; /* 500 per GiB */
	CHECK(ebs_volume_check(&v, err, sizeof(err)) == 0);
	v.iops = 50001;
	CHECK(ebs_volume_check(&v, err, sizeof(err)) == -1);
	v = volume(EBS_GP3, 10);
	v.iops = 16000; /* 500 per GiB */
	CHECK(ebs_volume_check(&v, err, sizeof(err)) == -1);
	CHECK(strstr(err, "per GiB") != NULL);
	v = volume(EBS_GP3, 100);
	v.throughput_mibs = 1000; /* needs 4,000 IOPS */
	CHECK(ebs_volume_check(&v, err, sizeof(err)) == -1);
	v = volume(EBS_GP2, 0);
	CHECK(ebs_volume_check(&v, err, sizeof(err)) == -1);
	v = volume(EBS_ST1, 100);
	CHECK(ebs_volume_check(&v, err, sizeof(err)) == -1);
	v = volume(EBS_IO1, 100);
	CHECK(ebs_volume_check(&v, err, sizeof(err)) == 0);
}

/* gp3 since September 2025: 80,000 IOPS, 2,000 MiB/s, 65,536 GiB, and
 * the included 3,000 IOPS valid at any size. */
static void test_gp3_limits(struct checks *checks)
{
	char err[128];
	struct ebs_volume v = volume(EBS_GP3, 65536);

	CHECK(ebs_volume_check(&v, err, sizeof(err)) == 0);
	v.size_gib = 65537;
	CHECK(ebs_volume_check(&v, err, sizeof(err)) == -1);
	v = volume(EBS_GP3, 160);
	v.iops = 80000;
	v.throughput_mibs = 2000;
	CHECK(ebs_volume_check(&v, err, sizeof(err)) == 0);
	CHECK_NEAR(ebs_predict(&v, &full_4k).baseline.ops, 80000, 0);
	v.iops = 80001;
	CHECK(ebs_volume_check(&v, err, sizeof(err)) == -1);
	v.iops = 80000;
	v.throughput_mibs = 2001;
	CHECK(ebs_volume_check(&v, err, sizeof(err)) == -1);
	/* 2,000 MiB/s needs 8,000 IOPS at 0.25 MiB/s per IOPS. */
	v.throughput_mibs = 2000;
	v.iops = 7999;
	CHECK(ebs_volume_check(&v, err, sizeof(err)) == -1);
	CHECK(strstr(err, "per IOPS") != NULL);
	v.iops = 8000;
	CHECK(ebs_volume_check(&v, err, sizeof(err)) == 0);
	/* 1 GiB: 500 x 1 is below 3,000, and 3,000 is still fine. */
	v = volume(EBS_GP3, 1);
	CHECK(ebs_volume_check(&v, err, sizeof(err)) == 0);
	v.iops = 3001;
	CHECK(ebs_volume_check(&v, err, sizeof(err)) == -1);
	v = volume(EBS_GP3, 7);
	v.iops = 3500;
	CHECK(ebs_volume_check(&v, err, sizeof(err)) == 0);
	v.iops = 3501;
	CHECK(ebs_volume_check(&v, err, sizeof(err)) == -1);
}

/* io2 is Block Express only: 4 GiB..64 TiB, 1,000 IOPS per GiB up to
 * 256,000, 4,000 MiB/s. */
static void test_io2_block_express(struct checks *checks)
{
	char err[128];
	struct ebs_volume v = volume(EBS_IO2, 256);
	struct ebs_workload seq = { .io_size_bytes = MIB, .sequential = true };

	v.iops = 256000;
	CHECK(ebs_volume_check(&v, err, sizeof(err)) == 0);
	CHECK_NEAR(ebs_predict(&v, &seq).baseline_mibs, 4000, 1e-9);
	v.size_gib = 255;
	CHECK(ebs_volume_check(&v, err, sizeof(err)) == -1);
	v.iops = 255000;
	CHECK(ebs_volume_check(&v, err, sizeof(err)) == 0);
	v.iops = 256001;
	v.size_gib = 65536;
	CHECK(ebs_volume_check(&v, err, sizeof(err)) == -1);
	v.iops = 100;
	CHECK(ebs_volume_check(&v, err, sizeof(err)) == 0);
	v.size_gib = 65537;
	CHECK(ebs_volume_check(&v, err, sizeof(err)) == -1);
	v.size_gib = 3;
	CHECK(ebs_volume_check(&v, err, sizeof(err)) == -1);
	/* 16,000 IOPS reach the 4,000 MiB/s maximum. */
	v = volume(EBS_IO2, 100);
	v.iops = 16000;
	CHECK_NEAR(ebs_predict(&v, &seq).baseline.ops, 4000, 1e-9);
	v.iops = 15000;
	CHECK_NEAR(ebs_predict(&v, &seq).baseline.ops, 3750, 1e-9);
}

/* io1: at most 500 MiB/s up to 32,000 IOPS, then 16 KiB per IOPS. */
static void test_io1_throughput(struct checks *checks)
{
	char err[128];
	struct ebs_volume v = volume(EBS_IO1, 2000);
	struct ebs_workload seq = { .io_size_bytes = MIB, .sequential = true };
	const double iops[] = { 1000, 2000, 20000, 32000, 48000, 64000 };
	const double mibs[] = { 250, 500, 500, 500, 750, 1000 };

	for (unsigned i = 0; i < 6; i++) {
		v.iops = iops[i];
		CHECK_NEAR(ebs_predict(&v, &seq).baseline_mibs, mibs[i], 1e-9);
		CHECK(ebs_volume_check(&v, err, sizeof(err)) == 0);
	}
	v.iops = 64001;
	CHECK(ebs_volume_check(&v, err, sizeof(err)) == -1);
	v = volume(EBS_IO1, 100);
	v.iops = 5000; /* 50 per GiB */
	CHECK(ebs_volume_check(&v, err, sizeof(err)) == 0);
	v.iops = 5001;
	CHECK(ebs_volume_check(&v, err, sizeof(err)) == -1);
}

/* The IOPS a phase should reach: bucket, provisioned, instance or
 * latency, whichever is lowest, named. */
static void test_phase_expected_iops(struct checks *checks)
{
	struct ebs_volume v = volume(EBS_GP2, 100);
	struct ebs_prediction p = ebs_predict(&v, &full_4k);
	/* The seed's qd1 gp2: 0.56 ms a read. */
	struct ebs_phase ph = {
		.duration_s = 60, .demand_ops = HUGE_VAL, .iodepth = 1, .latency_s = 0.56e-3
	};
	struct ebs_workload rested = { .io_size_bytes = 4096, .idle_before_s = 60 };
	struct ebs_rate r = ebs_phase_expected_iops(&p, &ph);

	/* Full bucket: 1 / 0.56 ms = 1,786 is below the 3,000 burst. */
	CHECK_NEAR(r.ops, 1 / 0.56e-3, 1e-6);
	CHECK(r.bound == EBS_BOUND_LATENCY);
	/* Empty, then 60 s idle: the bucket allows 600, below 1,786. */
	p = ebs_predict(&v, &rested);
	r = ebs_phase_expected_iops(&p, &ph);
	CHECK_NEAR(r.ops, 600, 1e-9);
	CHECK(r.bound == EBS_BOUND_VOLUME_IOPS);
	CHECK(ebs_verdict_of(603, r.ops, 0.05) == EBS_AS_PREDICTED);
	/* No demand given means no demand limit. */
	ph.demand_ops = 0;
	CHECK_NEAR(ebs_phase_expected_iops(&p, &ph).ops, 600, 1e-9);
	ph.demand_ops = HUGE_VAL;
	/* Latency unknown: only the volume bounds it. */
	ph.latency_s = 0;
	p = ebs_predict(&v, &full_4k);
	r = ebs_phase_expected_iops(&p, &ph);
	CHECK_NEAR(r.ops, 3000, 1e-9);
	CHECK(r.bound == EBS_BOUND_VOLUME_IOPS);
	/* Deep queue on a 16,000 IOPS gp3 behind an m5.xlarge: the instance. */
	v = volume(EBS_GP3, 100);
	v.iops = 16000;
	p = ebs_predict(&v, &full_4k);
	ph = (struct ebs_phase){ .duration_s = 60,
				 .demand_ops = HUGE_VAL,
				 .iodepth = 32,
				 .latency_s = 1e-3,
				 .instance = ebs_instance_limits_find("m5.xlarge") };
	r = ebs_phase_expected_iops(&p, &ph);
	CHECK_NEAR(r.ops, 6000, 0);
	CHECK(r.bound == EBS_BOUND_INSTANCE_IOPS);
	ph.instance = NULL;
	r = ebs_phase_expected_iops(&p, &ph);
	CHECK_NEAR(r.ops, 16000, 0);
	CHECK(r.bound == EBS_BOUND_VOLUME_IOPS);
	/* A rate-limited job below everything: demand, not latency. */
	ph.demand_ops = 500;
	r = ebs_phase_expected_iops(&p, &ph);
	CHECK_NEAR(r.ops, 500, 0);
	CHECK(r.bound == EBS_BOUND_NONE);
	CHECK(strstr(ebs_bound_name(EBS_BOUND_LATENCY), "latency") != NULL);
}

/* Sequential throughput caps, I/O counted in 256 KiB units. */
static void test_seq_throughput_cap(struct checks *checks)
{
	const struct instance_ebs_limits *m = ebs_instance_limits_find("m5.xlarge");
	struct ebs_volume v = volume(EBS_GP3, 100);
	struct ebs_throughput t = ebs_seq_throughput_cap(&v, MIB, false, NULL, false);

	CHECK_NEAR(t.mibs, 125, 1e-9);
	CHECK(t.bound == EBS_BOUND_VOLUME_THROUGHPUT);
	v.throughput_mibs = 250;
	t = ebs_seq_throughput_cap(&v, MIB, false, m, false);
	CHECK_NEAR(t.mibs, 143.75e6 / MIB, 1e-9);
	CHECK(t.bound == EBS_BOUND_INSTANCE_THROUGHPUT);
	t = ebs_seq_throughput_cap(&v, MIB, false, m, true);
	CHECK_NEAR(t.mibs, 250, 1e-9);
	/* A 1 MiB I/O is four units: 4,000 IOPS move 1,000 MiB/s on io2... */
	v = volume(EBS_IO2, 100);
	v.iops = 4000;
	t = ebs_seq_throughput_cap(&v, MIB, false, NULL, false);
	CHECK_NEAR(t.mibs, 1000, 1e-9);
	/* ...and 4 KiB sequential I/O is one unit each, not merged. */
	v = volume(EBS_GP3, 100);
	t = ebs_seq_throughput_cap(&v, 4096, false, NULL, false);
	CHECK_NEAR(t.mibs, 3000 * 4096.0 / MIB, 1e-9);
	CHECK(t.bound == EBS_BOUND_VOLUME_IOPS);
	/* gp2 100 GiB: 128 MiB/s with credits, 300 units x 256 KiB without. */
	v = volume(EBS_GP2, 100);
	CHECK_NEAR(ebs_seq_throughput_cap(&v, MIB, true, NULL, false).mibs, 128, 1e-9);
	CHECK_NEAR(ebs_seq_throughput_cap(&v, MIB, false, NULL, false).mibs, 75, 1e-9);
	/* Contiguous 384 KiB I/O merges: 1.5 units each on average, so a
	 * 1,000 IOPS io2 moves 250 MiB/s (random, 2 units each: 187.5). */
	v = volume(EBS_IO2, 100);
	v.iops = 1000;
	CHECK_NEAR(ebs_seq_throughput_cap(&v, 384 * 1024, false, NULL, false).mibs, 250, 1e-9);
	{
		struct ebs_workload random_384k = { .io_size_bytes = 384 * 1024 };
		CHECK_NEAR(ebs_predict(&v, &random_384k).baseline.ops * 384 * 1024 / MIB, 187.5,
			   1e-9);
	}
	/* 2 MiB I/O on a 1,000 IOPS io1: 8 units, 125 a second, 250 MiB/s. */
	v = volume(EBS_IO1, 100);
	v.iops = 1000;
	CHECK_NEAR(ebs_seq_throughput_cap(&v, 2 * MIB, false, NULL, false).mibs, 250, 1e-9);
}

/* The bucket at the start, from when the cliff came. */
static void test_credits_from_cliff(struct checks *checks)
{
	struct ebs_volume v = volume(EBS_GP2, 100);
	struct ebs_prediction p = ebs_predict(&v, &full_4k);
	/* The seed: burst 3,000 then 300, the cliff at ~2,000 s: full. */
	struct ebs_credit_state c = ebs_credits_from_cliff(&p, 2000, HUGE_VAL);

	CHECK_NEAR(c.credits, 5.4e6, 1e-6);
	CHECK_NEAR(c.percent, 100, 1e-9);
	c = ebs_credits_from_cliff(&p, 1000, HUGE_VAL);
	CHECK_NEAR(c.credits, 2.7e6, 1e-6);
	CHECK_NEAR(c.percent, 50, 1e-9);
	/* A phase asking 1,650 IOPS drains 1,350 a second net of refill. */
	c = ebs_credits_from_cliff(&p, 4000, 1650);
	CHECK_NEAR(c.percent, 100, 1e-9);
	/* Round trip: the burst a balance buys is the cliff it implies. */
	p.credits = 0.8 * 5.4e6;
	c = ebs_credits_from_cliff(&p, ebs_burst_seconds_at(&p, HUGE_VAL), HUGE_VAL);
	CHECK_NEAR(c.percent, 80, 1e-9);
	c = ebs_credits_from_cliff(&p, -5, HUGE_VAL);
	CHECK_NEAR(c.credits, 0, 0);
	/* No bucket, no percentage. */
	v = volume(EBS_GP3, 100);
	p = ebs_predict(&v, &full_4k);
	CHECK(isnan(ebs_credits_from_cliff(&p, 100, HUGE_VAL).percent));
}

/* The instance's own EBS burst: 30 minutes a day on the rows whose
 * maximum exceeds their baseline. */
static void test_instance_bursts(struct checks *checks)
{
	const char *bursting[] = { "m5.large",	 "m5.xlarge",	"m5.2xlarge",  "m6i.large",
				   "m6i.xlarge", "m6i.2xlarge", "m6i.4xlarge", "m7i.large",
				   "m7i.xlarge", "m7i.2xlarge", "m7i.4xlarge", "c5.large",
				   "c5.xlarge",	 "c5.2xlarge",	"r5.large",    "r5.xlarge",
				   "r5.2xlarge" };
	const char *steady[] = { "m5.4xlarge", "m5.8xlarge", "m6i.8xlarge", "m7i.8xlarge",
				 "c5.4xlarge", "c5.9xlarge", "r5.4xlarge",  "r5.8xlarge" };

	for (unsigned i = 0; i < ARRAY_SIZE(bursting); i++) {
		const struct instance_ebs_limits *m = ebs_instance_limits_find(bursting[i]);
		if (!CHECK(m != NULL))
			continue;
		CHECK(ebs_instance_has_burst(m));
		CHECK_NEAR(m->burst_seconds_per_day, 1800, 0);
		CHECK(m->burst_iops > m->baseline_iops);
	}
	for (unsigned i = 0; i < ARRAY_SIZE(steady); i++) {
		const struct instance_ebs_limits *m = ebs_instance_limits_find(steady[i]);
		if (!CHECK(m != NULL))
			continue;
		CHECK(!ebs_instance_has_burst(m));
		CHECK_NEAR(m->burst_iops, m->baseline_iops, 0);
		CHECK_NEAR(m->burst_mbps, m->baseline_mbps, 0);
	}
	CHECK(!ebs_instance_has_burst(NULL));
	CHECK_NEAR(INSTANCE_BURST_WINDOW_S, 86400, 0);
}

static void test_verdicts(struct checks *checks)
{
	CHECK(ebs_verdict_of(3001, 3000, 0.05) == EBS_AS_PREDICTED);
	CHECK(ebs_verdict_of(300, 3000, 0.05) == EBS_BELOW_PREDICTION);
	CHECK(ebs_verdict_of(3300, 3000, 0.05) == EBS_ABOVE_PREDICTION);
	CHECK(ebs_verdict_of(1, NAN, 0.05) == EBS_NOT_PREDICTED);
	CHECK(ebs_verdict_of(1, 0, 0.05) == EBS_NOT_PREDICTED);
	CHECK(strcmp(ebs_verdict_name(EBS_BELOW_PREDICTION), "worse") == 0);
	CHECK(strcmp(ebs_bound_name(EBS_BOUND_INSTANCE_THROUGHPUT), "instance throughput") == 0);
}

CHECK_MAIN(test_gp2_burst_and_baseline, test_gp2_sizes, test_gp2_refill_after_rest,
	   test_256k_accounting_and_throughput, test_gp2_throughput, test_hdd, test_cliff_phase,
	   test_provisioned, test_instance_limits, test_instance_binds, test_types_and_checks,
	   test_gp3_limits, test_io2_block_express, test_io1_throughput, test_phase_expected_iops,
	   test_seq_throughput_cap, test_credits_from_cliff, test_instance_bursts, test_verdicts)
