/* test_demand_sim.c - demand traces replayed through the EBS limits, on
 * synthetic traces whose answers are worked out by hand in the comments. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "analysis/analysis.h"
#include "decide/decide.h"
#include "decide/internal.h"

#define T0 1795168800.0 /* 2026-11-20T10:00:00Z */

/* A trace of n intervals of dt seconds; rate(i) fills interval i. */
static struct demand_trace trace(size_t n, double dt)
{
	struct demand_trace tr = { .volume = "vol-0test", .interval_s = dt, .n = n, .cap = n };
	tr.p = calloc(n, sizeof(*tr.p));
	for (size_t i = 0; tr.p && i < n; i++)
		tr.p[i].t = T0 + dt * (double)i;
	return tr;
}

/* Interval i asks iops of io_bytes reads a second. */
static void ask(struct demand_trace *tr, size_t i, double iops, double io_bytes)
{
	tr->p[i].read_ops = iops * tr->interval_s;
	tr->p[i].read_bytes = iops * io_bytes * tr->interval_s;
}

static struct demand_sim_result run(const struct demand_trace *tr, const struct ebs_volume *v,
				    const struct demand_sim_opts *o)
{
	struct demand_sim_result r;
	char err[128];
	if (demand_simulate(tr, v, o, &r, err, sizeof(err)))
		fprintf(stderr, "demand_simulate: %s\n", err);
	return r;
}

/* gp2 100 GiB: baseline 3 x 100 = 300 IOPS.  A day at 250 IOPS of 4 KiB
 * never asks above it: never throttles, the bucket stays full. */
static void test_steady_under_baseline(struct checks *checks)
{
	struct demand_trace tr = trace(1440, 60);
	struct ebs_volume gp2;
	struct demand_sim_opts o = { 0 };

	if (!CHECK(tr.p))
		return;
	for (size_t i = 0; i < tr.n; i++)
		ask(&tr, i, 250, 4096);
	ebs_volume_init(&gp2, EBS_GP2, 100);
	struct demand_sim_result r = run(&tr, &gp2, &o);
	CHECK_NEAR(r.seconds, 86400, 0);
	CHECK_NEAR(r.throttled_s, 0, 0);
	CHECK_NEAR(r.share, 0, 0);
	CHECK(isnan(r.dry_at));
	CHECK_NEAR(r.min_credit_pct, 100, 0);
	CHECK_NEAR(r.max_backlog_units, 0, 0);
	CHECK_EQ_U64(r.nbalance, DEMAND_BALANCE_POINTS);
	free(tr.p);
}

/* gp2 100 GiB: bucket 5.4 M credits, burst 3,000, baseline 300.  Ten
 * quiet minutes (10 IOPS: the bucket stays full), then a batch at 3,000
 * IOPS of 16 KiB (one unit each) for 60 minutes, t = 600..4,200 s.  The
 * bucket drains at 3,000 - 300 = 2,700 a second: dry after
 * 5,400,000 / 2,700 = 2,000 s, at t = 2,600 s (minute 43, 20 s in).
 * From then the volume serves 300 of the 3,000 asked: throttled
 * 4,200 - 2,600 = 1,600 s, the backlog growing 2,700 a second to
 * 4,320,000 units, 14,400 s of the 300 IOPS floor. */
static void test_batch_drains_gp2(struct checks *checks)
{
	struct demand_trace tr = trace(70, 60);
	struct ebs_volume gp2;
	struct demand_sim_opts o = { 0 };

	if (!CHECK(tr.p))
		return;
	for (size_t i = 0; i < tr.n; i++)
		ask(&tr, i, i < 10 ? 10 : 3000, 16384);
	ebs_volume_init(&gp2, EBS_GP2, 100);
	struct demand_sim_result r = run(&tr, &gp2, &o);
	CHECK_NEAR(r.dry_at - T0, 2600, 60); /* within one interval; the model is exact */
	CHECK_NEAR(r.dry_at - T0, 2600, 1e-6);
	CHECK_NEAR(r.throttled_s, 1600, 1e-6);
	CHECK_NEAR(r.dry_s, 1600, 1e-6);
	CHECK_NEAR(r.worst_s, 1600, 1e-6);
	CHECK_NEAR(r.worst_start - T0, 2580, 0); /* the interval it ran dry in */
	CHECK_NEAR(r.share, 1600 / 4200.0, 1e-9);
	CHECK_NEAR(r.max_backlog_units, 4.32e6, 1e-3);
	CHECK_NEAR(r.max_backlog_s, 14400, 1e-6);
	CHECK_NEAR(r.min_credit_pct, 0, 0);
	CHECK(r.bound == EBS_BOUND_VOLUME_IOPS);
	/* Half spent at the start (CloudWatch's BurstBalance at 50 %): 2.7 M
	 * credits, plus (300 - 10) x 600 = 174,000 refilled in the quiet
	 * minutes, last 2,874,000 / 2,700 = 1,064.4 s of the batch: dry at
	 * 1,664.4 s, throttled 4,200 - 1,664.4 = 2,535.6 s. */
	struct demand_sim_opts half = { .start_spent_pct = 50 };
	r = run(&tr, &gp2, &half);
	CHECK_NEAR(r.dry_at - T0, 600 + 2874000 / 2700.0, 1e-6);
	CHECK_NEAR(r.throttled_s, 4200 - 600 - 2874000 / 2700.0, 1e-6);
	CHECK_NEAR(r.min_credit_pct, 0, 0);
	/* gp3 at its included 3,000 IOPS serves it all. */
	struct ebs_volume gp3 = {
		.type = EBS_GP3, .size_gib = 100, .iops = 3000, .throughput_mibs = 125
	};
	r = run(&tr, &gp3, &o);
	CHECK_NEAR(r.throttled_s, 0, 0);
	CHECK(isnan(r.dry_at));
	free(tr.p);
}

/* 400 MiB/s of 1 MiB reads: 400 IOPS, each 4 units of 256 KiB, 1,600
 * units a second.  gp3's included 3,000 IOPS cover the units, its
 * included 125 MiB/s do not: throttled all the time, by throughput.
 * Provisioned to 400 MiB/s it never is. */
static void test_throughput_bound(struct checks *checks)
{
	struct demand_trace tr = trace(30, 60);
	struct demand_sim_opts o = { 0 };

	if (!CHECK(tr.p))
		return;
	for (size_t i = 0; i < tr.n; i++)
		ask(&tr, i, 400, MIB);
	struct ebs_volume gp3 = {
		.type = EBS_GP3, .size_gib = 500, .iops = 3000, .throughput_mibs = 125
	};
	struct demand_sim_result r = run(&tr, &gp3, &o);
	CHECK_NEAR(r.throttled_s, 1800, 1e-6);
	CHECK(r.bound == EBS_BOUND_VOLUME_THROUGHPUT);
	gp3.throughput_mibs = 400;
	r = run(&tr, &gp3, &o);
	CHECK_NEAR(r.throttled_s, 0, 0);
	struct demand_need_rate need = demand_rate_quantile(&tr, 256 * KIB, 0, 1);
	CHECK_NEAR(need.units, 1600, 1e-9);
	CHECK_NEAR(need.mibs, 400, 1e-9);
	free(tr.p);
}

/* m5.xlarge: 6,000 IOPS baseline, 18,750 for 1,800 s a day.  An io2 of
 * 20,000 IOPS asked 10,000 IOPS of 4 KiB for an hour: the instance's
 * burst serves the first 1,800 s, then its baseline holds the volume at
 * 6,000: throttled 3,600 - 1,800 = 1,800 s, by the instance. */
static void test_instance_burst(struct checks *checks)
{
	struct demand_trace tr = trace(60, 60);
	struct demand_sim_opts o = { .instance = ebs_instance_limits_find("m5.xlarge") };

	if (!CHECK(tr.p) || !CHECK(o.instance))
		return;
	for (size_t i = 0; i < tr.n; i++)
		ask(&tr, i, 10000, 4096);
	struct ebs_volume io2 = { .type = EBS_IO2, .size_gib = 100, .iops = 20000 };
	struct demand_sim_result r = run(&tr, &io2, &o);
	CHECK_NEAR(r.throttled_s, 1800, 1e-6);
	CHECK(r.bound == EBS_BOUND_INSTANCE_IOPS);
	o.instance = NULL;
	r = run(&tr, &io2, &o);
	CHECK_NEAR(r.throttled_s, 0, 0);
	free(tr.p);
}

/* A per-minute mean of 2,500 IOPS fits gp3's 3,000; with a peak 1.5 times
 * the mean (3,750) inside each minute it does not: hidden throttling, all
 * 10 minutes.  gp2 100 GiB at 250 IOPS x 1.5 = 375 still bursts: none. */
static void test_peak_factor(struct checks *checks)
{
	struct demand_trace tr = trace(10, 60);
	struct demand_sim_opts o = { .peak_factor = 1.5 };

	if (!CHECK(tr.p))
		return;
	for (size_t i = 0; i < tr.n; i++)
		ask(&tr, i, 2500, 4096);
	struct ebs_volume gp3 = {
		.type = EBS_GP3, .size_gib = 100, .iops = 3000, .throughput_mibs = 125
	};
	struct demand_sim_result r = run(&tr, &gp3, &o);
	CHECK_NEAR(r.throttled_s, 0, 0);
	CHECK_NEAR(r.hidden_s, 600, 0);
	CHECK_NEAR(r.share, 1, 1e-12);
	CHECK_NEAR(demand_rate_quantile(&tr, 256 * KIB, 0, 1.5).units, 3750, 1e-9);
	for (size_t i = 0; i < tr.n; i++)
		ask(&tr, i, 250, 4096);
	struct ebs_volume gp2;
	ebs_volume_init(&gp2, EBS_GP2, 100);
	r = run(&tr, &gp2, &o);
	CHECK_NEAR(r.hidden_s + r.throttled_s, 0, 0);
	free(tr.p);
}

/* A gap is idle time: 30 minutes at 3,000 IOPS drain 2,700 x 1,800 =
 * 4.86 M credits (90 %, 0.54 M left).  A 1-hour gap refills
 * 300 x 3,600 = 1.08 M (1.62 M): 30 more minutes run it dry after
 * 1.62 M / 2,700 = 600 s and throttle the other 1,200 s.  A 5-hour gap
 * refills it to the 5.4 M cap: the second half leaves 10 % again. */
static void test_gap_refills(struct checks *checks)
{
	struct demand_trace tr = trace(60, 60);
	struct ebs_volume gp2;
	struct demand_sim_opts o = { 0 };

	if (!CHECK(tr.p))
		return;
	for (size_t i = 0; i < tr.n; i++) {
		ask(&tr, i, 3000, 4096);
		if (i >= 30)
			tr.p[i].t += 3600;
	}
	ebs_volume_init(&gp2, EBS_GP2, 100);
	struct demand_sim_result r = run(&tr, &gp2, &o);
	CHECK_NEAR(r.seconds, 7200, 0);
	CHECK_NEAR(r.dry_at - T0, 1800 + 3600 + 600, 1e-6);
	CHECK_NEAR(r.throttled_s, 1200, 1e-6);
	for (size_t i = 30; i < tr.n; i++)
		tr.p[i].t += 18000 - 3600;
	r = run(&tr, &gp2, &o);
	CHECK_NEAR(r.seconds, 21600, 0);
	CHECK(isnan(r.dry_at));
	CHECK_NEAR(r.min_credit_pct, 10, 1e-9);
	CHECK_NEAR(r.throttled_s, 0, 0);
	free(tr.p);
}

CHECK_MAIN(test_steady_under_baseline, test_batch_drains_gp2, test_throughput_bound,
	   test_instance_burst, test_peak_factor, test_gap_refills)
