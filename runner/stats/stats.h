/* stats.h - what one job measured, per direction.
 *
 * The engine loop feeds completions in; output, logs and the analysis read
 * the result out.  Nothing here knows which engine ran. */
#ifndef EBSBENCH_STATS_H
#define EBSBENCH_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/cpu_idle.h"
#include "stats/disk_sample.h"
#include "stats/histogram.h"
#include "stats/steady.h"

/* fio's data directions (read, write, trim: each with its own statistics),
 * then the syncs, which move no data and share one "sync" block. */
enum ddir {
	DDIR_READ = 0,
	DDIR_WRITE = 1,
	DDIR_TRIM = 2,
	DDIR_COUNT = 3,
	DDIR_SYNC = 3,	   /* fsync(2), IORING_OP_FSYNC */
	DDIR_DATASYNC = 4, /* fdatasync(2), IORING_FSYNC_DATASYNC */
};

/* Running min/max/mean/variance (Welford), as fio's {min,max,mean,stddev,N}. */
struct running_stat {
	uint64_t n;
	uint64_t min;
	uint64_t max;
	double mean;
	double m2;
};

void stats_running_add(struct running_stat *s, uint64_t value);
double stats_running_stddev(const struct running_stat *s);

/* Same for per-window samples, which are rates and so not integers. */
struct sample_stat {
	uint64_t n;
	double min;
	double max;
	double mean;
	double m2;
};

void stats_sample_add(struct sample_stat *s, double value);
double stats_sample_stddev(const struct sample_stat *s);

/* Sorts x[0..n) ascending (NaN-free input). */
void stats_sort(double *x, size_t n);
/* The median of x[0..n), n > 0; sorts x in place. */
double stats_median(double *x, size_t n);

/* Latencies of the I/Os issued at one priority (fio's per-prio "prios"):
 * lat when lat_percentiles is on, else clat, as fio keeps them. */
struct prio_stat {
	uint16_t ioprio; /* class << 13 | level */
	struct running_stat lat;
	struct histogram hist;
};
/* The job's own priority (slot 0) and those the cmdprio options give. */
#define STATS_PRIOS 8

struct direction_stats {
	uint64_t ios;
	uint64_t bytes;
	uint64_t short_ios;
	struct running_stat slat;
	struct running_stat clat;
	struct running_stat lat;
	struct histogram slat_hist; /* asynchronous engines only, as fio */
	struct histogram clat_hist;
	struct histogram lat_hist;	    /* a rated job's lat counts from each I/O's due time */
	struct prio_stat prio[STATS_PRIOS]; /* filled with the cmdprio options only */
	struct sample_stat iops_samples;    /* IOPS of each window */
	struct sample_stat bw_samples;	    /* KiB/s of each window */
};

/* fio's depth buckets: 1, 2, 4, 8, 16, 32, >=64. */
#define DEPTH_LEVELS 7
#define BATCH_LEVELS 7
/* fio's latency buckets: 2..1000 ns, 2..1000 us, 2..2000 ms and >=2000 ms. */
#define LATENCY_NS_LEVELS 10
#define LATENCY_US_LEVELS 10
#define LATENCY_MS_LEVELS 12

/* fio's "sync" block: the --fsync/--fdatasync syncs, counted and timed
 * from their issue to their completion (fio's sync_stat, io_u_sync_plat). */
struct sync_stats {
	uint64_t ios;
	struct running_stat lat;
	struct histogram hist;
};

struct job_stats {
	struct direction_stats dir[DDIR_COUNT];
	struct sync_stats sync;
	uint64_t runtime_ns; /* measured span, ramp excluded */
	uint64_t elapsed_ns; /* whole job, ramp included */
	double usr_cpu;	     /* percent of runtime */
	double sys_cpu;
	uint64_t ctx, majf, minf;
	uint64_t usr_ns, sys_ns; /* CPU seconds, for the bench */
	uint64_t max_rss_kib;
	uint64_t depth_level[DEPTH_LEVELS];	/* submissions seen at each depth */
	uint64_t submit_batch[BATCH_LEVELS];	/* submit calls, by I/Os each carried */
	uint64_t complete_batch[BATCH_LEVELS];	/* reaps, by completions each returned */
	uint64_t latency_ns[LATENCY_NS_LEVELS]; /* completions per total-latency bucket */
	uint64_t latency_us[LATENCY_US_LEVELS];
	uint64_t latency_ms[LATENCY_MS_LEVELS];
	struct disk_util disk;
	int error;	       /* errno of the first failed I/O, 0 if none */
	char engine_ran[16];   /* the engine that actually ran */
	char engine_note[160]; /* why another engine ran, empty if none */
	int64_t start_unix_ms; /* wall clock at start, for "timestamp" */
};

/* from's I/O folded into into, as fio's sum_thread_stats: counts added,
 * latencies and histograms (slat, clat, lat, each priority's) merged
 * exactly, window samples summed.  For unified_rw_reporting's "mixed"
 * direction and group_reporting's sums alike.  into starts as zeros
 * (calloc, or stats_job_init) or as a direction of its own. */
void stats_direction_merge(struct direction_stats *into, const struct direction_stats *from);
/* The same for the syncs' block. */
void stats_sync_merge(struct sync_stats *into, const struct sync_stats *from);
/* The I/Os of every data direction (read, write, trim), as fio's
 * ddir_rw_sum. */
uint64_t stats_data_ios(const struct job_stats *s);

void stats_job_init(struct job_stats *s);
unsigned stats_depth_level_index(unsigned depth);
/* The sum of n bucket counts: the total a bucket's percentage is of. */
uint64_t stats_counts_sum(const uint64_t *counts, unsigned n);
/* fio's io_u_mark_submit/complete bucket of a call that carried n I/Os. */
unsigned stats_batch_index(unsigned n);
/* Counts one completion's total latency into latency_ns/us/ms. */
void stats_count_latency(struct job_stats *s, uint64_t lat_ns);

/* Labels fio prints for the buckets above, in order. */
extern const char *const stats_depth_level_label[DEPTH_LEVELS];
extern const char *const stats_batch_label[BATCH_LEVELS];
extern const char *const stats_latency_ns_label[LATENCY_NS_LEVELS];
extern const char *const stats_latency_us_label[LATENCY_US_LEVELS];
extern const char *const stats_latency_ms_label[LATENCY_MS_LEVELS];

#endif
