/* output_terse.c - fio 3.33's terse output, version 3: one line of
 * semicolon-separated fields per job, in the order of fio's
 * show_thread_status_terse_all, so scripts that index its fields (fio's
 * own t/latency_percentiles.py reads the percentiles at 17-33 and 58-74)
 * read ours unchanged. */
#include <stdio.h>
#include <stdlib.h>

#include "output/output.h"
#include "output/internal.h"
#include "output/output_common.h"

#include "lib/lib.h"

/* fio's terse lines always carry 20 percentile fields (FIO_IO_U_LIST_MAX_LEN). */
#define TERSE_PERCENTILES 20

/* min;max;mean;stddev of a latency in microseconds, zeros without samples. */
static void put_lat_us(FILE *out, const struct running_stat *st)
{
	if (!st->n) {
		fputs(";0;0;0.000000;0.000000", out);
		return;
	}
	fprintf(out, ";%llu;%llu;%f;%f", (unsigned long long)(st->min / 1000),
		(unsigned long long)(st->max / 1000), st->mean / 1000,
		stats_running_stddev(st) / 1000);
}

/* The percentile fields: lat's with lat_percentiles, else clat's with
 * clat_percentiles, else none; "0%=0" pads them to 20, as fio. */
static void put_percentiles(FILE *out, const struct job_options *o,
			    const struct direction_stats *ds)
{
	const struct histogram *h = o->lat_percentiles	  ? &ds->lat_hist
				    : o->clat_percentiles ? &ds->clat_hist
							  : NULL;
	unsigned len = h ? o->percentile_count : 0;
	for (unsigned i = 0; i < TERSE_PERCENTILES; i++) {
		if (i >= len) {
			fputs(";0%=0", out);
			continue;
		}
		uint64_t v = ds->ios ? histogram_percentile(h, o->percentiles[i]) : 0;
		fprintf(out, ";%f%%=%llu", o->percentiles[i], (unsigned long long)(v / 1000));
	}
}

/* One direction: KiB, KiB/s, IOPS, runtime (ms), slat, clat, percentiles,
 * lat and the bandwidth samples, as fio's show_ddir_status_terse. */
static void put_direction(FILE *out, const struct job_options *o, const struct direction_stats *ds,
			  uint64_t runtime_ns)
{
	uint64_t runtime_ms = ds->bytes ? output_runtime_ms(runtime_ns) : 0;
	uint64_t bw = runtime_ms ? ds->bytes * 1000 / runtime_ms / 1024 : 0;
	uint64_t iops = runtime_ms ? ds->ios * 1000 / runtime_ms : 0;
	const struct sample_stat *b = &ds->bw_samples;

	fprintf(out, ";%llu;%llu;%llu;%llu", (unsigned long long)(ds->bytes >> 10),
		(unsigned long long)bw, (unsigned long long)iops, (unsigned long long)runtime_ms);
	put_lat_us(out, &ds->slat);
	put_lat_us(out, &ds->clat);
	put_percentiles(out, o, ds);
	put_lat_us(out, &ds->lat);
	if (!b->n) {
		fputs(";0;0;0.000000%;0.000000;0.000000", out);
		return;
	}
	fprintf(out, ";%llu;%llu;%f%%;%f;%f", (unsigned long long)b->min,
		(unsigned long long)b->max, output_agg_percent(b->mean, bw * 1024), b->mean,
		stats_sample_stddev(b));
}

/* Read and write, or their "mixed" sum (trims too) in place of both (fio
 * puts "both"'s mixed after them); version 3 has no trim fields. */
static int put_directions(FILE *out, const struct job_options *o, const struct job_stats *s)
{
	if (o->unified_rw_reporting != UNIFIED_MIXED) {
		put_direction(out, o, &s->dir[DDIR_READ], s->runtime_ns);
		put_direction(out, o, &s->dir[DDIR_WRITE], s->runtime_ns);
	}
	if (o->unified_rw_reporting == UNIFIED_NONE)
		return 0;
	struct direction_stats *mixed = output_mixed_direction(s);
	if (!mixed)
		return -1;
	put_direction(out, o, mixed, s->runtime_ns);
	free(mixed);
	return 0;
}

/* CPU, then the depth, microsecond and millisecond distributions; fio
 * counts the sub-microsecond completions in the first microsecond field. */
static void put_distributions(FILE *out, const struct job_stats *s)
{
	uint64_t ios = stats_data_ios(s), depths = stats_counts_sum(s->depth_level, DEPTH_LEVELS);
	uint64_t nsec = 0;
	fprintf(out, ";%f%%;%f%%;%llu;%llu;%llu", s->usr_cpu, s->sys_cpu,
		(unsigned long long)s->ctx, (unsigned long long)s->majf,
		(unsigned long long)s->minf);
	for (unsigned i = 0; i < DEPTH_LEVELS; i++)
		fprintf(out, ";%3.1f%%", output_percent_of(s->depth_level[i], depths, 0.1));
	for (unsigned i = 0; i < LATENCY_NS_LEVELS; i++)
		nsec += s->latency_ns[i];
	for (unsigned i = 0; i < LATENCY_US_LEVELS; i++)
		fprintf(out, ";%3.2f%%",
			output_percent_of(s->latency_us[i] + (i ? 0 : nsec), ios, 0.01));
	for (unsigned i = 0; i < LATENCY_MS_LEVELS; i++)
		fprintf(out, ";%3.2f%%", output_percent_of(s->latency_ms[i], ios, 0.01));
}

/* One report's line; disk is the run's, which fio ends every line with. */
static int terse_line(FILE *out, const struct job_options *o, const struct job_stats *s,
		      const struct disk_util *d)
{
	fprintf(out, "3;ebsbench-%s;%s;0;%d", EBSBENCH_VERSION, o->name, s->error);
	if (put_directions(out, o, s))
		return -1;
	put_distributions(out, s);
	if (d->valid)
		fprintf(out, ";%s;%llu;%llu;%llu;%llu;%llu;%llu;%llu;%3.2f%%", d->name,
			(unsigned long long)d->read_ios, (unsigned long long)d->write_ios,
			(unsigned long long)d->read_merges, (unsigned long long)d->write_merges,
			(unsigned long long)d->read_ticks, (unsigned long long)d->write_ticks,
			(unsigned long long)d->in_queue, d->util);
	fputc('\n', out);
	return ferror(out) ? -1 : 0;
}

int output_terse_run(FILE *out, const struct run_report *run)
{
	for (unsigned i = 0; i < run->n; i++)
		if (terse_line(out, run->r[i].o, run->r[i].s, run->disk))
			return -1;
	return 0;
}

int output_formats(FILE *out, const struct run_report *run, unsigned formats)
{
	if ((formats & OUTPUT_TERSE) && output_terse_run(out, run))
		return -1;
	if ((formats & (OUTPUT_JSON | OUTPUT_JSON_PLUS)) &&
	    output_json_run(out, run, (formats & OUTPUT_JSON_PLUS) != 0))
		return -1;
	if ((formats & OUTPUT_NORMAL) && output_normal_run(out, run))
		return -1;
	return 0;
}
