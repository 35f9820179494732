/* test_stats_merge.c - directions merged as one sample set (unified_rw_reporting's
 * mixed, group_reporting's sums), and CPU idleness from /proc/stat readings
 * (--idle-prof). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "stats/stats.h"
#include "stats/internal.h"

/* Merging two running stats gives the moments of all their values at
 * once, whichever side is empty. */
static void test_running_merge(struct checks *checks)
{
	struct running_stat a = { 0 }, b = { 0 }, all = { 0 }, empty = { 0 };
	for (uint64_t v = 1; v <= 1000; v++) {
		stats_running_add(v % 3 ? &a : &b, v * v % 7919);
		stats_running_add(&all, v * v % 7919);
	}
	struct running_stat m = a;
	stats_running_merge(&m, &b);
	CHECK_EQ_U64(m.n, all.n);
	CHECK_EQ_U64(m.min, all.min);
	CHECK_EQ_U64(m.max, all.max);
	CHECK_NEAR(m.mean, all.mean, 1e-9);
	CHECK_NEAR(stats_running_stddev(&m), stats_running_stddev(&all), 1e-9);
	struct running_stat e = empty;
	stats_running_merge(&e, &a);
	CHECK_EQ_U64(e.n, a.n);
	CHECK_EQ_U64(e.min, a.min);
	stats_running_merge(&e, &empty);
	CHECK_EQ_U64(e.min, a.min);
	CHECK_NEAR(e.mean, a.mean, 1e-12);
}

/* A merged direction sums counts and histograms and keeps priorities. */
static void test_direction_merge(struct checks *checks)
{
	struct direction_stats *r = calloc(3, sizeof(*r));
	CHECK(r != NULL);
	if (!r)
		return;
	for (unsigned i = 0; i < 40; i++) {
		struct direction_stats *d = &r[i % 2];
		d->ios++;
		d->bytes += 4096;
		stats_running_add(&d->clat, 1000 + i);
		histogram_add(&d->clat_hist, 1000 + i);
		histogram_add(&d->lat_hist, 2000 + i);
		stats_running_add(&d->prio[i % 4 == 1].lat, 1000 + i);
	}
	r[1].prio[1].ioprio = 1u << 13;
	stats_direction_merge(&r[2], &r[0]);
	stats_direction_merge(&r[2], &r[1]);
	CHECK_EQ_U64(r[2].ios, 40);
	CHECK_EQ_U64(r[2].bytes, 40 * 4096);
	CHECK_EQ_U64(r[2].clat.n, 40);
	CHECK_EQ_U64(r[2].clat.min, 1000);
	CHECK_EQ_U64(r[2].clat_hist.total, 40);
	CHECK_EQ_U64(r[2].lat_hist.max, 2039);
	CHECK_EQ_U64(r[2].prio[1].lat.n, 10);
	CHECK_EQ_U64(r[2].prio[1].ioprio, 1u << 13);
	free(r);
}

/* Window samples add up, as fio's sum_stat with pure_sum: two jobs (or
 * directions) of 100 and 300 IOPS a window make 400, not their average. */
static void test_samples_summed(struct checks *checks)
{
	struct direction_stats *r = calloc(3, sizeof(*r));
	CHECK(r != NULL);
	if (!r)
		return;
	for (unsigned i = 0; i < 4; i++) {
		stats_sample_add(&r[0].iops_samples, 90 + 10.0 * (i % 3));
		stats_sample_add(&r[1].iops_samples, 300);
		stats_sample_add(&r[1].bw_samples, 1200);
	}
	stats_direction_merge(&r[2], &r[0]);
	stats_direction_merge(&r[2], &r[1]);
	const struct sample_stat *iops = &r[2].iops_samples;
	CHECK_NEAR(iops->mean, r[0].iops_samples.mean + 300, 1e-9);
	CHECK_NEAR(iops->min, 90 + 300, 1e-9);
	CHECK_NEAR(iops->max, 110 + 300, 1e-9);
	CHECK_EQ_U64(iops->n, 8);
	/* An empty side leaves the other as it was. */
	CHECK_NEAR(r[2].bw_samples.mean, 1200, 1e-9);
	CHECK_EQ_U64(r[2].bw_samples.n, 4);
	free(r);
}

/* idle + iowait over all ticks between two readings, per CPU and in all. */
static void test_cpu_idle(struct checks *checks)
{
	struct cpu_idle_sample a, b;
	struct cpu_idleness d;
	CHECK(cpu_idle_parse("cpu  100 0 100 800 0 0 0 0 0 0\n"
			     "cpu0 50 0 50 400 0 0 0 0 0 0\n"
			     "cpu1 50 0 50 400 0 0 0 0 0 0\nintr 5 1 2\n",
			     &a) == 0);
	CHECK(a.valid && a.ncpu == 2);
	CHECK_EQ_U64(a.idle[0], 800);
	CHECK_EQ_U64(a.total[0], 1000);
	CHECK(cpu_idle_parse("cpu  200 0 100 900 100 0 0 0 0 0\n"
			     "cpu0 150 0 50 400 0 0 0 0 0 0\n"
			     "cpu1 50 0 50 500 100 0 0 0 0 0\n",
			     &b) == 0);
	cpu_idle_delta(&a, &b, &d);
	CHECK(d.valid && d.ncpu == 2);
	CHECK_NEAR(d.system, 200.0 * 100 / 300, 1e-9);
	CHECK_NEAR(d.cpu[0], 0.0, 1e-12);
	CHECK_NEAR(d.cpu[1], 100.0, 1e-12);
	CHECK(cpu_idle_parse("intr 5\n", &a) == -1 && !a.valid);
	cpu_idle_delta(&a, &b, &d);
	CHECK(!d.valid && d.system == 0.0);
	/* The real file reads, and time only moves forward. */
	cpu_idle_take(&a);
	cpu_idle_take(&b);
	CHECK(a.valid && a.ncpu >= 1 && b.total[0] >= a.total[0]);
}

CHECK_MAIN(test_running_merge, test_direction_merge, test_samples_summed, test_cpu_idle)
