/* test_recommend.c - the search of `ebsbench recommend` on seed 000's
 * numbers (tests/unit/fixtures/make_seed000_fixtures.py): the prices the
 * write-up's cost table gives, the sizes and IOPS each type needs, what a
 * type cannot do, and the p99 measured at a load (a loadcurve step, else a
 * saturating randread) or not; st1 and sc1 for sequential needs, sized
 * from their per-TiB baseline, refused for small random I/O. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "analysis/analysis.h"
#include "analysis/internal.h"
#include "decide/decide.h"
#include "decide/internal.h"
#include "decide/recommend_p99.h"
#include "results/results.h"

#define SEED "tests/unit/fixtures/results-seed000.json"
#define SEED_GP2_1000 "tests/unit/fixtures/results-seed000-gp2-1000.json"
#define SEED_LOADCURVE "tests/unit/fixtures/results-seed000-loadcurve.json"

enum { GP3, IO2, GP2, ST1, SC1 }; /* the candidates' order */

/* A fixture with its analysis built at the seed's Seoul prices. */
static json_t *load(const char *path)
{
	struct ebs_prices prices = ebs_prices_default();
	json_t *run = json_load_file(path, 0, NULL);
	if (run)
		analysis_build(run, &prices);
	else
		fprintf(stderr, "%s: cannot read (run from the repository root)\n", path);
	return run;
}

/* The device labelled label of run. */
static const json_t *device_of(const json_t *run, const char *label)
{
	const json_t *d;
	size_t i;
	json_array_foreach(json_object_get(run, "devices"), i, d)
	{
		if (!strcmp(json_string_value(json_object_get(d, "label")), label))
			return d;
	}
	return NULL;
}

/* The search for one device at Seoul prices; 0 when it ran. */
static int search(const json_t *run, const char *label, const struct recommend_ask *ask,
		  struct recommend_device *out)
{
	struct ebs_prices prices = ebs_prices_default();
	char err[128];
	return recommend_device(run, device_of(run, label), ask, &prices, out, err, sizeof(err));
}

/* Whether any reason of c contains text. */
static bool says(const struct recommend_candidate *c, const char *text)
{
	for (size_t i = 0; i < c->nreasons; i++)
		if (strstr(c->reasons[i], text))
			return true;
	return false;
}

/* No requirement: the gp2 "the same, sustained" is a gp3 at 3,000 IOPS and
 * 125 MiB/s for $9.12 against $11.40 (the seed's table), gp2 itself would
 * need 1,000 GiB ($114.00) to sustain its burst; the gp3 stays as it is. */
static void test_same_as_this_volume(struct checks *checks)
{
	json_t *run = load(SEED);
	struct recommend_ask none = { 0 };
	struct recommend_device d;

	CHECK(run && search(run, "gp2", &none, &d) == 0);
	CHECK(d.need.measured);
	CHECK_NEAR(d.delivered.burst_iops, 3001, 1);
	CHECK_NEAR(d.delivered.sustained_iops, 300, 1);
	CHECK_NEAR(d.delivered.seq_mibs, 130.3, 0.01);
	CHECK_NEAR(d.need.iops, 3000, 0);
	CHECK_NEAR(d.need.mibs, 128, 0);
	CHECK(d.choice == GP3 && d.cand[GP3].chosen);
	CHECK_NEAR(d.cand[GP3].volume.size_gib, 100, 0);
	CHECK_NEAR(d.cand[GP3].iops, 3000, 0);
	CHECK_NEAR(d.cand[GP3].mibs, 125, 0);
	CHECK_NEAR(d.cand[GP3].monthly_usd, 9.12, 1e-9);
	CHECK_NEAR(d.current_usd, 11.40, 1e-9);
	CHECK_NEAR(d.cand[GP3].delta_usd, -2.28, 1e-9);
	CHECK(says(&d.cand[GP3], "within 10 % of gp3's included 125 MiB/s"));
	CHECK(strstr(d.summary, "gp3 100 GiB at 3000 IOPS and 125 MiB/s for $9.12") &&
	      strstr(d.summary, "against $11.40") && strstr(d.summary, "$2.28 less"));
	CHECK_NEAR(d.cand[GP2].volume.size_gib, 1000, 0);
	CHECK_NEAR(d.cand[GP2].monthly_usd, 114.00, 1e-9);
	CHECK(says(&d.cand[GP2], "1000 GiB sustains 3000 IOPS and 250 MiB/s"));
	CHECK(says(&d.cand[GP2], "below 1000 GiB gp2 reaches it only on burst"));
	/* Seoul prices io2 too ($0.1278 a GiB, $0.0666 an IOPS): dearer. */
	CHECK(d.cand[IO2].feasible && !d.cand[IO2].chosen);
	CHECK_NEAR(d.cand[IO2].monthly_usd, 100 * 0.1278 + 3000 * 0.0666, 1e-9);
	CHECK(!says(&d.cand[IO2], "No io2 price"));
	/* The gp3's p99 at 3,000 IOPS: the gp3 device of the run has that
	 * configuration, and its randread reached 3,001. */
	CHECK(d.cand[GP3].p99.state == P99_MEASURED);
	CHECK_NEAR(d.cand[GP3].p99.ms, 12.9, 1e-9);
	CHECK(!strcmp(d.cand[GP3].p99.device, "gp3") &&
	      !strcmp(d.cand[GP3].p99.phase, "randread qd32"));
	CHECK(d.cand[GP2].p99.state == P99_NOT_MEASURED);

	CHECK(search(run, "gp3", &none, &d) == 0);
	CHECK(d.choice == GP3);
	CHECK_NEAR(d.cand[GP3].monthly_usd, 9.12, 1e-9);
	CHECK_NEAR(d.cand[GP3].delta_usd, 0, 1e-9);
	CHECK(strstr(d.summary, "(the same)"));
	json_decref(run);
}

/* The sequential phases' bandwidth of device set to mibs MiB/s. */
static void set_seq_mibs(json_t *run, const char *device, double mibs)
{
	json_t *p;
	size_t i;
	json_array_foreach(json_object_get(run, "phases"), i, p)
	{
		const char *rw = json_string_value(json_object_get(p, "rw"));
		if (strcmp(json_string_value(json_object_get(p, "device")), device) ||
		    strcmp(json_string_value(json_object_get(p, "phase")), "layout") == 0 ||
		    !(strcmp(rw, "read") == 0 || strcmp(rw, "write") == 0))
			continue;
		json_t *dir = json_object_get(json_object_get(p, "job"),
					      strcmp(rw, "read") ? "write" : "read");
		json_object_set_new(dir, "bw_bytes", json_real(mibs * 1048576));
	}
}

/* Above its rating a volume is in a start-up window (QEMU's first second
 * ran a 128 MiB/s gp2 at 146.8): the need is the rating.  Held well
 * below it (140 MiB/s, an instance's limit under a 250 MiB/s gp2), the need is
 * what it delivered. */
static void test_need_against_rating(struct checks *checks)
{
	json_t *run = load(SEED), *big = load(SEED_GP2_1000);
	struct recommend_ask none = { 0 };
	struct recommend_device d;

	set_seq_mibs(run, "gp2", 146.8);
	CHECK(run && search(run, "gp2", &none, &d) == 0);
	CHECK_NEAR(d.delivered.seq_mibs, 146.8, 1e-9);
	CHECK_NEAR(d.need.mibs, 128, 0);
	CHECK_NEAR(d.cand[GP3].monthly_usd, 9.12, 1e-9);
	set_seq_mibs(big, "gp2", 140);
	CHECK(big && search(big, "gp2", &none, &d) == 0);
	CHECK_NEAR(d.need.mibs, 140, 0);
	CHECK_NEAR(d.cand[GP3].mibs, 140, 0);
	json_decref(run);
	json_decref(big);
}

/* --iops 6000: $9.12 + 3,000 x $0.0057 = $26.22; gp2 needs 2,000 GiB. */
static void test_iops_6000(struct checks *checks)
{
	json_t *run = load(SEED);
	struct recommend_ask ask = { .iops = 6000 };
	struct recommend_device d;

	CHECK(run && search(run, "gp2", &ask, &d) == 0);
	CHECK(!d.need.measured);
	CHECK(d.choice == GP3);
	CHECK_NEAR(d.cand[GP3].iops, 6000, 0);
	CHECK_NEAR(d.cand[GP3].mibs, 125, 0);
	CHECK_NEAR(d.cand[GP3].monthly_usd, 26.22, 1e-9);
	CHECK_NEAR(d.cand[GP3].delta_usd, 26.22 - 11.40, 1e-9);
	CHECK_NEAR(d.cand[GP2].volume.size_gib, 2000, 0);
	CHECK_NEAR(d.cand[GP2].monthly_usd, 228.00, 1e-9);
	CHECK(says(&d.cand[GP2], "at that size gp2 does not reach it even on burst"));
	CHECK(d.cand[GP3].p99.state == P99_NOT_MEASURED);
	json_decref(run);
}

/* A gp2 of 1,000 GiB held for its 3,000 IOPS: gp3 at the 100 GiB asked
 * for, $9.12 against $114.00, and a word on the throughput it gives up. */
static void test_gp2_held_for_iops(struct checks *checks)
{
	json_t *run = load(SEED_GP2_1000);
	struct recommend_ask ask = { .iops = 3000, .gib = 100 };
	struct recommend_device d;

	CHECK(run && search(run, "gp2", &ask, &d) == 0);
	CHECK_NEAR(d.current_usd, 114.00, 1e-9);
	CHECK(d.choice == GP3);
	CHECK_NEAR(d.cand[GP3].volume.size_gib, 100, 0);
	CHECK_NEAR(d.cand[GP3].monthly_usd, 9.12, 1e-9);
	CHECK_NEAR(d.cand[GP3].delta_usd, 9.12 - 114.00, 1e-9);
	CHECK(says(&d.cand[GP3], "delivered 250 MiB/s sequential, more than the 125 MiB/s"));
	CHECK_NEAR(d.cand[GP2].volume.size_gib, 1000, 0);
	/* No requirement: it is its own sustained need, 3,000 IOPS and 250 MiB/s. */
	struct recommend_ask none = { .gib = 100 };
	CHECK(search(run, "gp2", &none, &d) == 0);
	CHECK_NEAR(d.need.iops, 3000, 0);
	CHECK_NEAR(d.need.mibs, 250, 0);
	CHECK_NEAR(d.cand[GP3].monthly_usd, 14.82, 1e-9);
	json_decref(run);
}

/* What a type cannot do, and the rules that raise IOPS or size. */
static void test_limits_and_ratios(struct checks *checks)
{
	json_t *run = load(SEED);
	struct recommend_device d;
	struct ebs_prices virginia, nowhere;

	struct recommend_ask big = { .iops = 100000 };
	CHECK(run && search(run, "gp3", &big, &d) == 0);
	CHECK(!d.cand[GP3].feasible && says(&d.cand[GP3], "at most 80000 IOPS"));
	CHECK(!d.cand[GP2].feasible && says(&d.cand[GP2], "at most 16000 IOPS"));
	CHECK(d.cand[IO2].feasible && d.cand[IO2].volume.size_gib == 100);
	/* Only io2 reaches it: at Seoul's prices, 100 GiB and its three tiers. */
	CHECK(d.choice == IO2);
	CHECK_NEAR(d.cand[IO2].monthly_usd,
		   12.78 + 32000 * 0.0666 + 32000 * 0.04662 + 36000 * 0.032634, 1e-6);
	/* In a region without prices no candidate has one. */
	char err[128];
	CHECK(!ebs_prices_for_region("eu-west-1", &nowhere));
	CHECK(recommend_device(run, device_of(run, "gp3"), &big, &nowhere, &d, err, sizeof(err)) ==
	      0);
	CHECK(d.choice == -1 && strstr(d.summary, "no candidate"));
	/* us-east-1 knows io2: $0.125 x 100 + the three IOPS tiers. */
	CHECK(ebs_prices_for_region("us-east-1", &virginia));
	CHECK(recommend_device(run, device_of(run, "gp3"), &big, &virginia, &d, err, sizeof(err)) ==
	      0);
	CHECK(d.choice == IO2);
	CHECK_NEAR(d.cand[IO2].monthly_usd, 12.5 + 32000 * 0.065 + 32000 * 0.0455 + 36000 * 0.032,
		   1e-6);

	struct recommend_ask fast = { .mibs = 1000 };
	CHECK(search(run, "gp3", &fast, &d) == 0);
	CHECK_NEAR(d.cand[GP3].iops, 4000, 0);
	CHECK(says(&d.cand[GP3], "IOPS raised to 4000"));
	CHECK_NEAR(d.cand[GP3].monthly_usd, 9.12 + 1000 * 0.0057 + 875 * 0.0456, 1e-9);

	struct recommend_ask dense = { .iops = 20000, .gib = 10 };
	CHECK(search(run, "gp3", &dense, &d) == 0);
	CHECK_NEAR(d.cand[GP3].volume.size_gib, 40, 0);
	CHECK_NEAR(d.cand[IO2].volume.size_gib, 20, 0);

	/* gp2's throughput tier: 128 MiB/s to 170 GiB, and 0.75 MiB/s per GiB
	 * of baseline: 200 MiB/s sustained needs 267 GiB. */
	struct recommend_ask tier = { .iops = 100, .mibs = 200 };
	CHECK(search(run, "gp3", &tier, &d) == 0);
	CHECK_NEAR(d.cand[GP2].volume.size_gib, 267, 0);
	CHECK_NEAR(d.cand[GP2].mibs, 267 * 3 * 0.25, 1e-9);
	CHECK(says(&d.cand[GP2], "267 GiB sustains 801 IOPS and 200 MiB/s"));
	json_decref(run);
}

/* p99: the lowest loadcurve step whose offered load covers the need, else
 * a saturating randread that reached it, else not measured; a measured
 * p99 above the one asked rules the candidate out. */
static void test_p99_at_load(struct checks *checks)
{
	json_t *curve = load(SEED_LOADCURVE), *plain = load(SEED);
	struct recommend_device d;

	struct recommend_p99 p = recommend_p99_at(curve, "gp3", 1500);
	CHECK(p.state == P99_MEASURED && !strcmp(p.phase, "loadcurve 50 %"));
	CHECK_NEAR(p.at_iops, 1500, 0);
	CHECK_NEAR(p.ms, 0.872 + 0.01 * (12.9 - 0.872), 1e-9);
	p = recommend_p99_at(curve, "gp3", 1501);
	CHECK(p.state == P99_MEASURED && !strcmp(p.phase, "loadcurve 75 %"));
	p = recommend_p99_at(plain, "gp3", 1500);
	CHECK(p.state == P99_MEASURED && !strcmp(p.phase, "randread qd32"));
	CHECK_NEAR(p.ms, 12.9, 1e-9);
	CHECK_NEAR(p.at_iops, 3001, 0);
	p = recommend_p99_at(plain, "gp3", 3002);
	CHECK(p.state == P99_NOT_MEASURED && isnan(p.ms));
	/* The qd1 phase is latency bound, not saturating: not a load point. */
	p = recommend_p99_at(plain, "gp2", 400);
	CHECK(p.state == P99_MEASURED && !strcmp(p.phase, "randread qd32"));

	struct recommend_ask meets = { .iops = 1500, .p99_ms = 2 };
	CHECK(curve && search(curve, "gp2", &meets, &d) == 0);
	CHECK(d.choice == GP3 && d.cand[GP3].p99.meets);
	struct recommend_ask misses = { .iops = 2800, .p99_ms = 2 };
	CHECK(search(curve, "gp2", &misses, &d) == 0);
	CHECK(d.cand[GP3].p99.state == P99_MEASURED && !d.cand[GP3].p99.meets);
	CHECK(says(&d.cand[GP3], "above the 2.00 ms asked"));
	/* The curve met 2 ms up to 75 % (1.35 ms): 2,800 / 0.75 = 3,734 IOPS. */
	CHECK(says(&d.cand[GP3], "At 75 % of its rate (2250 IOPS offered) it measured 1.35 ms: "
				 "3734 IOPS would hold the need at that share (not measured)."));
	CHECK(d.choice == GP2 && d.cand[GP2].p99.state == P99_NOT_MEASURED);
	CHECK(strstr(d.summary, "; its p99 at this load is not measured.") != NULL);
	CHECK_NEAR(d.cand[GP2].volume.size_gib, 934, 0);
	/* Without a curve the gp3's p99 is its saturated randread's, 12.9 ms at
	 * 3,001 IOPS: above 2 ms, but at twice the need's load, so it rules
	 * nothing out and the gp3 stays the choice, its p99 not known. */
	struct recommend_ask bound = { .iops = 1500, .p99_ms = 2 };
	CHECK(search(plain, "gp2", &bound, &d) == 0);
	CHECK(d.cand[GP3].p99.bound && !d.cand[GP3].p99.meets && d.choice == GP3);
	CHECK(says(&d.cand[GP3], "a higher load than the need's, so it rules nothing out."));
	CHECK(strstr(d.summary, "; its p99 at this load is not measured.") != NULL);
	json_decref(curve);
	json_decref(plain);
	/* A step that recorded its latency from the scheduled issue time is
	 * quoted by it, as the load-curve table quotes it: one p99 per load. */
	json_t *sched = load(SEED_LOADCURVE);
	const json_t *ph;
	size_t i;
	json_array_foreach(json_object_get(sched, "phases"), i, ph)
	{
		if (results_str_is(json_object_get(ph, "device"), "gp3") &&
		    results_num(RESULTS_GET(ph, "load", "percent")) == 50)
			json_object_set_new(
				json_object_get(RESULTS_GET(ph, "job", "read"), "lat_ns"),
				"percentile", json_pack("{s:f}", "99.000000", 3.69e6));
	}
	p = recommend_p99_at(sched, "gp3", 1500);
	CHECK_NEAR(p.ms, 3.69, 1e-9);
	json_t *findings = json_array(), *lc = loadcurve_analyse(sched, "gp3", 0, findings);
	CHECK_NEAR(results_num(json_object_get(json_array_get(json_object_get(lc, "steps"), 1),
					       "p99_ms")),
		   p.ms, 1e-9);
	json_decref(lc);
	json_decref(findings);
	json_decref(sched);
}

/* Instance store and other NVMe are outside the EBS model. */
static void test_not_ebs(struct checks *checks)
{
	json_t *run = load(SEED);
	struct recommend_device d;
	struct ebs_prices prices = ebs_prices_default();
	char err[128];
	json_t *dev = json_deep_copy(device_of(run, "gp3"));

	json_object_set_new(dev, "kind", json_string("instance-store"));
	CHECK(recommend_device(run, dev, &(struct recommend_ask){ 0 }, &prices, &d, err,
			       sizeof(err)) == -1);
	CHECK(strstr(err, "gp3: not an EBS volume") != NULL);
	CHECK_EQ_U64(recommend_all(run, &(struct recommend_ask){ 0 }, &prices, &d, 1), 1);
	json_decref(dev);
	json_decref(run);
}

/* The search at us-east-1's prices; 0 when it ran. */
static int search_virginia(const json_t *run, const struct recommend_ask *ask,
			   struct recommend_device *out)
{
	struct ebs_prices prices;
	char err[128];
	ebs_prices_for_region("us-east-1", &prices);
	return recommend_device(run, device_of(run, "gp2"), ask, &prices, out, err, sizeof(err));
}

/* 500 MiB/s of sequential 1 MiB I/O every second of the month: st1's
 * baseline is 40 MiB/s per TiB, so 12.5 TiB (12,800 GiB) sustains it,
 * $576.00 at $0.045; gp3 at the 8,000 GiB wanted costs $655.00, sc1
 * sustains at most 192.  At 16 TiB wanted st1 is that size. */
static void test_st1_for_sequential(struct checks *checks)
{
	json_t *run = load(SEED);
	struct recommend_device d;
	struct recommend_ask seq = { .mibs = 500, .gib = 8000 };

	CHECK(search_virginia(run, &seq, &d) == 0);
	CHECK(d.ncand == 5 && d.cand[ST1].type == EBS_ST1 && d.cand[SC1].type == EBS_SC1);
	CHECK(d.choice == ST1);
	CHECK_NEAR(d.cand[ST1].volume.size_gib, 12800, 0);
	CHECK_NEAR(d.cand[ST1].mibs, 500, 1e-9);
	CHECK_NEAR(d.cand[ST1].monthly_usd, 12800 * 0.045, 1e-9);
	CHECK_NEAR(d.cand[GP3].monthly_usd, 8000 * 0.08 + 375 * 0.04, 1e-9);
	CHECK(says(&d.cand[ST1], "40 MiB/s per TiB: 12800 GiB sustains 500 MiB/s"));
	CHECK(says(&d.cand[ST1], "below 12800 GiB st1 reaches it only on burst"));
	CHECK(!d.cand[SC1].feasible && says(&d.cand[SC1], "at most 192 MiB/s"));
	CHECK(strstr(d.summary, "st1 12800 GiB") && strstr(d.summary, "$576.00"));
	seq.gib = 16384;
	CHECK(search_virginia(run, &seq, &d) == 0);
	CHECK(d.choice == ST1);
	CHECK_NEAR(d.cand[ST1].monthly_usd, 16384 * 0.045, 1e-9);
	/* 150 MiB/s: sc1's 12 MiB/s per TiB needs 12,800 GiB; at 16 TiB it is
	 * the cheapest, $245.76 at $0.015. */
	seq.mibs = 150;
	CHECK(search_virginia(run, &seq, &d) == 0);
	CHECK(d.choice == SC1);
	CHECK_NEAR(d.cand[SC1].monthly_usd, 16384 * 0.015, 1e-9);
	/* At 1,000 GiB gp3 is cheaper than the 12,800 GiB st1 500 MiB/s needs. */
	seq = (struct recommend_ask){ .mibs = 500, .gib = 1000 };
	CHECK(search_virginia(run, &seq, &d) == 0);
	CHECK(d.choice == GP3);
	CHECK_NEAR(d.cand[ST1].volume.size_gib, 12800, 0);
	json_decref(run);
}

/* Small random I/O: never st1 or sc1, even where their throughput would
 * carry it (400 IOPS on a 16 TiB st1 is 400 of its 500 MiB/s), each with
 * the one sentence why. */
static void test_hdd_refused_for_small_io(struct checks *checks)
{
	json_t *run = load(SEED);
	struct recommend_device d;
	struct recommend_ask asks[] = {
		{ .iops = 3000, .mibs = 12, .gib = 16384 },
		{ .iops = 400, .gib = 16384 },
		{ .iops = 3000 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(asks); i++) {
		CHECK(search_virginia(run, &asks[i], &d) == 0);
		CHECK(d.choice == GP3);
		for (int k = ST1; k <= SC1; k++) {
			CHECK(!d.cand[k].feasible && d.cand[k].nreasons == 1);
			CHECK(says(&d.cand[k], "small random I/O"));
			CHECK(says(&d.cand[k], "up to 1 MiB costs 1 MiB"));
		}
	}
	/* The measured need (3,000 IOPS and 128 MiB/s) refuses them too. */
	struct recommend_ask none = { 0 };
	CHECK(search(run, "gp2", &none, &d) == 0);
	CHECK(d.choice == GP3 && !d.cand[ST1].feasible && !d.cand[SC1].feasible);
	json_decref(run);
}

CHECK_MAIN(test_same_as_this_volume, test_need_against_rating, test_iops_6000,
	   test_gp2_held_for_iops, test_limits_and_ratios, test_p99_at_load, test_not_ebs,
	   test_st1_for_sequential, test_hdd_refused_for_small_io)
