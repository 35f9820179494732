/* ebs_prices.h - what a volume costs a month in a region: the dated price
 * tables in ebs_prices.c, a config's overrides, and the two costs the
 * reports compare volumes by. */
#ifndef EBSBENCH_EBS_PRICES_H
#define EBSBENCH_EBS_PRICES_H

#include "model/ebs_model.h"

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

/* One region's prices. */
struct ebs_prices {
	const char *region;
	const char *as_of;
	const char *source;
	struct ebs_type_prices type[EBS_TYPE_COUNT];
};

/* Seoul's (ap-northeast-2) prices, the default (ebs_prices.c names their sources). */
struct ebs_prices ebs_prices_default(void);
/* The built-in prices of a region ("us-east-1"), and true; for any other
 * region false, and out holds every price unknown (NaN: costs print as
 * unknown) with its source saying why, for a config's "prices" to fill
 * in.  A fallback, not an error: image/ami/launch.sh writes whatever
 * region the instance runs in, and a missing price table must not stop
 * a benchmark. */
bool ebs_prices_for_region(const char *region, struct ebs_prices *out);
/* Overrides one price: name is "TYPE.FIELD" with FIELD one of gib_month,
 * iops_month, mibs_month, iops_included, mibs_included,
 * iops_month_over_32000, iops_month_over_64000 ("gp3.iops_month").
 * Returns 0, or -1 for an unknown name. */
int ebs_prices_set(struct ebs_prices *p, const char *name, double value);
/* Fills every price p does not know (NaN) that `from` has; returns a bit
 * (1 << type) per type that gained one. */
unsigned ebs_prices_fill(struct ebs_prices *p, const struct ebs_prices *from);
double ebs_monthly_cost(const struct ebs_volume *v, const struct ebs_prices *p);
/* Monthly cost scaled to 3,000 sustained (baseline) IOPS: what the reference
 * benchmark compares gp2 and gp3 by. */
double ebs_cost_per_3000_iops(const struct ebs_volume *v, const struct ebs_prices *p);

#endif
