/* test_ebs_prices.c - the monthly cost of a volume from each region's
 * prices: the reference benchmark's Seoul figures (and Seoul's io1, io2,
 * st1 and sc1), us-east-1's, an unknown region's (unknown, never another
 * region's) and the config's overrides. */
#include <string.h>

#include "check.h"
#include "model/ebs_prices.h"

static struct ebs_volume volume(enum ebs_type type, double size_gib)
{
	struct ebs_volume v;
	ebs_volume_init(&v, type, size_gib);
	return v;
}

static void test_seoul_costs(struct checks *checks)
{
	struct ebs_prices prices = ebs_prices_default();
	struct ebs_volume v = volume(EBS_GP3, 100);

	CHECK_NEAR(ebs_monthly_cost(&v, &prices), 9.12, 1e-9);
	CHECK_NEAR(ebs_cost_per_3000_iops(&v, &prices), 9.12, 1e-9);
	v.iops = 6000;
	CHECK_NEAR(ebs_monthly_cost(&v, &prices), 26.22, 1e-9);
	v.iops = 3000;
	v.throughput_mibs = 250;
	CHECK_NEAR(ebs_monthly_cost(&v, &prices), 14.82, 1e-9);
	v = volume(EBS_GP2, 100);
	CHECK_NEAR(ebs_monthly_cost(&v, &prices), 11.40, 1e-9);
	CHECK_NEAR(ebs_cost_per_3000_iops(&v, &prices), 114.00, 1e-9);
	v = volume(EBS_GP2, 1000);
	CHECK_NEAR(ebs_monthly_cost(&v, &prices), 114.00, 1e-9);
	/* 12.5 times the gp3 price for the same 3,000 IOPS. */
	CHECK_NEAR(ebs_monthly_cost(&v, &prices) / 9.12, 12.5, 1e-9);
}

/* Seoul's io1, io2, st1 and sc1 (ebs_prices.c names their source): every
 * type the model knows has a default price, io2's two cheaper tiers too. */
static void test_seoul_other_types(struct checks *checks)
{
	struct ebs_prices prices = ebs_prices_default();
	struct ebs_volume v = volume(EBS_IO1, 100);

	v.iops = 3000;
	CHECK_NEAR(ebs_monthly_cost(&v, &prices), 100 * 0.1278 + 3000 * 0.0666, 1e-9);
	v = volume(EBS_IO2, 1000);
	v.iops = 70000;
	CHECK_NEAR(ebs_monthly_cost(&v, &prices),
		   1000 * 0.1278 + 32000 * 0.0666 + 32000 * 0.04662 + 6000 * 0.032634, 1e-9);
	v = volume(EBS_ST1, 500);
	CHECK_NEAR(ebs_monthly_cost(&v, &prices), 25.50, 1e-9);
	v = volume(EBS_SC1, 500);
	CHECK_NEAR(ebs_monthly_cost(&v, &prices), 8.70, 1e-9);
	for (int t = 0; t < EBS_TYPE_COUNT; t++)
		CHECK(prices.type[t].gib_month > 0);
	CHECK(strstr(prices.source, "io1/io2/st1/sc1") && !strstr(prices.source, "unknown"));
}

static void test_unknown_and_overridden_prices(struct checks *checks)
{
	struct ebs_prices prices;
	struct ebs_volume v = volume(EBS_IO2, 1000);

	CHECK(!ebs_prices_for_region("eu-west-1", &prices));
	prices.region = "eu-west-1";

	v.iops = 70000;
	CHECK(isnan(ebs_monthly_cost(&v, &prices)));
	CHECK(ebs_prices_set(&prices, "io2.gib_month", 0.125) == 0);
	CHECK(ebs_prices_set(&prices, "io2.iops_month", 0.065) == 0);
	/* Tiers not reached do not need a price. */
	v.iops = 30000;
	CHECK_NEAR(ebs_monthly_cost(&v, &prices), 125 + 30000 * 0.065, 1e-9);
	v.iops = 70000;
	CHECK(isnan(ebs_monthly_cost(&v, &prices)));
	CHECK(ebs_prices_set(&prices, "IO2.iops_month_over_32000", 0.0455) == 0);
	CHECK(ebs_prices_set(&prices, "io2.iops_month_over_64000", 0.03185) == 0);
	CHECK_NEAR(ebs_monthly_cost(&v, &prices),
		   125 + 32000 * 0.065 + 32000 * 0.0455 + 6000 * 0.03185, 1e-9);
	CHECK(ebs_prices_set(&prices, "gp3.iops_month", 0.006) == 0);
	CHECK_NEAR(prices.type[EBS_GP3].iops_month, 0.006, 0);
	CHECK(ebs_prices_set(&prices, "gp4.gib_month", 1) == -1);
	CHECK(ebs_prices_set(&prices, "gp3.bogus", 1) == -1);
	CHECK(ebs_prices_set(&prices, "gp3", 1) == -1);
	CHECK(ebs_prices_set(&prices, "verylongtype.gib_month", 1) == -1);
	CHECK(strcmp(prices.region, "eu-west-1") == 0);
}

/* us-east-1 as a second region; any other region: prices unknown. */
static void test_region_prices(struct checks *checks)
{
	struct ebs_prices prices;
	struct ebs_volume v = volume(EBS_GP3, 100);

	CHECK(ebs_prices_for_region("us-east-1", &prices));
	CHECK(strcmp(prices.region, "us-east-1") == 0);
	CHECK_NEAR(ebs_monthly_cost(&v, &prices), 8.00, 1e-9);
	v.iops = 6000;
	v.throughput_mibs = 250;
	CHECK_NEAR(ebs_monthly_cost(&v, &prices), 8 + 3000 * 0.005 + 125 * 0.04, 1e-9);
	v = volume(EBS_GP2, 100);
	CHECK_NEAR(ebs_monthly_cost(&v, &prices), 10.00, 1e-9);
	v = volume(EBS_IO1, 100);
	v.iops = 5000;
	CHECK_NEAR(ebs_monthly_cost(&v, &prices), 12.5 + 5000 * 0.065, 1e-9);
	v = volume(EBS_IO2, 1000);
	v.iops = 70000;
	CHECK_NEAR(ebs_monthly_cost(&v, &prices),
		   125 + 32000 * 0.065 + 32000 * 0.0455 + 6000 * 0.032, 1e-9);
	v = volume(EBS_ST1, 1000);
	CHECK_NEAR(ebs_monthly_cost(&v, &prices), 45, 1e-9);
	v = volume(EBS_SC1, 1000);
	CHECK_NEAR(ebs_monthly_cost(&v, &prices), 15, 1e-9);
	/* Seoul stays the default and is a region of its own. */
	CHECK(ebs_prices_for_region("ap-northeast-2", &prices));
	v = volume(EBS_GP3, 100);
	CHECK_NEAR(ebs_monthly_cost(&v, &prices), 9.12, 1e-9);
	/* Unknown: every cost unknown until set, gp3's free baseline kept. */
	CHECK(!ebs_prices_for_region("eu-west-1", &prices));
	CHECK(prices.region == NULL);
	CHECK(strstr(prices.source, "no built-in prices") != NULL);
	CHECK(isnan(ebs_monthly_cost(&v, &prices)));
	CHECK(ebs_prices_set(&prices, "gp3.gib_month", 0.088) == 0);
	CHECK_NEAR(ebs_monthly_cost(&v, &prices), 8.8, 1e-9);
	v.iops = 4000;
	CHECK(isnan(ebs_monthly_cost(&v, &prices)));
}

/* A run that recorded io2 as unknown gains the table's io2 price, and
 * only what it did not know: a recorded price is kept. */
static void test_fill_unknown(struct checks *checks)
{
	struct ebs_prices table = ebs_prices_default(), run = table;
	struct ebs_volume v = volume(EBS_IO2, 100);

	v.iops = 3000;
	run.type[EBS_IO2] = (struct ebs_type_prices){ NAN, NAN, NAN, 0, 0, { NAN, NAN } };
	run.type[EBS_GP3].gib_month = 0.5;
	CHECK(isnan(ebs_monthly_cost(&v, &run)));
	CHECK(ebs_prices_fill(&run, &table) == 1u << EBS_IO2);
	CHECK_NEAR(ebs_monthly_cost(&v, &run), 100 * 0.1278 + 3000 * 0.0666, 1e-9);
	CHECK_NEAR(run.type[EBS_GP3].gib_month, 0.5, 0);
	CHECK(ebs_prices_fill(&run, &table) == 0);
}

CHECK_MAIN(test_seoul_costs, test_seoul_other_types, test_unknown_and_overridden_prices,
	   test_region_prices, test_fill_unknown)
