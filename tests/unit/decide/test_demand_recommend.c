/* test_demand_recommend.c - the cheapest volume per type for a demand
 * trace, at the seed's Seoul prices (gp2 $0.114/GiB-month, gp3 $0.0912
 * + $0.0057/IOPS over 3,000 + $0.0456/MiB/s over 125; io2 unknown there,
 * priced NaN), with the arithmetic in each test's comment. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "analysis/analysis.h"
#include "decide/decide.h"
#include "decide/internal.h"

#define T0 1795168800.0
enum { GP3, IO2, GP2 }; /* the candidates' order */

static struct demand_trace trace(size_t n, double dt)
{
	struct demand_trace tr = { .volume = "vol-0aaaaaaaaaaaaaaaa", .interval_s = dt, .n = n };
	tr.p = calloc(n, sizeof(*tr.p));
	for (size_t i = 0; tr.p && i < n; i++)
		tr.p[i].t = T0 + dt * (double)i;
	return tr;
}

static void ask(struct demand_trace *tr, size_t i, double iops, double io_bytes)
{
	tr->p[i].read_ops = iops * tr->interval_s;
	tr->p[i].read_bytes = iops * io_bytes * tr->interval_s;
}

/* The batch of test_demand_sim.c: 10 quiet minutes, then 3,000 IOPS of
 * 16 KiB for 60.  The current gp2 100 GiB runs dry at 2,600 s and
 * throttles 1,600 s ($11.40).  gp3 covers the peak with its included
 * 3,000 IOPS and 125 MiB/s (3,000 x 16 KiB = 47 MiB/s): 100 GiB x
 * $0.0912 = $9.12, the choice.  gp2 never throttles once its baseline
 * 3 x S drains the 5.4 M bucket no faster than in the hour:
 * (3,000 - 3S) x 3,600 <= 5.4 M, S >= 500 GiB ($57). */
static void test_batch(struct checks *checks)
{
	struct demand_trace tr = trace(70, 60);
	struct ebs_prices prices = ebs_prices_default();
	struct ebs_volume gp2;
	struct demand_answer *a = calloc(1, sizeof(*a));
	char err[128];

	if (!CHECK(tr.p && a)) {
		free(a);
		free(tr.p);
		return;
	}
	for (size_t i = 0; i < tr.n; i++)
		ask(&tr, i, i < 10 ? 10 : 3000, 16384);
	ebs_volume_init(&gp2, EBS_GP2, 100);
	struct demand_recommend_opts o = { .current = &gp2 };
	CHECK(demand_recommend(&tr, &o, &prices, a, err, sizeof(err)) == 0);
	CHECK(a->has_current);
	CHECK_NEAR(a->current.dry_at - T0, 2600, 60);
	CHECK_NEAR(a->current.throttled_s, 1600, 1e-6);
	CHECK_NEAR(a->rec.current_usd, 11.40, 1e-9);
	CHECK_NEAR(a->rec.need.iops, 3000, 0);
	const struct recommend_candidate *gp3 = &a->rec.cand[GP3], *g2 = &a->rec.cand[GP2];
	CHECK(gp3->feasible && gp3->chosen);
	CHECK_EQ_U64(a->rec.choice, GP3);
	CHECK_NEAR(gp3->volume.iops, 3000, 0);
	CHECK_NEAR(gp3->volume.throughput_mibs, 125, 0);
	CHECK_NEAR(gp3->volume.size_gib, 100, 0);
	CHECK_NEAR(gp3->monthly_usd, 9.12, 1e-9);
	CHECK_NEAR(a->sim[GP3].throttled_s, 0, 0);
	CHECK(g2->feasible);
	CHECK_NEAR(g2->volume.size_gib, 500, 0);
	CHECK_NEAR(g2->monthly_usd, 57, 1e-9);
	CHECK_NEAR(a->sim[GP2].throttled_s, 0, 0);
	/* Seoul prices io2 too: dearer than the gp3 for the same need. */
	CHECK(a->rec.cand[IO2].monthly_usd > gp3->monthly_usd);
	CHECK(strstr(a->rec.summary, "gp3 100 GiB at 3000 IOPS and 125 MiB/s for $9.12") != NULL);
	/* With 40 % of the time allowed, gp2 100 GiB (38 %) is enough. */
	o.budget = 0.40;
	CHECK(demand_recommend(&tr, &o, &prices, a, err, sizeof(err)) == 0);
	CHECK_NEAR(a->rec.cand[GP2].volume.size_gib, 100, 0);
	CHECK_NEAR(a->sim[GP2].share, 1600 / 4200.0, 1e-9);
	free(a);
	free(tr.p);
}

/* 400 MiB/s of 1 MiB reads: 1,600 units a second fit gp3's included
 * 3,000 IOPS, the throughput does not: gp3 provisions 400 MiB/s
 * (0.25 MiB/s per IOPS allows 750 at 3,000): 500 x $0.0912 +
 * 275 x $0.0456 = $58.14. */
static void test_throughput_bound(struct checks *checks)
{
	struct demand_trace tr = trace(30, 60);
	struct ebs_prices prices = ebs_prices_default();
	struct ebs_volume cur = {
		.type = EBS_GP3, .size_gib = 500, .iops = 3000, .throughput_mibs = 125
	};
	struct demand_answer *a = calloc(1, sizeof(*a));
	struct demand_recommend_opts o = { .current = &cur };
	char err[128];

	if (!CHECK(tr.p && a)) {
		free(a);
		free(tr.p);
		return;
	}
	for (size_t i = 0; i < tr.n; i++)
		ask(&tr, i, 400, MIB);
	CHECK(demand_recommend(&tr, &o, &prices, a, err, sizeof(err)) == 0);
	CHECK(a->current.bound == EBS_BOUND_VOLUME_THROUGHPUT);
	CHECK_NEAR(a->current.share, 1, 1e-12);
	const struct recommend_candidate *gp3 = &a->rec.cand[GP3];
	CHECK_NEAR(gp3->volume.iops, 3000, 0);
	CHECK_NEAR(gp3->volume.throughput_mibs, 400, 0);
	CHECK_NEAR(gp3->monthly_usd, 500 * 0.0912 + 275 * 0.0456, 1e-9);
	CHECK_NEAR(a->sim[GP3].throttled_s, 0, 0);
	free(a);
	free(tr.p);
}

CHECK_MAIN(test_batch, test_throughput_bound)
