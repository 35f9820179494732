/* recommend_size.c - the smallest gp3, io2, gp2, st1 or sc1 that meets a need:
 * what to provision of each figure, the type's limits, and the sentence
 * that says why. */
#include "decide/recommend_size.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "lib/lib.h"

/* Appends one sentence to a candidate's reasons (the last ones are
 * dropped past RECOMMEND_REASONS, never cut mid-sentence). */
__attribute__((format(printf, 2, 3))) void recommend_reason(struct recommend_candidate *c,
							    const char *fmt, ...)
{
	va_list ap;

	if (c->nreasons >= RECOMMEND_REASONS)
		return;
	va_start(ap, fmt);
	vsnprintf(c->reasons[c->nreasons++], RECOMMEND_REASON_LEN, fmt, ap);
	va_end(ap);
}

/* What to provision of a figure the type includes up to `included`: the
 * included figure when it covers the need (or, for a measured need, comes
 * within VERDICT_TOLERANCE of it), else the need. */
static double provision(struct recommend_candidate *c, double need, double included, bool measured,
			const char *unit)
{
	if (need <= included)
		return included;
	if (measured && need <= included * (1 + VERDICT_TOLERANCE)) {
		recommend_reason(
			c,
			"The need of %.0f %s (this volume's, from its measurement) is within %.0f "
			"%% "
			"of gp3's included %.0f %s: a measurement cannot tell them apart.",
			need, unit, VERDICT_TOLERANCE * 100, included, unit);
		return included;
	}
	return ceil(need);
}

/* gp3: IOPS and MiB/s provisioned apart from size, the first 3,000 and
 * 125 included; at most 0.25 MiB/s per IOPS and 500 IOPS per GiB. */
static void search_gp3(const struct recommend_need *n, struct recommend_candidate *c)
{
	const struct ebs_type_rules *r = ebs_type_rules(EBS_GP3);
	double iops = provision(c, n->iops, r->iops_min, n->measured, "IOPS");
	double mibs = provision(c, n->mibs, r->mibs_min, n->measured, "MiB/s");
	double gib = fmax(n->gib, r->min_gib);

	if (mibs > r->mibs_per_iops * iops) {
		iops = ceil(mibs / r->mibs_per_iops);
		recommend_reason(
			c,
			"IOPS raised to %.0f: gp3 gives at most %.2f MiB/s per provisioned IOPS.",
			iops, r->mibs_per_iops);
	}
	if (iops > r->iops_per_gib_max * gib) {
		gib = ceil(iops / r->iops_per_gib_max);
		recommend_reason(c,
				 "Size raised to %.0f GiB: gp3 allows at most %.0f IOPS per GiB.",
				 gib, r->iops_per_gib_max);
	}
	c->feasible = iops <= r->iops_max && mibs <= r->max_mibs && gib <= r->max_gib;
	if (!c->feasible) {
		recommend_reason(c, "gp3 cannot: at most %.0f IOPS, %.0f MiB/s and %.0f GiB.",
				 r->iops_max, r->max_mibs, r->max_gib);
		return;
	}
	c->volume = (struct ebs_volume){
		.type = EBS_GP3, .size_gib = gib, .iops = iops, .throughput_mibs = mibs
	};
	if (iops == r->iops_min && mibs == r->mibs_min)
		recommend_reason(
			c,
			"%.0f IOPS and %.0f MiB/s are gp3's included baseline at any size: "
			"nothing to provision above it.",
			iops, mibs);
	else
		recommend_reason(
			c,
			"Provisions %.0f IOPS and %.0f MiB/s (%.0f and %.0f included) for a "
			"need of %.0f IOPS and %.0f MiB/s.",
			iops, mibs, r->iops_min, r->mibs_min, n->iops, n->mibs);
}

/* io2 (Block Express): every IOPS provisioned and billed, at most 1,000
 * per GiB; throughput follows at 0.25 MiB/s per IOPS. */
static void search_io2(const struct recommend_need *n, struct recommend_candidate *c)
{
	const struct ebs_type_rules *r = ebs_type_rules(EBS_IO2);
	double iops = fmax(r->iops_min, ceil(n->iops));
	double gib;

	if (n->mibs > iops * r->mibs_per_iops)
		iops = ceil(n->mibs / r->mibs_per_iops);
	gib = fmax(fmax(n->gib, r->min_gib), ceil(iops / r->iops_per_gib_max));
	c->feasible = iops <= r->iops_max && n->mibs <= r->max_mibs && gib <= r->max_gib;
	if (!c->feasible) {
		recommend_reason(c, "io2 cannot: at most %.0f IOPS, %.0f MiB/s and %.0f GiB.",
				 r->iops_max, r->max_mibs, r->max_gib);
		return;
	}
	c->volume = (struct ebs_volume){ .type = EBS_IO2, .size_gib = gib, .iops = iops };
	recommend_reason(
		c,
		"Provisions %.0f IOPS, every one billed; throughput follows at %.2f MiB/s per "
		"IOPS (%.0f MiB/s).",
		iops, r->mibs_per_iops, fmin(r->max_mibs, iops * r->mibs_per_iops));
	if (gib > n->gib)
		recommend_reason(c,
				 "Size raised to %.0f GiB: io2 allows at most %.0f IOPS per GiB.",
				 gib, r->iops_per_gib_max);
}

/* What a volume moves sustained at 1 MiB: its baseline in 256 KiB units,
 * under its throughput cap (gp2 100 GiB: 300 units, 75 MiB/s). */
double recommend_sustained_mibs(const struct ebs_volume *v)
{
	struct ebs_workload seq = { .io_size_bytes = MIB, .sequential = true };
	return ebs_predict(v, &seq).baseline.ops;
}

/* Whether a gp2, st1 or sc1 of gib meets the need: sustained (its
 * baseline: gp2's 3 IOPS per GiB, st1's 40 MiB/s per TiB, and what that
 * allows at 1 MiB), or, with on_burst, while its credits last.  Small I/O
 * costs st1 and sc1 a whole 1 MiB unit each (ebs_model.h). */
static bool size_meets(enum ebs_type type, double gib, const struct recommend_need *n,
		       bool on_burst)
{
	struct ebs_volume v;
	struct ebs_workload small = { .io_size_bytes = 4096, .credits_at_start = EBS_CREDITS_FULL };
	struct ebs_workload seq = { .io_size_bytes = MIB,
				    .sequential = true,
				    .credits_at_start = EBS_CREDITS_FULL };

	ebs_volume_init(&v, type, gib);
	struct ebs_prediction p = ebs_predict(&v, &small), s = ebs_predict(&v, &seq);
	return (on_burst ? p.burst : p.baseline).ops >= n->iops &&
	       (on_burst ? s.burst : s.baseline).ops >= n->mibs;
}

/* st1 and sc1 serve large sequential I/O: a need of more IOPS than MiB/s
 * is I/O under 1 MiB on average, which they refuse (one sentence). */
static bool hdd_refused(const struct recommend_need *n, struct recommend_candidate *c)
{
	char need[112];

	if (n->iops <= n->mibs)
		return false;
	if (n->mibs > 0)
		snprintf(need, sizeof(need),
			 "%.0f IOPS at %.0f MiB/s is I/O under 1 MiB, small random I/O", n->iops,
			 n->mibs);
	else
		snprintf(need, sizeof(need),
			 "%.0f IOPS without a MiB/s need is read as small random I/O", n->iops);
	recommend_reason(c,
			 "%s refused: %s, and every %s I/O up to 1 MiB costs 1 "
			 "MiB of its throughput credit; it is for sequential 1 MiB I/O (--mibs "
			 "alone).",
			 ebs_type_name(c->type), need, ebs_type_name(c->type));
	return true;
}

/* gp2, st1 and sc1: the smallest size, from the one asked, whose baseline
 * sustains the need (a burst ends when the credits do).  Baseline and
 * throughput grow with size, so a binary search finds it. */
static void search_sized(const struct recommend_need *n, struct recommend_candidate *c)
{
	const struct ebs_type_rules *r = ebs_type_rules(c->type);
	const char *name = r->name;
	bool hdd = r->unit_bytes >= MIB;
	double lo = fmax(ceil(n->gib), r->min_gib), hi = r->max_gib;

	if (hdd && hdd_refused(n, c))
		return;
	c->feasible = size_meets(c->type, hi, n, false);
	if (!c->feasible) {
		if (hdd)
			recommend_reason(
				c, "%s cannot: it sustains at most %.0f MiB/s, whatever the size.",
				name, r->baseline_max);
		else
			recommend_reason(
				c,
				"gp2 cannot: it sustains at most %.0f IOPS and %.0f MiB/s, "
				"whatever the size.",
				r->baseline_max, r->max_mibs);
		return;
	}
	while (lo < hi) {
		double mid = floor((lo + hi) / 2);
		if (size_meets(c->type, mid, n, false))
			hi = mid;
		else
			lo = mid + 1;
	}
	ebs_volume_init(&c->volume, c->type, lo);
	if (hdd)
		recommend_reason(
			c, "%s's baseline is %.0f MiB/s per TiB: %.0f GiB sustains %.0f MiB/s.",
			name, r->baseline_per_gib * KIB, lo, recommend_sustained_mibs(&c->volume));
	else
		recommend_reason(c,
				 "gp2's baseline is %.0f IOPS per GiB: %.0f GiB sustains %.0f IOPS "
				 "and %.0f MiB/s.",
				 r->baseline_per_gib, lo, ebs_volume_iops(&c->volume),
				 recommend_sustained_mibs(&c->volume));
	if (!(lo > fmax(ceil(n->gib), r->min_gib)))
		return;
	if (size_meets(c->type, fmax(ceil(n->gib), r->min_gib), n, true))
		recommend_reason(
			c,
			"Sized for the need, above the %.0f GiB wanted: below %.0f GiB %s reaches "
			"it only on burst, while its credits last.",
			n->gib, lo, name);
	else
		recommend_reason(
			c,
			"Sized for the need, above the %.0f GiB wanted: at that size %s does not "
			"reach it even on burst.",
			n->gib, name);
}

/* Whether two volumes perform alike: same type and, for gp2, size; for
 * the provisioned types, IOPS and throughput. */
bool recommend_same_config(const struct ebs_volume *a, const struct ebs_volume *b)
{
	if (a->type != b->type)
		return false;
	if (ebs_type_rules(a->type)->size_derived)
		return fabs(a->size_gib - b->size_gib) < 0.5;
	return fabs(ebs_volume_iops(a) - ebs_volume_iops(b)) < 0.5 &&
	       fabs(ebs_volume_mibs(a) - ebs_volume_mibs(b)) < 0.5;
}

/* Each candidate type's search, in one table. */
static const struct {
	enum ebs_type type;
	void (*search)(const struct recommend_need *n, struct recommend_candidate *c);
} searches[] = {
	{ EBS_GP3, search_gp3 },   { EBS_IO2, search_io2 },   { EBS_GP2, search_sized },
	{ EBS_ST1, search_sized }, { EBS_SC1, search_sized },
};

void recommend_size(const struct recommend_need *n, struct recommend_candidate *c)
{
	for (size_t i = 0; i < ARRAY_SIZE(searches); i++)
		if (searches[i].type == c->type)
			searches[i].search(n, c);
}
