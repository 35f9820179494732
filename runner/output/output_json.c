/* output_json.c - fio 3.33's JSON and JSON+ documents for one job.
 *
 * Key names and order follow fio's stat.c so that what was written against
 * fio (jq filters, fio_jsonplus_clat2csv, dashboards) reads ours unchanged.
 * Reals print with 15 significant digits instead of fio's "%f"; no parser
 * can tell, and "%f" would lose the small percentages entirely. */
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "output/output.h"
#include "output/internal.h"
#include "output/output_json.h"
#include "output/output_common.h"

#include "lib/lib.h"

/* jansson refuses NaN and infinities; a missing key would break consumers
 * worse than a zero does. */
static void set_real(json_t *obj, const char *key, double v)
{
	json_object_set_new(obj, key, json_real(isfinite(v) ? v : 0.0));
}

static void set_int(json_t *obj, const char *key, uint64_t v)
{
	json_object_set_new(obj, key, json_integer(v > INT64_MAX ? INT64_MAX : (json_int_t)v));
}

static void set_str(json_t *obj, const char *key, const char *v)
{
	json_object_set_new(obj, key, json_string(v));
}

static json_t *lat_json(const struct running_stat *st)
{
	json_t *lat = json_object();

	set_int(lat, "min", st->n ? st->min : 0);
	set_int(lat, "max", st->n ? st->max : 0);
	set_real(lat, "mean", st->n ? st->mean : 0.0);
	set_real(lat, "stddev", stats_running_stddev(st));
	set_int(lat, "N", st->n);
	return lat;
}

static void add_percentiles(json_t *clat, const struct job_options *o, const struct histogram *h)
{
	json_t *pct = json_object();
	char key[32];
	unsigned i;

	for (i = 0; i < o->percentile_count && i < OPTIONS_MAX_PERCENTILES; i++) {
		snprintf(key, sizeof(key), "%f", o->percentiles[i]);
		set_int(pct, key, histogram_percentile(h, o->percentiles[i]));
	}
	json_object_set_new(clat, "percentile", pct);
}

/* json+: every non-empty bucket, keyed by its midpoint, ascending.  Our
 * buckets past fio's last (about 17 s) are folded into fio's last bin here,
 * since fio's own consumers walk only fio's range; max and the percentiles
 * still carry the real values. */
static void add_bins(json_t *clat, const struct histogram *h)
{
	const unsigned last = HISTOGRAM_FIO_GROUPS * HISTOGRAM_PER_GROUP - 1;
	json_t *bins = json_object();
	char key[32];
	uint64_t beyond = 0;

	for (unsigned i = last + 1; i < HISTOGRAM_BUCKETS; i++)
		beyond += h->count[i];
	for (unsigned i = 0; i <= last; i++) {
		uint64_t count = h->count[i] + (i == last ? beyond : 0);
		if (!count)
			continue;
		snprintf(key, sizeof(key), "%llu", (unsigned long long)histogram_bucket_value(i));
		set_int(bins, key, count);
	}
	json_object_set_new(clat, "bins", bins);
}

/* A latency block; with_percentiles (fio's slat/clat/lat_percentiles)
 * adds its histogram's percentiles and, for json+, its bins.  fio only
 * keeps percentiles and bins when there were samples;
 * fio_jsonplus_clat2csv indexes bins[0] of any "bins" it finds. */
static json_t *hist_lat_json(const struct job_options *o, const struct running_stat *st,
			     const struct histogram *h, bool with_percentiles, bool plus)
{
	json_t *lat = lat_json(st);

	if (st->n == 0 || !with_percentiles)
		return lat;
	if (o->percentile_count)
		add_percentiles(lat, o, h);
	if (plus)
		add_bins(lat, h);
	return lat;
}

/* fio's per-priority latencies, when at least two priorities had I/O:
 * lat_ns with lat_percentiles, else clat_ns, each with its percentiles. */
static void add_prios(json_t *dir, const struct job_options *o, const struct direction_stats *ds,
		      bool plus)
{
	unsigned used = 0;
	for (unsigned p = 0; p < STATS_PRIOS; p++)
		used += ds->prio[p].lat.n > 0;
	if (used < 2)
		return;
	json_t *prios = json_array();
	for (unsigned p = 0; p < STATS_PRIOS; p++) {
		const struct prio_stat *ps = &ds->prio[p];
		if (ps->lat.n == 0)
			continue;
		json_t *one = json_object();
		set_int(one, "prioclass", ps->ioprio >> 13);
		set_int(one, "prio", ps->ioprio & 7);
		json_object_set_new(one, o->lat_percentiles ? "lat_ns" : "clat_ns",
				    hist_lat_json(o, &ps->lat, &ps->hist,
						  o->clat_percentiles || o->lat_percentiles, plus));
		json_array_append_new(prios, one);
	}
	json_object_set_new(dir, "prios", prios);
}

/* Window samples are whole KiB/s and IOPS in fio, so min and max are
 * integers there; the mean and deviation stay real. */
static void add_samples(json_t *dir, const struct direction_stats *ds, uint64_t bw_bytes)
{
	const struct sample_stat *bw = &ds->bw_samples, *io = &ds->iops_samples;

	set_int(dir, "bw_min", bw->n ? (uint64_t)llround(bw->min) : 0);
	set_int(dir, "bw_max", bw->n ? (uint64_t)llround(bw->max) : 0);
	set_real(dir, "bw_agg", bw->n ? output_agg_percent(bw->mean, bw_bytes) : 0.0);
	set_real(dir, "bw_mean", bw->n ? bw->mean : 0.0);
	set_real(dir, "bw_dev", stats_sample_stddev(bw));
	set_int(dir, "bw_samples", bw->n);
	set_int(dir, "iops_min", io->n ? (uint64_t)llround(io->min) : 0);
	set_int(dir, "iops_max", io->n ? (uint64_t)llround(io->max) : 0);
	set_real(dir, "iops_mean", io->n ? io->mean : 0.0);
	set_real(dir, "iops_stddev", stats_sample_stddev(io));
	set_int(dir, "iops_samples", io->n);
}

/* fio only counts runtime for a direction that moved bytes, so a direction
 * the job never did reads all zeros. */
static json_t *direction_json(const struct job_options *o, const struct direction_stats *ds,
			      uint64_t runtime_ns, bool plus)
{
	json_t *dir = json_object();
	bool ran = ds->bytes > 0 && runtime_ns > 0;
	double ns = (double)runtime_ns;
	uint64_t bw_bytes = ran ? (uint64_t)((double)ds->bytes * 1e9 / ns) : 0;

	set_int(dir, "io_bytes", ds->bytes);
	set_int(dir, "io_kbytes", ds->bytes >> 10);
	set_int(dir, "bw_bytes", bw_bytes);
	set_int(dir, "bw", bw_bytes >> 10);
	set_real(dir, "iops", ran ? (double)ds->ios * 1e9 / ns : 0.0);
	set_int(dir, "runtime", ran ? output_runtime_ms(runtime_ns) : 0);
	set_int(dir, "total_ios", ds->ios);
	set_int(dir, "short_ios", ds->short_ios);
	set_int(dir, "drop_ios", 0);
	json_object_set_new(dir, "slat_ns",
			    hist_lat_json(o, &ds->slat, &ds->slat_hist, o->slat_percentiles, plus));
	json_object_set_new(dir, "clat_ns",
			    hist_lat_json(o, &ds->clat, &ds->clat_hist, o->clat_percentiles, plus));
	/* A rated job's lat_ns carries percentiles whatever lat_percentiles
	 * says: counted from the due time, they are what it measures. */
	json_object_set_new(dir, "lat_ns",
			    hist_lat_json(o, &ds->lat, &ds->lat_hist,
					  o->lat_percentiles || options_rated(o), plus));
	add_prios(dir, o, ds, plus);
	add_samples(dir, ds, bw_bytes);
	return dir;
}

/* fio's "sync" block: the syncs' count and their latency, with
 * percentiles (and json+ bins) under clat_percentiles or lat_percentiles,
 * as fio's add_ddir_status_json for DDIR_SYNC. */
static json_t *sync_json(const struct job_options *o, const struct sync_stats *ss, bool plus)
{
	json_t *sync = json_object();

	set_int(sync, "total_ios", ss->ios);
	json_object_set_new(sync, "lat_ns",
			    hist_lat_json(o, &ss->lat, &ss->hist,
					  o->clat_percentiles || o->lat_percentiles, plus));
	return sync;
}

static json_t *options_json(const struct job_options *o)
{
	json_t *opts = json_object();
	unsigned i;

	/* As fio: bare flags and the command-line-only options (output,
	 * max-jobs, idle-prof) are not job options. */
	for (i = 0; i < o->given_count && i < OPTIONS_MAX_GIVEN; i++) {
		const struct given_option *g = &o->given[i];
		if (g->value[0] && strcmp(g->name, "output-format") && strcmp(g->name, "output") &&
		    strcmp(g->name, "max-jobs") && strcmp(g->name, "idle-prof"))
			set_str(opts, g->name, g->value);
	}
	return opts;
}

static void add_levels(json_t *job, const char *key, const char *const *labels,
		       const uint64_t *counts, unsigned n, uint64_t total, double floor)
{
	json_t *levels = json_object();
	unsigned i;

	for (i = 0; i < n; i++)
		set_real(levels, labels[i], output_percent_of(counts[i], total, floor));
	json_object_set_new(job, key, levels);
}

/* Submit calls or reaps by how many I/Os each carried, in percent of all
 * of them, as fio's iodepth_submit and iodepth_complete. */
static void add_batches(json_t *job, const char *key, const uint64_t *calls)
{
	add_levels(job, key, stats_batch_label, calls, BATCH_LEVELS,
		   stats_counts_sum(calls, BATCH_LEVELS), 0.1);
}

static void add_depths_and_latencies(json_t *job, const struct job_stats *s)
{
	uint64_t ios = stats_data_ios(s);

	/* Our levels count submissions, so their sum is the honest total. */
	add_levels(job, "iodepth_level", stats_depth_level_label, s->depth_level, DEPTH_LEVELS,
		   stats_counts_sum(s->depth_level, DEPTH_LEVELS), 0.1);
	add_batches(job, "iodepth_submit", s->submit_batch);
	add_batches(job, "iodepth_complete", s->complete_batch);
	add_levels(job, "latency_ns", stats_latency_ns_label, s->latency_ns, LATENCY_NS_LEVELS, ios,
		   0.01);
	add_levels(job, "latency_us", stats_latency_us_label, s->latency_us, LATENCY_US_LEVELS, ios,
		   0.01);
	add_levels(job, "latency_ms", stats_latency_ms_label, s->latency_ms, LATENCY_MS_LEVELS, ios,
		   0.01);
}

/* A rated job's schedule, and what its latencies count from: where a
 * user reading the JSON sees that lat_ns is not fio's. */
static json_t *rate_json(const struct job_options *o)
{
	json_t *rate = json_object();

	set_int(rate, "read_iops", o->rate_iops[DDIR_READ]);
	set_int(rate, "write_iops", o->rate_iops[DDIR_WRITE]);
	set_str(rate, "process", options_rate_process_name(o->rate_process));
	set_str(rate, "latency_note",
		"lat_ns counts from each I/O's scheduled issue time, so a wait for a free slot "
		"(iodepth in flight) or for ebsbench itself is in lat_ns and slat_ns; clat_ns is "
		"the device's alone. fio counts lat from the actual submission, which hides that "
		"wait (coordinated omission)");
	return rate;
}

/* Not in fio: which engine really ran, and why if it was not the one asked
 * for; a rated job's schedule.  Extra keys are ignored by fio's consumers. */
static json_t *ebsbench_json(const struct job_options *o, const struct job_stats *s)
{
	json_t *extra = json_object();

	set_str(extra, "ioengine", s->engine_ran);
	if (s->engine_note[0])
		set_str(extra, "engine_note", s->engine_note);
	if (options_rated(o))
		json_object_set_new(extra, "rate", rate_json(o));
	return extra;
}

/* Read and write joined into one direction, for unified_rw_reporting. */
static json_t *mixed_json(const struct job_options *o, const struct job_stats *s, bool plus)
{
	struct direction_stats *mixed = output_mixed_direction(s);
	if (!mixed)
		return json_object();
	json_t *dir = direction_json(o, mixed, s->runtime_ns, plus);
	free(mixed);
	return dir;
}

/* fio's directions: read, write, trim and sync; with
 * unified_rw_reporting=mixed one "mixed" in place of the first three, with
 * "both" the three and then "mixed" after sync. */
static void add_directions(json_t *job, const struct job_options *o, const struct job_stats *s,
			   bool plus)
{
	if (o->unified_rw_reporting == UNIFIED_MIXED) {
		json_object_set_new(job, "mixed", mixed_json(o, s, plus));
	} else {
		json_object_set_new(job, "read",
				    direction_json(o, &s->dir[DDIR_READ], s->runtime_ns, plus));
		json_object_set_new(job, "write",
				    direction_json(o, &s->dir[DDIR_WRITE], s->runtime_ns, plus));
		json_object_set_new(job, "trim",
				    direction_json(o, &s->dir[DDIR_TRIM], s->runtime_ns, plus));
	}
	json_object_set_new(job, "sync", sync_json(o, &s->sync, plus));
	if (o->unified_rw_reporting == UNIFIED_BOTH)
		json_object_set_new(job, "mixed", mixed_json(o, s, plus));
}

/* fio's "steadystate" object: the criterion and limit as fio prints them
 * ("iops:10.000000%", its float's digits), ss_dur in seconds, whether it
 * was attained, the last judgement, and the window's samples (IOPS, and
 * bandwidth in bytes/s) with their integer means. */
static json_t *steadystate_json(const struct steadystate *ss)
{
	json_t *obj = json_object(), *data = json_object();
	json_t *iops = json_array(), *bw = json_array();
	const struct ss_options *o = &ss->opt;
	const char *pct = o->pct ? "%" : "";
	char text[64];

	if (o->snia) /* ebsbench's own: SNIA's fixed limits, no figure to print */
		snprintf(text, sizeof(text), "snia_%s", output_ss_metric(o));
	else
		snprintf(text, sizeof(text), "%s%s:%f%s", o->iops ? "iops" : "bw",
			 o->slope ? "_slope" : "", (double)(float)o->limit, pct);
	set_str(obj, "ss", text);
	set_int(obj, "duration", o->dur_ns / 1000000000u);
	set_int(obj, "attained", ss->attained);
	snprintf(text, sizeof(text), "%f%s", (double)(float)ss->last.criterion, pct);
	set_str(obj, "criterion", text);
	set_real(obj, "max_deviation", ss->last.deviation);
	set_real(obj, "slope", ss->last.slope);
	for (unsigned i = 0; i < ss->n; i++) {
		json_array_append_new(iops,
				      json_integer((json_int_t)steadystate_sample(ss, true, i)));
		json_array_append_new(bw,
				      json_integer((json_int_t)steadystate_sample(ss, false, i)));
	}
	set_int(data, "bw_mean", steadystate_mean(ss, false));
	set_int(data, "iops_mean", steadystate_mean(ss, true));
	json_object_set_new(data, "iops", iops);
	json_object_set_new(data, "bw", bw);
	if (o->snia) { /* the window SNIA's test judged, and what it found */
		json_t *judged = json_array();
		for (unsigned i = 0; i < ss->n; i++)
			json_array_append_new(judged,
					      json_integer((json_int_t)steadystate_judged(ss, i)));
		json_object_set_new(data, "judged", judged);
		set_real(obj, "range_pct", ss->last.range_pct);
		set_real(obj, "slope_pct", ss->last.slope_pct);
		set_real(obj, "floor", (double)o->floor_ns / 1e9);
	}
	json_object_set_new(obj, "data", data);
	return obj;
}

/* One element of "jobs", in group groupid; ss: its steady-state record or
 * NULL. */
static json_t *job_json(const struct job_options *o, const struct job_stats *s, unsigned groupid,
			const struct steadystate *ss, bool plus)
{
	json_t *job = json_object();
	uint64_t elapsed_ms = s->elapsed_ns / 1000000;

	set_str(job, "jobname", o->name);
	set_int(job, "groupid", groupid);
	json_object_set_new(job, "error", json_integer(s->error));
	set_int(job, "eta", 0);
	set_int(job, "elapsed", (elapsed_ms + 999) / 1000);
	json_t *opts = options_json(o);
	if (json_object_size(opts)) /* fio leaves out an empty list */
		json_object_set_new(job, "job options", opts);
	else
		json_decref(opts);
	add_directions(job, o, s, plus);
	set_int(job, "job_runtime", s->runtime_ns / 1000000);
	set_real(job, "usr_cpu", s->usr_cpu);
	set_real(job, "sys_cpu", s->sys_cpu);
	set_int(job, "ctx", s->ctx);
	set_int(job, "majf", s->majf);
	set_int(job, "minf", s->minf);
	add_depths_and_latencies(job, s);
	set_int(job, "latency_depth", o->iodepth);
	set_int(job, "latency_target", 0);
	set_real(job, "latency_percentile", 100.0);
	set_int(job, "latency_window", 0);
	if (ss && ss->n)
		json_object_set_new(job, "steadystate", steadystate_json(ss));
	json_object_set_new(job, "ebsbench", ebsbench_json(o, s));
	return job;
}

json_t *output_job_json(const struct job_options *o, const struct job_stats *s,
			const struct steadystate *ss, bool plus)
{
	return job_json(o, s, 0, ss, plus);
}

/* fio's "disk_util" array: one entry, or none without kernel statistics. */
static json_t *disk_util_json(const struct disk_util *d)
{
	json_t *list = json_array();
	json_t *disk;

	if (!d->valid)
		return list;
	disk = json_object();
	set_str(disk, "name", d->name);
	set_int(disk, "read_ios", d->read_ios);
	set_int(disk, "write_ios", d->write_ios);
	set_int(disk, "read_merges", d->read_merges);
	set_int(disk, "write_merges", d->write_merges);
	set_int(disk, "read_ticks", d->read_ticks);
	set_int(disk, "write_ticks", d->write_ticks);
	set_int(disk, "in_queue", d->in_queue);
	set_real(disk, "util", d->util);
	json_array_append_new(list, disk);
	return list;
}

/* fio's --idle-prof "cpu_idleness": system, then cpu-N with percpu, then
 * fio's calibration figures (unit_mean, unit_stddev: the work unit of its
 * idle loops, in us), zero here: idleness comes from the kernel's own
 * accounting (stats/cpu_idle.h), no loop is calibrated. */
static json_t *cpu_idleness_json(enum idle_prof prof, const struct cpu_idleness *idle)
{
	json_t *obj = json_object();
	char key[32];

	set_real(obj, "system", idle->system);
	for (unsigned i = 0; prof == IDLE_PROF_PERCPU && i < idle->ncpu; i++) {
		snprintf(key, sizeof(key), "cpu-%u", i);
		set_real(obj, key, idle->cpu[i]);
	}
	set_real(obj, "unit_mean", 0.0);
	set_real(obj, "unit_stddev", 0.0);
	return obj;
}

int output_json_run(FILE *out, const struct run_report *run, bool plus)
{
	json_t *root = json_object(), *jobs = json_array();
	char when[64];
	int rc;

	output_format_time(when, sizeof(when), run->start_unix_ms);
	set_str(root, "fio version", "ebsbench-" EBSBENCH_VERSION);
	set_int(root, "timestamp", (uint64_t)(run->start_unix_ms / 1000));
	set_int(root, "timestamp_ms", (uint64_t)run->start_unix_ms);
	set_str(root, "time", when);
	if (run->global && run->global->given_count)
		json_object_set_new(root, "global options", options_json(run->global));
	for (unsigned i = 0; i < run->n; i++) {
		const struct job_report *r = &run->r[i];
		json_array_append_new(jobs, job_json(r->o, r->s, r->groupid, r->ss, plus));
	}
	json_object_set_new(root, "jobs", jobs);
	json_object_set_new(root, "disk_util", disk_util_json(run->disk));
	if (run->idle_prof != IDLE_PROF_NONE && run->idle)
		json_object_set_new(root, "cpu_idleness",
				    cpu_idleness_json(run->idle_prof, run->idle));

	rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
	json_decref(root);
	if (rc || fputc('\n', out) == EOF || fflush(out) == EOF || ferror(out))
		return -1;
	return 0;
}

int output_json(FILE *out, const struct job_options *o, const struct job_stats *s, bool plus)
{
	struct run_report run;
	struct job_report one;

	output_run_of_job(&run, &one, o, s);
	return output_json_run(out, &run, plus);
}
