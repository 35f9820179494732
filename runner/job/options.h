/* options.h - the job model: one job described with fio's option names.
 *
 * Both syntaxes feed the same table: `--name=value` words from the command
 * line and the members of a JSON job object.  Everything above the engine
 * sees only a struct job_options. */
#ifndef EBSBENCH_OPTIONS_H
#define EBSBENCH_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"

#define OPTIONS_MAX_PERCENTILES 64
#define OPTIONS_MAX_GIVEN 64
#define OPTIONS_PATH_MAX 4096
/* Most clones one job may ask for with numjobs. */
#define OPTIONS_MAX_NUMJOBS 256
/* Largest size or offset: 1 EiB, so offset + size and a byte count of a
 * region never wrap, and the longest runtime or ramp_time: ten years, so
 * a start time plus both never does. */
#define OPTIONS_MAX_SIZE (1ull << 60)
#define OPTIONS_MAX_DURATION_NS (3650ull * 86400 * 1000000000)

/* fio's rw values; the trims discard blocks (BLKDISCARD, or a punched
 * hole in a file), trimwrite and randtrimwrite write each block right
 * after trimming it. */
enum rw_pattern {
	RW_READ,
	RW_WRITE,
	RW_RANDREAD,
	RW_RANDWRITE,
	RW_RANDRW,
	RW_READWRITE,
	RW_TRIM,
	RW_RANDTRIM,
	RW_TRIMWRITE,
	RW_RANDTRIMWRITE,
};
enum output_format_bits {
	OUTPUT_NORMAL = 1,
	OUTPUT_JSON = 2,
	OUTPUT_JSON_PLUS = 4,
	OUTPUT_TERSE = 8
};
/* fio's unified_rw_reporting: per direction, one "mixed" block, or both. */
enum unified_rw { UNIFIED_NONE, UNIFIED_MIXED, UNIFIED_BOTH };
/* fio's --idle-prof: none, the whole system's idleness, or also each CPU's. */
enum idle_prof { IDLE_PROF_NONE, IDLE_PROF_SYSTEM, IDLE_PROF_PERCPU };
/* fio's cmdprio_class default: the realtime class (IOPRIO_CLASS_RT). */
#define OPTIONS_CMDPRIO_CLASS_RT 1u
/* fio's rate_process: evenly spaced issues, or exponential gaps. */
enum rate_process { RATE_LINEAR, RATE_POISSON };
/* Highest --rate_iops per direction: 100 ns between issues. */
#define OPTIONS_MAX_RATE_IOPS 10000000u

/* One entry of fio's bssplit (a block size and its share of I/Os) or of
 * cmdprio_bssplit (a share of that size's I/Os and their priority). */
#define OPTIONS_MAX_BSSPLIT 16
struct bs_share {
	uint32_t bs;
	unsigned percent;
	bool own_prio;	 /* cmdprio_bssplit gave a class and level */
	uint16_t ioprio; /* then: class << 13 | level */
};
/* Priorities cmdprio options may give I/Os, beside the default. */
#define OPTIONS_MAX_IOPRIOS (STATS_PRIOS - 1)

/* Most samples a steady-state window holds (ss_dur / ss_interval). */
#define OPTIONS_MAX_SS_SAMPLES 1000000u

/* fio's steady-state detection (steadystate, ss_dur, ss_ramp, ss_interval;
 * job/steadystate.h judges it): the job ends once the last ss_dur of
 * samples, one per ss_interval after ss_ramp, meets the criterion. */
struct ss_options {
	uint64_t dur_ns;      /* ss_dur, the window; 0: no detection (fio's default) */
	uint64_t ramp_ns;     /* ss_ramp: measured time before the first sample */
	uint64_t interval_ns; /* ss_interval (fio 3.35's): one sample each, 1 s default */
	double limit;	      /* the threshold: IOPS, bytes/s, or a percentage with pct */
	bool iops;	      /* the samples judged: IOPS, or bandwidth (bw, bw_slope) */
	bool slope;	      /* the least-squares slope, or the largest deviation */
	bool pct;	      /* limit in percent of the window's mean */
	/* ebsbench's own criteria (ss=snia_iops, snia_bw, snia_p99): SNIA's
	 * window test (stats/steady.h, limits fixed) on IOPS, bandwidth or
	 * each sample's p99 completion latency; ss_floor holds a steady
	 * window back until that much measured time has passed. */
	bool snia;
	bool p99;
	uint64_t floor_ns;
};

/* An option as the user wrote it, echoed back in fio's "job options". */
struct given_option {
	char name[32];
	char value[256];
};

struct job_options {
	char name[128];
	char filename[OPTIONS_PATH_MAX];
	uint64_t size;	 /* bytes of the region; 0 = to the end of the target */
	uint64_t offset; /* start of the region */
	enum rw_pattern rw;
	unsigned rwmixread; /* percent of reads in mixed patterns */
	uint32_t bs;
	unsigned iodepth;
	unsigned iodepth_batch; /* most I/Os per submit call; 0 = iodepth */
	uint64_t runtime_ns;	/* 0 = no limit */
	uint64_t ramp_ns;
	bool time_based;
	const struct engine_ops *ioengine; /* from the engine registry */
	bool direct;
	/* Not fio's: a job that writes a block device first reads all it may
	 * overwrite, and runs only on zeros and ebsbench's own data
	 * (read_first.h); allow_destroy=1 writes whatever the device holds. */
	bool allow_destroy;
	bool group_reporting;
	bool stonewall;	  /* stonewall, wait_for_previous: wait for the jobs before */
	unsigned numjobs; /* clones of this job, run together (only `ebsbench fio`) */
	bool norandommap;
	bool randrepeat;
	uint64_t randseed;
	unsigned output_format; /* enum output_format_bits, any combination */
	char output[OPTIONS_PATH_MAX];
	char iops_log[OPTIONS_PATH_MAX];
	char bw_log[OPTIONS_PATH_MAX];
	char lat_log[OPTIONS_PATH_MAX];
	unsigned log_avg_msec;
	char hist_log[OPTIONS_PATH_MAX]; /* write_hist_log: PREFIX_clat_hist.1.log */
	unsigned log_hist_msec;		 /* its window; 0 (fio's default): none */
	unsigned log_hist_coarseness;	 /* 0-6: 2^c of fio's bins summed per column */
	/* --rate_iops per direction (0: not rated), --rate_process. */
	uint32_t rate_iops[DDIR_COUNT];
	enum rate_process rate_process;
	/* Which latencies get percentiles (and json+ bins): fio's defaults
	 * are clat only. */
	bool slat_percentiles;
	bool clat_percentiles;
	bool lat_percentiles;
	enum unified_rw unified_rw_reporting;
	/* --fsync=N / --fdatasync=N: a sync after every N writes issued, the
	 * queue drained before it and nothing issued until it completes
	 * (0: none). */
	unsigned fsync_blocks;
	unsigned fdatasync_blocks;
	unsigned max_jobs; /* fio's --max-jobs: a cap, one job always fits */
	bool thread;	   /* fio's --thread: ours is always one thread */
	/* --cmdprio_percentage of I/Os get class cmdprio_class, level cmdprio
	 * (sqe->ioprio, aio_reqprio); 0: none. */
	unsigned cmdprio_percentage;
	unsigned cmdprio_class;
	unsigned cmdprio;
	enum idle_prof idle_prof;
	/* --bssplit=64k/40:1024k/60: each I/O's size drawn by these shares
	 * (none: every I/O is bs); --cmdprio_bssplit=64k/25/1/1:...: the
	 * priorities of each size's I/Os, in place of cmdprio_percentage. */
	struct bs_share bssplit[OPTIONS_MAX_BSSPLIT];
	unsigned bssplit_count;
	struct bs_share cmdprio_bssplit[OPTIONS_MAX_BSSPLIT];
	unsigned cmdprio_bssplit_count;
	double percentiles[OPTIONS_MAX_PERCENTILES];
	unsigned percentile_count;
	struct ss_options ss;
	/* fio's other ends of a job that is not time_based: io_size (io_limit)
	 * bytes issued, ramp included, the region walked again as often as it
	 * takes; number_ios I/Os after the ramp, within the one pass (0: off). */
	uint64_t io_size;
	uint64_t number_ios;
	bool new_group; /* fio's: a new reporting group; here only with stonewall */
	struct given_option given[OPTIONS_MAX_GIVEN];
	unsigned given_count;
};

void options_defaults(struct job_options *o);

/* Sets one option by its fio name; value is NULL for a bare flag.
 * Returns 0, or -1 with a one-line reason in err. */
int options_set(struct job_options *o, const char *name, const char *value, char *err,
		size_t errlen);
/* options_set with a number as its value ("size", 8589934592). */
int options_set_number(struct job_options *o, const char *name, uint64_t value, char *err,
		       size_t errlen);

/* Parsers shared with the JSON plan reader and the run config: a size as
 * fio reads it ("4k", "8G", "1MiB"), a duration (bare number: seconds).
 * Return 0, or -1 for text that is not one. */
int options_parse_size(const char *text, uint64_t *out);
int options_parse_duration_ns(const char *text, uint64_t *out);

/* Whether a pattern uses random offsets, and whether it changes the
 * device's data at all (writes or trims: the safety guard's question, since
 * a trim destroys data as a write does). */
bool options_rw_is_random(enum rw_pattern rw);
bool options_rw_changes_data(enum rw_pattern rw);
/* Whether --rate_iops caps any direction: the job runs on a schedule. */
bool options_rated(const struct job_options *o);
/* The process's fio name: "linear" or "poisson". */
const char *options_rate_process_name(enum rate_process p);
/* The pattern's fio name: "randread". */
const char *options_rw_name(enum rw_pattern rw);

#endif
