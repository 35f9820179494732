/* output_normal.c - the human report, laid out like fio 3.33's normal output.
 *
 * Formats follow fio's stat.c line by line (show_ddir_status, display_lat,
 * show_clat_percentiles, show_lat, show_group_stats), so eyes and scripts
 * used to fio find everything where they expect it. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "output/output.h"
#include "output/internal.h"
#include "output/output_common.h"

#include "lib/lib.h"

/* fio's default sig_figs for sizes, rates and IOPS. */
#define SIG_FIGS 4
#define PERCENTILE_MAX_PRECISION 4

enum num_unit { UNIT_NONE, UNIT_BYTE, UNIT_BYTE_PER_SEC };

/* fio's num2str: divide by 1000 (or 1024) until at most maxlen digits
 * remain, then fill the room left with decimals of the remainder.  Odd
 * corners (a remainder of .96 with one decimal prints ".0") are fio's too,
 * and kept so that numbers match fio's character for character. */
static const char *num2str_at(char *buf, size_t len, uint64_t num, int maxlen, bool pow2,
			      enum num_unit unit, unsigned post)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const iec[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	static const char *const suffix[] = { "", "B", "B/s" };
	const unsigned thousand = pow2 ? 1024 : 1000;
	unsigned modulo = 0;
	bool divided = false, carry = false;
	char tmp[32];
	int digits, room;

	while (post < ARRAY_SIZE(si) - 1 &&
	       snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)num) > maxlen) {
		modulo = (unsigned)(num % thousand);
		num /= thousand;
		carry = modulo >= thousand / 2;
		divided = true;
		post++;
	}
	digits = snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)num);
	room = maxlen - digits - 1;
	if (divided && room >= 1) {
		snprintf(tmp, sizeof(tmp), "%.*f", room, (double)modulo / thousand);
		snprintf(buf, len, "%llu.%s%s%s", (unsigned long long)num, tmp + 2,
			 (pow2 ? iec : si)[post], suffix[unit]);
		return buf;
	}
	if (divided && carry)
		num++;
	snprintf(buf, len, "%llu%s%s", (unsigned long long)num, (pow2 ? iec : si)[post],
		 suffix[unit]);
	return buf;
}

static const char *num2str(char *buf, size_t len, uint64_t num, int maxlen, bool pow2,
			   enum num_unit unit)
{
	return num2str_at(buf, len, num, maxlen, pow2, unit, 0);
}

static uint64_t per_second(uint64_t count, uint64_t runtime_ns)
{
	return runtime_ns ? (uint64_t)((double)count * 1e9 / (double)runtime_ns) : 0;
}

/* What fio prints as a job starts (ours comes with the report): its line,
 * "..." once for its numjobs clones. */
static void print_banner(FILE *out, const struct job_report *r)
{
	const struct job_options *o = r->o;
	char bs[32];

	if (r->clone > 1)
		return;
	if (r->clone == 1) {
		fputs("...\n", out);
		return;
	}
	num2str(bs, sizeof(bs), o->bs, SIG_FIGS, true, UNIT_BYTE);
	fprintf(out,
		"%s: (g=%u): rw=%s, bs=(R) %s-%s, (W) %s-%s, (T) %s-%s, ioengine=%s, iodepth=%u\n",
		o->name, r->groupid, options_rw_name(o->rw), bs, bs, bs, bs, bs, bs,
		r->s->engine_ran, o->iodepth);
	if (r->s->engine_note[0])
		fprintf(out, "ebsbench: %s\n", r->s->engine_note);
	if (r->jobs > 1)
		fputs("...\n", out);
}

static void print_job_header(FILE *out, const struct job_report *r)
{
	const struct job_stats *s = r->s;
	char when[64];

	output_format_time(when, sizeof(when), s->start_unix_ms);
	fprintf(out, "%s: (groupid=%u, jobs=%u): err=%2d", r->o->name, r->groupid, r->jobs,
		s->error);
	if (s->error)
		fprintf(out, " (error=%s)", strerror(s->error));
	fprintf(out, ": pid=%d: %s\n", (int)getpid(), when);
}

/* fio's display_lat: msec or usec only when min, max and the spread are
 * all large enough to survive the division. */
static void print_lat(FILE *out, const char *name, const struct running_stat *st)
{
	double mean = st->mean, dev = stats_running_stddev(st), div = 1.0;
	uint64_t min = st->min, max = st->max;
	const char *unit = "nsec";
	char minp[32], maxp[32];

	if (st->n == 0)
		return;
	if (min > 2000000 && max > 99999999 && dev > 1000000.0) {
		div = 1e6;
		unit = "msec";
	} else if (min > 2000 && max > 99999 && dev > 1000.0) {
		div = 1e3;
		unit = "usec";
	}
	min = (uint64_t)(min / div);
	max = (uint64_t)(max / div);
	fprintf(out, "    %s (%s): min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n", name, unit,
		num2str(minp, sizeof(minp), min, 6, false, UNIT_NONE),
		num2str(maxp, sizeof(maxp), max, 6, false, UNIT_NONE), mean / div, dev / div);
}

/* Decimals the percentile list needs: fio shows 2 unless a value asks for
 * more (99.999). */
static int percentile_precision(const struct job_options *o)
{
	int precision = 2;
	unsigned i;

	for (i = 0; i < o->percentile_count; i++) {
		while (precision < PERCENTILE_MAX_PRECISION &&
		       fabs(o->percentiles[i] * pow(10, precision) -
			    round(o->percentiles[i] * pow(10, precision))) > 1e-6)
			precision++;
	}
	return precision;
}

/* fio's show_clat_percentiles: the unit comes from the smallest and the
 * largest percentile, values round up into it, and as many fit on an
 * 80-column line as the widest value allows.  what: "clat" or "lat". */
static void print_percentiles(FILE *out, const struct job_options *o, const struct histogram *h,
			      const char *what)
{
	uint64_t val[OPTIONS_MAX_PERCENTILES], minv = UINT64_MAX, maxv = 0, div = 1;
	unsigned i, n = o->percentile_count, scale = 0, k;
	int precision = percentile_precision(o), width, per_line;
	const char *unit = "nsec";

	if (n > OPTIONS_MAX_PERCENTILES)
		n = OPTIONS_MAX_PERCENTILES;
	if (n == 0 || h->total == 0)
		return;
	for (i = 0; i < n; i++) {
		val[i] = histogram_percentile(h, o->percentiles[i]);
		minv = val[i] < minv ? val[i] : minv;
		maxv = val[i] > maxv ? val[i] : maxv;
	}
	if (minv > 2000000 && maxv > 99999999) {
		scale = 2, div = 1000000, unit = "msec";
	} else if (minv > 2000 && maxv > 99999) {
		scale = 1, div = 1000, unit = "usec";
	}
	width = (int)log10((double)(maxv / div)) + 1;
	width = width < 5 ? 5 : width;
	per_line = (80 - 7) / (precision + 10 + width);
	per_line = per_line < 1 ? 1 : per_line;

	fprintf(out, "    %s percentiles (%s):\n     |", what, unit);
	for (i = 0; i < n; i++) {
		if (i != 0 && i % (unsigned)per_line == 0)
			fputs("     |", out);
		for (k = 0; k < scale; k++)
			val[i] = (val[i] + 999) / 1000;
		fprintf(out, " %*.*fth=[%*llu]%c", precision + 3, precision, o->percentiles[i],
			width, (unsigned long long)val[i], i == n - 1 ? '\n' : ',');
		if (i != n - 1 && i % (unsigned)per_line == (unsigned)per_line - 1)
			fputc('\n', out);
	}
}

/* fio's bw line; bandwidth switches to MiB/s past 1 GiB/s. */
static void print_bw(FILE *out, const struct sample_stat *bw, uint64_t bw_bytes)
{
	double div = 1.0;
	const char *unit = "KiB";

	if (bw->mean > 1024.0 * 1024.0) {
		div = 1024.0;
		unit = "MiB";
	}
	fprintf(out,
		"   bw (%5s/s): min=%5llu, max=%5llu, per=%3.2f%%, avg=%5.02f, stdev=%5.02f, "
		"samples=%llu\n",
		unit, (unsigned long long)llround(bw->min / div),
		(unsigned long long)llround(bw->max / div), output_agg_percent(bw->mean, bw_bytes),
		bw->mean / div, stats_sample_stddev(bw) / div, (unsigned long long)bw->n);
}

static void print_iops(FILE *out, const struct sample_stat *io)
{
	fprintf(out,
		"   iops        : min=%5llu, max=%5llu, avg=%5.02f, stdev=%5.02f, samples=%llu\n",
		(unsigned long long)llround(io->min), (unsigned long long)llround(io->max),
		io->mean, stats_sample_stddev(io), (unsigned long long)io->n);
}

static void print_direction(FILE *out, const struct job_options *o,
			    const struct direction_stats *ds, enum ddir d, uint64_t runtime_ns)
{
	uint64_t bw = per_second(ds->bytes, runtime_ns);
	char iops[32], bwp[32], bwalt[32], io[32];

	fprintf(out, "  %s: IOPS=%s, BW=%s (%s)(%s/%llumsec)%s\n",
		d == DDIR_READ	  ? "read"
		: d == DDIR_WRITE ? "write"
				  : "trim",
		num2str(iops, sizeof(iops), per_second(ds->ios, runtime_ns), SIG_FIGS, false,
			UNIT_NONE),
		num2str(bwp, sizeof(bwp), bw, SIG_FIGS, true, UNIT_BYTE_PER_SEC),
		num2str(bwalt, sizeof(bwalt), bw, SIG_FIGS, false, UNIT_BYTE_PER_SEC),
		num2str(io, sizeof(io), ds->bytes, SIG_FIGS, true, UNIT_BYTE),
		(unsigned long long)output_runtime_ms(runtime_ns),
		d == DDIR_WRITE ? "; 0 zone resets" : "");
	print_lat(out, "slat", &ds->slat);
	print_lat(out, "clat", &ds->clat);
	print_lat(out, " lat", &ds->lat);
	/* As fio: each latency's percentiles as its *_percentiles option says
	 * (a rated job's lat always, as fio's lat_percentiles=1). */
	if (ds->slat.n && o->slat_percentiles)
		print_percentiles(out, o, &ds->slat_hist, "slat");
	if (ds->clat.n && o->clat_percentiles)
		print_percentiles(out, o, &ds->clat_hist, "clat");
	if (ds->lat.n && (o->lat_percentiles || options_rated(o)))
		print_percentiles(out, o, &ds->lat_hist, " lat");
	if (ds->bw_samples.n)
		print_bw(out, &ds->bw_samples, bw);
	if (ds->iops_samples.n)
		print_iops(out, &ds->iops_samples);
}

/* fio's show_lat: non-empty buckets only, five to a line. */
static void print_lat_levels(FILE *out, const char *unit, const char *const *labels,
			     const uint64_t *counts, unsigned n, uint64_t total)
{
	unsigned i, on_line = 0;

	for (i = 0; i < n; i++) {
		if (!counts[i])
			continue;
		if (on_line == 5) {
			fputc('\n', out);
			on_line = 0;
		}
		if (on_line)
			fputs(", ", out);
		else
			fprintf(out, "  lat (%s)   : ", unit);
		fprintf(out, "%s=%3.2f%%", labels[i], output_percent_of(counts[i], total, 0.01));
		on_line++;
	}
	if (on_line)
		fputc('\n', out);
}

/* Submit calls or reaps by how many I/Os each carried, as fio prints them. */
static void print_batches(FILE *out, const char *name, const uint64_t *calls)
{
	uint64_t total = stats_counts_sum(calls, BATCH_LEVELS);
	fprintf(out, "     %-10s:", name);
	for (unsigned i = 0; i < BATCH_LEVELS; i++)
		fprintf(out, " %s=%3.1f%%%s", stats_batch_label[i],
			output_percent_of(calls[i], total, 0.1), i + 1 < BATCH_LEVELS ? "," : "\n");
}

static void print_job_totals(FILE *out, const struct job_options *o, const struct job_stats *s)
{
	const struct direction_stats *r = &s->dir[DDIR_READ], *w = &s->dir[DDIR_WRITE];
	const struct direction_stats *t = &s->dir[DDIR_TRIM];
	uint64_t ios = stats_data_ios(s), depths = stats_counts_sum(s->depth_level, DEPTH_LEVELS);
	unsigned i;

	print_lat_levels(out, "nsec", stats_latency_ns_label, s->latency_ns, LATENCY_NS_LEVELS,
			 ios);
	print_lat_levels(out, "usec", stats_latency_us_label, s->latency_us, LATENCY_US_LEVELS,
			 ios);
	print_lat_levels(out, "msec", stats_latency_ms_label, s->latency_ms, LATENCY_MS_LEVELS,
			 ios);
	fprintf(out, "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%llu, majf=%llu, minf=%llu\n",
		s->usr_cpu, s->sys_cpu, (unsigned long long)s->ctx, (unsigned long long)s->majf,
		(unsigned long long)s->minf);
	fputs("  IO depths    :", out);
	for (i = 0; i < DEPTH_LEVELS; i++)
		fprintf(out, " %s=%3.1f%%%s", stats_depth_level_label[i],
			output_percent_of(s->depth_level[i], depths, 0.1),
			i + 1 < DEPTH_LEVELS ? "," : "\n");
	print_batches(out, "submit", s->submit_batch);
	print_batches(out, "complete", s->complete_batch);
	fprintf(out,
		"     issued rwts: total=%llu,%llu,%llu,%llu short=%llu,%llu,%llu,0 "
		"dropped=0,0,0,0\n",
		(unsigned long long)r->ios, (unsigned long long)w->ios, (unsigned long long)t->ios,
		(unsigned long long)s->sync.ios, (unsigned long long)r->short_ios,
		(unsigned long long)w->short_ios, (unsigned long long)t->short_ios);
	fprintf(out, "     latency   : target=0, window=0, percentile=100.00%%, depth=%u\n",
		o->iodepth);
}

/* One direction's totals over a group: bytes, the longest and shortest
 * runtime, the lowest and highest job bandwidth. */
struct group_totals {
	uint64_t bytes, min_run_ns, max_run_ns, min_bw, max_bw;
};

static void group_totals(struct group_totals *g, const struct job_report *r, unsigned n, int d)
{
	memset(g, 0, sizeof(*g));
	for (unsigned i = 0; i < n; i++) {
		const struct job_stats *s = r[i].s;
		uint64_t bytes = s->dir[d].bytes, bw = per_second(bytes, s->runtime_ns);

		if (!bytes || !s->runtime_ns)
			continue;
		if (!g->bytes || s->runtime_ns < g->min_run_ns)
			g->min_run_ns = s->runtime_ns;
		if (!g->bytes || bw < g->min_bw)
			g->min_bw = bw;
		g->max_run_ns = s->runtime_ns > g->max_run_ns ? s->runtime_ns : g->max_run_ns;
		g->max_bw = bw > g->max_bw ? bw : g->max_bw;
		g->bytes += bytes;
	}
}

/* fio's show_group_stats: the group's bandwidth is its bytes over its
 * longest runtime, beside the slowest and fastest job's. */
static void print_group(FILE *out, const struct job_report *r, unsigned n)
{
	static const char *const label[DDIR_COUNT] = { "   READ", "  WRITE", "   TRIM" };
	char bw[32], bwalt[32], lo[32], loalt[32], hi[32], hialt[32], io[32], ioalt[32];
	struct group_totals g;

	fprintf(out, "\nRun status group %u (all jobs):\n", r[0].groupid);
	for (int d = 0; d < DDIR_COUNT; d++) {
		group_totals(&g, r, n, d);
		if (!g.bytes)
			continue;
		uint64_t rate = per_second(g.bytes, g.max_run_ns);
		num2str(bw, sizeof(bw), rate, SIG_FIGS, true, UNIT_BYTE_PER_SEC);
		num2str(bwalt, sizeof(bwalt), rate, SIG_FIGS, false, UNIT_BYTE_PER_SEC);
		num2str(lo, sizeof(lo), g.min_bw, SIG_FIGS, true, UNIT_BYTE_PER_SEC);
		num2str(loalt, sizeof(loalt), g.min_bw, SIG_FIGS, false, UNIT_BYTE_PER_SEC);
		num2str(hi, sizeof(hi), g.max_bw, SIG_FIGS, true, UNIT_BYTE_PER_SEC);
		num2str(hialt, sizeof(hialt), g.max_bw, SIG_FIGS, false, UNIT_BYTE_PER_SEC);
		num2str(io, sizeof(io), g.bytes, SIG_FIGS, true, UNIT_BYTE);
		num2str(ioalt, sizeof(ioalt), g.bytes, SIG_FIGS, false, UNIT_BYTE);
		fprintf(out, "%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%llu-%llumsec\n",
			label[d], bw, bwalt, lo, hi, loalt, hialt, io, ioalt,
			(unsigned long long)output_runtime_ms(g.min_run_ns),
			(unsigned long long)output_runtime_ms(g.max_run_ns));
	}
}

static void print_disk(FILE *out, const struct disk_util *d)
{
	if (!d->valid)
		return;
	fprintf(out,
		"\nDisk stats (read/write):\n  %s: ios=%llu/%llu, merge=%llu/%llu, "
		"ticks=%llu/%llu, in_queue=%llu, util=%3.2f%%\n",
		d->name, (unsigned long long)d->read_ios, (unsigned long long)d->write_ios,
		(unsigned long long)d->read_merges, (unsigned long long)d->write_merges,
		(unsigned long long)d->read_ticks, (unsigned long long)d->write_ticks,
		(unsigned long long)d->in_queue, d->util);
}

/* One job's (or group's) block of the report. */
/* fio's show_ss_normal: the steady-state window's means and the last
 * criterion.  As fio, the bandwidth is in KiB, printed once with binary
 * steps (KiB/s) and once with decimal steps from "k" (its kB/s). */
static void print_steadystate(FILE *out, const struct steadystate *ss)
{
	uint64_t kib = steadystate_mean(ss, false) / 1024;
	char bw[32], bwalt[32], iops[32];

	fprintf(out, "  steadystate  : attained=%s, bw=%s (%s), iops=%s, %s%s=%.3f%s\n",
		ss->attained ? "yes" : "no",
		num2str_at(bw, sizeof(bw), kib, SIG_FIGS, true, UNIT_BYTE_PER_SEC, 1),
		num2str_at(bwalt, sizeof(bwalt), kib, SIG_FIGS, false, UNIT_BYTE_PER_SEC, 1),
		num2str(iops, sizeof(iops), steadystate_mean(ss, true), SIG_FIGS, false, UNIT_NONE),
		ss->opt.snia   ? output_ss_metric(&ss->opt)
		: ss->opt.iops ? "iops"
			       : "bw",
		ss->opt.snia	? " snia"
		: ss->opt.slope ? " slope"
				: " mean dev",
		ss->last.criterion, ss->opt.pct ? "%" : "");
}

static void print_report(FILE *out, const struct job_report *r)
{
	const struct job_stats *s = r->s;

	print_job_header(out, r);
	/* fio shows a direction only once it has moved bytes. */
	for (int d = 0; d < DDIR_COUNT; d++)
		if (s->dir[d].bytes && s->runtime_ns)
			print_direction(out, r->o, &s->dir[d], (enum ddir)d, s->runtime_ns);
	/* fio's sync block, after the directions, when there were syncs. */
	if (s->sync.ios) {
		fputs("  fsync/fdatasync/sync_file_range:\n", out);
		print_lat(out, "sync", &s->sync.lat);
		print_percentiles(out, r->o, &s->sync.hist, "sync");
	}
	print_job_totals(out, r->o, s);
	if (r->ss && r->ss->n)
		print_steadystate(out, r->ss);
}

/* fio's show_idle_prof_stats: the run's idleness after the disk; the unit
 * of work is fio's calibrated loop's, 0 here (stats/cpu_idle.h). */
static void print_idleness(FILE *out, const struct run_report *run)
{
	const struct cpu_idleness *idle = run->idle;
	if (run->idle_prof == IDLE_PROF_NONE || !idle)
		return;
	fprintf(out, "\nCPU idleness:\n  system: %3.2f%%\n", idle->system);
	for (unsigned i = 0; run->idle_prof == IDLE_PROF_PERCPU && i < idle->ncpu; i++)
		fprintf(out, "%s%3.2f%%", i ? ", " : "  percpu: ", idle->cpu[i]);
	if (run->idle_prof == IDLE_PROF_PERCPU && idle->ncpu)
		fputc('\n', out);
	fprintf(out, "  unit work: mean=%3.2fus, stddev=%3.2f\n", 0.0, 0.0);
}

int output_normal_run(FILE *out, const struct run_report *run)
{
	const struct job_report *r = run->r;
	unsigned i, from, n = run->n, jobs = 0;

	for (i = 0; i < n; i++) {
		print_banner(out, &r[i]);
		jobs += r[i].jobs;
	}
	fprintf(out, "ebsbench-%s\nStarting %u process%s\n\n", EBSBENCH_VERSION, jobs,
		jobs == 1 ? "" : "es");
	for (i = 0; i < n; i++)
		print_report(out, &r[i]);
	for (from = 0; from < n; from = i) {
		for (i = from; i < n && r[i].groupid == r[from].groupid; i++)
			;
		print_group(out, &r[from], i - from);
	}
	print_disk(out, run->disk);
	print_idleness(out, run);
	if (fflush(out) == EOF || ferror(out))
		return -1;
	return 0;
}

int output_normal(FILE *out, const struct job_options *o, const struct job_stats *s)
{
	struct run_report run;
	struct job_report one;

	output_run_of_job(&run, &one, o, s);
	return output_normal_run(out, &run);
}
