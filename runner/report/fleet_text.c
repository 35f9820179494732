/* fleet_text.c - the words and numbers fleet.md and the fleet's HTML
 * section both show (fleet.h), made once: a figure's value, a class's
 * distribution cells and merged percentiles, an outlier's sentence. */
#include "report/fleet.h"

#include <math.h>
#include <string.h>

#include "lib/lib.h"
#include "report/report_format.h"

const char *const fleet_dist_headings[FLEET_DIST_COLUMNS] = { "Figure", "Volumes", "Min", "p25",
							      "Median", "p75",	   "Max" };

const char *fleet_value_text(char *buf, size_t len, enum fleet_figure k, double value)
{
	const char *unit = fleet_figure_info(k)->unit;

	if (!isfinite(value))
		return report_missing(buf, len);
	if (!strcmp(unit, "ms"))
		return report_ms(buf, len, value * 1e6);
	if (!strcmp(unit, "IOPS")) {
		char num[REPORT_NUM_LEN];
		snprintf(buf, len, "%s IOPS", report_count(num, sizeof(num), value));
	} else {
		snprintf(buf, len, !strcmp(unit, "s") ? "%.2f %s" : "%.1f %s", value, unit);
	}
	return buf;
}

bool fleet_has_figure(const struct fleet *f, enum fleet_figure k)
{
	for (size_t g = 0; g < f->ngroups; g++) {
		if (f->group[g].dist[k].n)
			return true;
	}
	return false;
}

bool fleet_dist_cells(const struct fleet *f, size_t g, enum fleet_figure k,
		      char cells[FLEET_DIST_COLUMNS][FLEET_CELL_LEN])
{
	const struct fleet_dist *d = &f->group[g].dist[k];
	const double v[] = { d->min, d->q1, d->median, d->q3, d->max };

	if (!d->n)
		return false;
	snprintf(cells[0], sizeof(cells[0]), "%s", fleet_figure_info(k)->title);
	snprintf(cells[1], sizeof(cells[1]), "%zu", d->n);
	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		fleet_value_text(cells[2 + i], sizeof(cells[2 + i]), k, v[i]);
	return true;
}

const char *fleet_intro_text(char *buf, size_t len, const struct fleet *f)
{
	snprintf(
		buf, len,
		"%zu volumes from %zu results directories, in %zu class%s (volume type, and "
		"what sets its performance: the size of gp2, st1 and sc1, the provisioned IOPS and "
		"throughput of gp3, io1 and io2). A class's latency percentiles come from its "
		"volumes' histograms merged, every I/O counted once, never from averaged "
		"percentiles. An outlier is a volume whose figure lies %s.",
		f->nvolumes, f->nruns, f->ngroups, f->ngroups == 1 ? "" : "es", FLEET_OUTLIER_RULE);
	return buf;
}

bool fleet_merged_text(char *buf, size_t len, const struct fleet *f, size_t g,
		       enum fleet_hist_phase p)
{
	const struct fleet_group *grp = &f->group[g];
	char p50[REPORT_NUM_LEN], p99[REPORT_NUM_LEN], lo[REPORT_NUM_LEN], hi[REPORT_NUM_LEN];
	char ios[REPORT_NUM_LEN];

	if (!grp->hist[p].counts || !isfinite(grp->p99[p].ns))
		return false;
	snprintf(buf, len,
		 "%s, every I/O of the class merged: p50 %s, p99 %s (of %s I/Os; the p99 lies in "
		 "the bin %s to %s).",
		 fleet_hist_phase_name(p), report_ms(p50, sizeof(p50), grp->p50[p].ns),
		 report_ms(p99, sizeof(p99), grp->p99[p].ns),
		 report_count(ios, sizeof(ios), (double)grp->hist[p].ios),
		 report_ms(lo, sizeof(lo), grp->p99[p].bin_low_ns),
		 report_ms(hi, sizeof(hi), grp->p99[p].bin_high_ns));
	return true;
}

const char *fleet_volume_name(char *buf, size_t len, const struct fleet_volume *v)
{
	size_t n = strlen(v->dir);
	while (n > 1 && v->dir[n - 1] == '/')
		n--;
	size_t start = n;
	while (start > 0 && v->dir[start - 1] != '/')
		start--;
	snprintf(buf, len, "%.*s:%s", (int)(n - start), v->dir + start, v->device);
	return buf;
}

const char *fleet_outlier_text(char *buf, size_t len, const struct fleet *f,
			       const struct fleet_outlier *o)
{
	const struct fleet_volume *v = &f->volume[o->volume];
	char name[FLEET_TEXT_LEN], value[REPORT_NUM_LEN], median[REPORT_NUM_LEN];
	double pct = o->median ? 100 * (o->value - o->median) / fabs(o->median) : NAN;

	snprintf(buf, len,
		 "%s (%s, %s): %s %s against the class median %s (%+.1f %%, %.1f scaled "
		 "MADs %s).",
		 fleet_volume_name(name, sizeof(name), v), v->dir, f->group[v->group].name,
		 fleet_figure_info(o->figure)->title,
		 fleet_value_text(value, sizeof(value), o->figure, o->value),
		 fleet_value_text(median, sizeof(median), o->figure, o->median), pct, fabs(o->mads),
		 o->mads > 0 ? "above" : "below");
	return buf;
}
