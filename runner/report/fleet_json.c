/* fleet_json.c - fleet.json, the fleet report for machines:
 *
 * { "schema": 1, "runs": 52, "volumes": 52, "outlier_rule": "...",
 *   "histograms": { "bins": 116, "coarseness": 4, "skipped": 0 },
 *   "classes": [ { "class": "gp3 3000 IOPS 125 MiB/s", "type": "gp3",
 *                  "size_gib": null, "iops": 3000, "throughput_mibs": 125, "volumes": 30,
 *                  "figures": { "sustained_iops": { "n": 30, "min":, "q1":, "median":,
 *                                                   "q3":, "max":, "mad":,
 *                                                   "mad_floor": share of the median }, ... },
 *                  "merged": { "randread": { "ios": N, "p50_ms":, "p99_ms":,
 *                                            "p50_bin_ns": [lo, hi), "p99_bin_ns": [lo, hi) } },
 *                  "members": [ { "dir":, "device":, "burst_iops": .. | null, ... } ] } ],
 *   "outliers": [ { "dir":, "device":, "class":, "figure": "sustained_iops", "value":,
 *                   "median":, "percent_from_median":, "scaled_mads": } ] }
 *
 * Every figure is in its unit (fleet_figure_info); a figure not measured is null. */
#include "report/fleet.h"

#include <math.h>

/* A number, or null when it is not one. */
static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *dist_json(const struct fleet_dist *d)
{
	return json_pack("{sIsososososososo}", "n", (json_int_t)d->n, "min", num(d->min), "q1",
			 num(d->q1), "median", num(d->median), "q3", num(d->q3), "max", num(d->max),
			 "mad", num(d->mad), "mad_floor", num(d->floor));
}

static json_t *bin_json(const struct fleet_pct *p)
{
	return json_pack("[oo]", num(p->bin_low_ns), num(p->bin_high_ns));
}

/* The class's merged percentiles per histogram phase. */
static json_t *merged_json(const struct fleet_group *g)
{
	json_t *m = json_object();
	for (int p = 0; p < FLEET_HIST_PHASES; p++) {
		if (!g->hist[p].counts)
			continue;
		json_object_set_new(m, fleet_hist_phase_name((enum fleet_hist_phase)p),
				    json_pack("{sIsosososo}", "ios", (json_int_t)g->hist[p].ios,
					      "p50_ms", num(g->p50[p].ns / 1e6), "p99_ms",
					      num(g->p99[p].ns / 1e6), "p50_bin_ns",
					      bin_json(&g->p50[p]), "p99_bin_ns",
					      bin_json(&g->p99[p])));
	}
	return m;
}

/* One volume's figures, null where not measured. */
static json_t *member_json(const struct fleet_volume *v)
{
	json_t *m = json_pack("{ssss}", "dir", v->dir, "device", v->device);
	for (int k = 0; k < FLEET_FIGURES; k++)
		json_object_set_new(m, fleet_figure_info((enum fleet_figure)k)->key,
				    num(v->value[k]));
	return m;
}

static json_t *group_json(const struct fleet *f, size_t g)
{
	const struct fleet_group *grp = &f->group[g];
	json_t *figures = json_object(), *members = json_array();
	for (int k = 0; k < FLEET_FIGURES; k++) {
		if (grp->dist[k].n)
			json_object_set_new(figures, fleet_figure_info((enum fleet_figure)k)->key,
					    dist_json(&grp->dist[k]));
	}
	for (size_t i = 0; i < f->nvolumes; i++) {
		if (f->volume[i].group == g)
			json_array_append_new(members, member_json(&f->volume[i]));
	}
	return json_pack("{sssssosososIsososo}", "class", grp->name, "type", grp->type, "size_gib",
			 num(grp->size_gib), "iops", num(grp->iops), "throughput_mibs",
			 num(grp->throughput_mibs), "volumes", (json_int_t)grp->volumes, "figures",
			 figures, "merged", merged_json(grp), "members", members);
}

static json_t *outlier_json(const struct fleet *f, const struct fleet_outlier *o)
{
	const struct fleet_volume *v = &f->volume[o->volume];
	double pct = o->median ? 100 * (o->value - o->median) / fabs(o->median) : NAN;
	return json_pack("{sssssssssosososo}", "dir", v->dir, "device", v->device, "class",
			 f->group[v->group].name, "figure", fleet_figure_info(o->figure)->key,
			 "value", num(o->value), "median", num(o->median), "percent_from_median",
			 num(pct), "scaled_mads", num(o->mads));
}

json_t *fleet_json(const struct fleet *f)
{
	json_t *classes = json_array(), *outliers = json_array();
	for (size_t g = 0; g < f->ngroups; g++)
		json_array_append_new(classes, group_json(f, g));
	for (size_t i = 0; i < f->noutliers; i++)
		json_array_append_new(outliers, outlier_json(f, &f->outlier[i]));
	return json_pack("{sisIsIsss{sIsIsI}soso}", "schema", FLEET_JSON_SCHEMA, "runs",
			 (json_int_t)f->nruns, "volumes", (json_int_t)f->nvolumes, "outlier_rule",
			 FLEET_OUTLIER_RULE, "histograms", "bins", (json_int_t)f->bins,
			 "coarseness", (json_int_t)f->coarseness, "skipped",
			 (json_int_t)f->hist_skipped, "classes", classes, "outliers", outliers);
}

int fleet_json_write(FILE *out, const struct fleet *f)
{
	json_t *doc = fleet_json(f);
	int rc = doc ? json_dumpf(doc, out, JSON_INDENT(1) | JSON_REAL_PRECISION(10)) : -1;
	json_decref(doc);
	if (!rc)
		fputc('\n', out);
	return rc || ferror(out) ? -1 : 0;
}
