/* fleet.c - many runs' devices as one fleet (fleet.h): each volume's
 * figures read from its results.json (the analysis' cliff, the jobs'
 * throughput, its histograms merged over windows), the volumes grouped by
 * class, each class's distributions and merged percentiles, and the
 * outliers.  Reads only the documents it is given: no logs. */
#include "decide/fleet.h"
#include "decide/internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "results/results.h"
#include "stats/stats.h"

/* A histogram layout as results.json states it; false when it is not one
 * fio's bins at a coarseness of 0..6 give. */
static bool hist_layout(const json_t *hist, unsigned *bins, unsigned *coarseness)
{
	double b = results_num(json_object_get(hist, "bins"));
	double c = results_num(json_object_get(hist, "coarseness"));
	if (!(c >= 0 && c <= 6) || c != floor(c) ||
	    b != (double)((HISTOGRAM_FIO_GROUPS * HISTOGRAM_PER_GROUP) >> (unsigned)c))
		return false;
	*bins = (unsigned)b;
	*coarseness = (unsigned)c;
	return true;
}

/* Merges every window of the phase's clat_hist into h, in the fleet's
 * layout (the first one seen sets it).  0 (h left empty when the phase
 * has none, or another layout: counted in hist_skipped), -1 out of memory. */
static int load_hist(struct fleet *f, const json_t *phase, struct fleet_hist *h)
{
	const json_t *hist = json_object_get(phase, "clat_hist");
	const json_t *windows = json_object_get(hist, "windows");
	unsigned bins, coarseness;
	size_t w;
	const json_t *win;

	if (!json_array_size(windows) || !hist_layout(hist, &bins, &coarseness))
		return 0;
	if (!f->bins) {
		f->bins = bins;
		f->coarseness = coarseness;
	}
	if (bins != f->bins || coarseness != f->coarseness) {
		f->hist_skipped++;
		return 0;
	}
	if (!(h->counts = calloc(bins, sizeof(*h->counts))))
		return -1;
	json_array_foreach(windows, w, win)
	{
		int64_t n = results_hist_window(win, h->counts, bins);
		if (n < 0) { /* a damaged window: the histogram is not trusted */
			free(h->counts);
			*h = (struct fleet_hist){ NULL, 0 };
			f->hist_skipped++;
			return 0;
		}
		h->ios += (uint64_t)n;
	}
	return 0;
}

/* The phase's measured direction's throughput in MiB/s; NaN without one. */
static double phase_mibs(const json_t *run, const char *phase, const char *device)
{
	const json_t *dir = results_direction(results_phase(run, phase, device));
	return results_num(json_object_get(dir, "bw_bytes")) / (1024.0 * 1024.0);
}

/* The randread plateaus: burst, post-cliff and the cliff's time where the
 * analysis found a cliff, else the sustained rate (the analysis' level,
 * the first second left out; the series' mean without an analysis). */
static void iops_figures(const json_t *run, const char *device, double *value)
{
	const json_t *cliff = results_cliff_found(run, device);
	const json_t *any = json_object_get(results_analysis_device(run, device), "cliff");
	const json_t *rr = results_phase(run, "randread", device);

	if (cliff) {
		value[FLEET_BURST_IOPS] = results_num(RESULTS_GET(cliff, "before", "mean"));
		value[FLEET_POST_CLIFF_IOPS] = results_num(RESULTS_GET(cliff, "after", "mean"));
		value[FLEET_CLIFF_S] = results_num(json_object_get(cliff, "second"));
	} else if (rr) {
		double level = results_num(RESULTS_GET(any, "before", "mean"));
		value[FLEET_SUSTAINED_IOPS] =
			isfinite(level)
				? level
				: results_series_stats(json_object_get(rr, "iops_series")).mean;
	}
}

/* p50 and p99 of one volume's merged histogram, in ms. */
static void hist_figures(const struct fleet *f, const struct fleet_hist *h, double *p50,
			 double *p99)
{
	struct fleet_pct p;
	if (h->counts && fleet_hist_pct(h->counts, f->bins, f->coarseness, 50, &p))
		*p50 = p.ns / 1e6;
	if (h->counts && fleet_hist_pct(h->counts, f->bins, f->coarseness, 99, &p))
		*p99 = p.ns / 1e6;
}

/* Every figure of one device of one run; -1 out of memory. */
static int volume_read(struct fleet *f, struct fleet_volume *v, const json_t *run)
{
	for (int k = 0; k < FLEET_FIGURES; k++)
		v->value[k] = NAN;
	iops_figures(run, v->device, v->value);
	v->window_s = results_window_s(results_phase(run, "randread", v->device));
	v->value[FLEET_SEQREAD_MIBS] = phase_mibs(run, "seqread", v->device);
	v->value[FLEET_SEQWRITE_MIBS] = phase_mibs(run, "seqwrite", v->device);
	for (int p = 0; p < FLEET_HIST_PHASES; p++) {
		const char *name = fleet_hist_phase_name((enum fleet_hist_phase)p);
		if (load_hist(f, results_phase(run, name, v->device), &v->hist[p]))
			return -1;
	}
	hist_figures(f, &v->hist[FLEET_HIST_RANDREAD], &v->value[FLEET_RANDREAD_P50_MS],
		     &v->value[FLEET_RANDREAD_P99_MS]);
	hist_figures(f, &v->hist[FLEET_HIST_LAT], &v->value[FLEET_LAT_P50_MS],
		     &v->value[FLEET_LAT_P99_MS]);
	return 0;
}

/* A volume fact; NaN unless positive (gp2 records "iops": 0, its size sets it). */
static double positive(const json_t *value)
{
	double v = results_num(value);
	return v > 0 ? v : NAN;
}

/* Whether the type's performance is provisioned (gp3, io1, io2: IOPS and
 * throughput set it, whatever the size), not sized (gp2, st1, sc1: the
 * size sets the baseline and burst), so a class ignores what does not
 * matter: a 100 and a 200 GiB gp3 at 3,000 IOPS are alike. */
static bool provisioned(const char *type)
{
	return !strcmp(type, "gp3") || !strcmp(type, "io1") || !strcmp(type, "io2");
}

/* A device's class: its volume type (or kind) and the known facts that
 * set its performance: the size of a sized type, the IOPS and throughput
 * of a provisioned one; every fact of a device the model does not know. */
static void class_of(const json_t *device, struct fleet_group *g)
{
	const json_t *vol = json_object_get(device, "volume");
	const char *type = json_string_value(json_object_get(vol, "type"));
	const char *kind = json_string_value(json_object_get(device, "kind"));
	size_t len;

	snprintf(g->type, sizeof(g->type), "%s", type ? type : kind ? kind : "unknown");
	enum ebs_type known;
	bool sized = !provisioned(g->type), model = ebs_type_parse(g->type, &known) == 0;
	g->size_gib = sized || !model ? positive(json_object_get(vol, "size_gib")) : NAN;
	g->iops = !sized || !model ? positive(json_object_get(vol, "iops")) : NAN;
	g->throughput_mibs =
		!sized || !model ? positive(json_object_get(vol, "throughput_mibs")) : NAN;
	len = (size_t)snprintf(g->name, sizeof(g->name), "%s", g->type);
	if (isfinite(g->size_gib) && len < sizeof(g->name))
		len += (size_t)snprintf(g->name + len, sizeof(g->name) - len, " %g GiB",
					g->size_gib);
	if (isfinite(g->iops) && len < sizeof(g->name))
		len += (size_t)snprintf(g->name + len, sizeof(g->name) - len, " %g IOPS", g->iops);
	if (isfinite(g->throughput_mibs) && len < sizeof(g->name))
		snprintf(g->name + len, sizeof(g->name) - len, " %g MiB/s", g->throughput_mibs);
}

/* The group of the device's class, added when new (the groups array
 * has room for one per volume). */
static size_t group_of(struct fleet *f, const json_t *device)
{
	struct fleet_group g = { 0 };
	class_of(device, &g);
	for (size_t i = 0; i < f->ngroups; i++) {
		if (!strcmp(f->group[i].name, g.name))
			return i;
	}
	f->group[f->ngroups] = g;
	return f->ngroups++;
}

/* One volume per (run, device) column of results_columns_build, whose
 * device arrays stay referenced (the labels are theirs) until fleet_free;
 * -1 out of memory. */
static int add_volumes(struct fleet *f, json_t *const *runs, size_t nruns, const char *const *dirs)
{
	struct results_columns *c = &f->columns;
	if (results_columns_build(c, runs, nruns))
		return -1;
	f->volume = calloc(c->count ? c->count : 1, sizeof(*f->volume));
	f->group = calloc(c->count ? c->count : 1, sizeof(*f->group));
	f->outlier = calloc(c->count * FLEET_FIGURES + 1, sizeof(*f->outlier));
	if (!f->volume || !f->group || !f->outlier)
		return -1;
	for (size_t i = 0; i < c->count; i++) {
		struct fleet_volume *v = &f->volume[f->nvolumes++];
		v->run = c->col[i].run_index - 1;
		v->dir = dirs[v->run];
		v->device = results_label(c->col[i].device);
		v->group = group_of(f, c->col[i].device);
		if (volume_read(f, v, c->col[i].run))
			return -1;
	}
	return 0;
}

/* Adds h's counts into the group's merged histogram; -1 out of memory. */
static int merge_into(const struct fleet *f, struct fleet_hist *into, const struct fleet_hist *h)
{
	if (!h->counts)
		return 0;
	if (!into->counts && !(into->counts = calloc(f->bins, sizeof(*into->counts))))
		return -1;
	for (unsigned j = 0; j < f->bins; j++)
		into->counts[j] += h->counts[j];
	into->ios += h->ios;
	return 0;
}

/* The widest randread log window among group g's volumes; NaN if none. */
static double group_window_s(const struct fleet *f, size_t g)
{
	double w = NAN;
	for (size_t i = 0; i < f->nvolumes; i++) {
		if (f->volume[i].group == g && !(f->volume[i].window_s <= w))
			w = f->volume[i].window_s;
	}
	return w;
}

/* One group's distributions and merged percentiles; -1 out of memory. */
static int group_stats(struct fleet *f, size_t g, double *scratch)
{
	struct fleet_group *grp = &f->group[g];
	for (int k = 0; k < FLEET_FIGURES; k++) {
		size_t n = 0;
		for (size_t i = 0; i < f->nvolumes; i++) {
			if (f->volume[i].group == g)
				scratch[n++] = f->volume[i].value[k];
		}
		grp->volumes = n;
		fleet_dist_of(scratch, n, &grp->dist[k]);
		grp->dist[k].floor = fleet_figure_floor((enum fleet_figure)k, f->coarseness,
							grp->dist[k].median, group_window_s(f, g));
	}
	for (int p = 0; p < FLEET_HIST_PHASES; p++) {
		for (size_t i = 0; i < f->nvolumes; i++) {
			if (f->volume[i].group == g &&
			    merge_into(f, &grp->hist[p], &f->volume[i].hist[p]))
				return -1;
		}
		if (grp->hist[p].counts) {
			fleet_hist_pct(grp->hist[p].counts, f->bins, f->coarseness, 50,
				       &grp->p50[p]);
			fleet_hist_pct(grp->hist[p].counts, f->bins, f->coarseness, 99,
				       &grp->p99[p]);
		} else {
			grp->p50[p] = grp->p99[p] = (struct fleet_pct){ NAN, NAN, NAN };
		}
	}
	return 0;
}

/* Every volume's figures judged against its class. */
static void find_outliers(struct fleet *f)
{
	for (size_t i = 0; i < f->nvolumes; i++) {
		const struct fleet_volume *v = &f->volume[i];
		const struct fleet_group *g = &f->group[v->group];
		for (int k = 0; k < FLEET_FIGURES; k++) {
			if (fleet_is_outlier(&g->dist[k], v->value[k]))
				f->outlier[f->noutliers++] = (struct fleet_outlier){
					i, (enum fleet_figure)k, v->value[k], g->dist[k].median,
					fleet_mads(&g->dist[k], v->value[k])
				};
		}
	}
}

int fleet_build(struct fleet *f, json_t *const *runs, const char *const *dirs, size_t nruns,
		char *err, size_t errlen)
{
	double *scratch = NULL;
	int rc = 0;

	memset(f, 0, sizeof(*f));
	f->nruns = nruns;
	if (add_volumes(f, runs, nruns, dirs))
		rc = -1;
	if (!rc && !(scratch = malloc((f->nvolumes + 1) * sizeof(*scratch))))
		rc = -1;
	for (size_t g = 0; g < f->ngroups && !rc; g++)
		rc = group_stats(f, g, scratch);
	if (!rc)
		find_outliers(f);
	free(scratch);
	if (rc)
		snprintf(err, errlen, "out of memory for a fleet of %zu runs", nruns);
	return rc;
}

void fleet_free(struct fleet *f)
{
	for (size_t i = 0; f->volume && i < f->nvolumes; i++) {
		for (int p = 0; p < FLEET_HIST_PHASES; p++)
			free(f->volume[i].hist[p].counts);
	}
	for (size_t g = 0; f->group && g < f->ngroups; g++) {
		for (int p = 0; p < FLEET_HIST_PHASES; p++)
			free(f->group[g].hist[p].counts);
	}
	free(f->volume);
	free(f->group);
	free(f->outlier);
	results_columns_free(&f->columns);
	memset(f, 0, sizeof(*f));
}
