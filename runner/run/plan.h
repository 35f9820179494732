/* plan.h - the run as a list of steps: each phase on every device in turn,
 * never two devices at once, in the reference benchmark's order (layout, 4k randread
 * qd32, 4k randwrite qd32, 4k randread qd1, 1 MiB sequential read and
 * write qd8).  Every step is a fio job built through the option table.
 * The opt-in "sweep" phase (seed 002) is eight steps per device: O_DIRECT
 * sequential writes at qd1 of 16k..1M blocks, then a 2 MiB read at qd1
 * as hdparm --direct -t does. */
#ifndef EBSBENCH_PLAN_H
#define EBSBENCH_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run/config.h"
#include "device/device.h"
#include "model/model.h"
#include "job/job.h"
#include "run/artifacts.h"

#define PLAN_MAX_PHASES 16
/* The opt-in phase driving every device at once (the instance's EBS ceiling). */
#define PLAN_TOGETHER RESULTS_PHASE_TOGETHER
/* The block-size sweep's phase name, in the config and in results.json. */
#define PLAN_SWEEP RESULTS_PHASE_SWEEP
/* The run's histogram logs sum fio's bins by 2^4: 4 bins per octave, 116 in
 * all, fine enough for percentiles within a quarter octave. */
#define PLAN_HIST_COARSENESS 4
/* A phase's key (off by default) keeping every I/O's completion latency:
 * {"phase": "randread", "io_latency_log": true}. */
#define PLAN_IO_LATENCY_LOG "io_latency_log"

/* A device the run will use: what discovery found, what the config says. */
struct run_device {
	char label[32];
	struct discovered_device info;
	struct ebs_volume volume;
	bool type_assumed; /* not given in the config */
	bool size_assumed;
	struct ebs_prediction randread; /* 4k random at full demand */
};

/* A loadcurve step's offered load: percent of the device's sustained
 * rate (percent 0: not a loadcurve step). */
struct plan_load {
	double percent;
	double offered_iops;	    /* rate_iops, whole I/Os per second */
	double sustained_iops;	    /* what 100 % is */
	const char *sustained_from; /* "provisioned IOPS", "gp2 baseline", ... */
	bool above_sustained;	    /* can only be served on burst credits */
	bool bursting;		    /* the device has a credit bucket */
	double ramp_s;		    /* set by the run: plan_load_ramp_ns */
	bool no_ramp;		    /* the quick plan: no bucket was drained to start on */
};

struct plan_step {
	char phase[32];
	char short_name[16];		      /* in log names: gp2_rr_iops.1.log */
	char iops_log[ARTIFACT_LOG_NAME_MAX]; /* its file in the output directory */
	char hist_log[ARTIFACT_LOG_NAME_MAX]; /* its latency histogram log, "" if none */
	char lat_log[ARTIFACT_LOG_NAME_MAX];  /* each I/O's clat (io_latency_log), "" if not kept */
	size_t device;			      /* index into the run's devices */
	struct job_options job;
	uint64_t planned_ns; /* estimate, for ETAs and URL expiry checks */
	struct plan_load load;
	/* The together phase: its steps, one per device, run at once (run_step.h);
	 * together is how many (0: the step runs alone), group_first the index
	 * of the group's first step, which holds the group's estimate. */
	size_t together, group_first;
};

/* What the run reads of one device before its first write
 * (job/read_first.h): from the lowest offset its writing steps reach to
 * the highest.  length 0: it is not written, or allow_destroy names it
 * (then nothing is read). */
struct plan_read_first {
	uint64_t offset, length;
	uint64_t planned_ns;
};

struct plan {
	struct plan_step *steps;
	size_t count, cap;
	char phases[PLAN_MAX_PHASES][32];
	size_t phase_count;
	bool writes; /* some step writes: the safety check applies */
	struct plan_read_first read_first[CONFIG_MAX_DEVICES]; /* by device index */
	uint64_t total_ns;     /* sum of the estimates, the reads first included */
	unsigned log_avg_msec; /* per-second windows, time-scaled */
	/* What the plan left out and why, one line each ("no load curve on
	 * loop2: ..."): the run says it once it starts, not before a refusal. */
	char notes[512];
};

/* `run --plan NAME`: the named plan's phases in place of the config's
 * ("sweep": the block-size sweep alone), or "quick": the phases ended when
 * steady (run/plan_quick.h).  Returns 0, or -1 naming the plans there are. */
int plan_select(struct run_config *c, const char *name, char *err, size_t errlen);
#define PLAN_QUICK "quick"
/* Builds the plan, each step's IOPS log named by artifacts_iops_log; the
 * randread and lat steps (the latency heatmap's) also keep a histogram log
 * of the same windows, named by artifacts_hist_log.
 * Returns 0, or -1 with a one-line reason naming the phase or option at
 * fault. */
int plan_build(struct plan *p, const struct run_config *c, const struct run_device *devices,
	       size_t device_count, char *err, size_t errlen);
void plan_free(struct plan *p);
/* The report files this plan writes, in upload order: artifacts'
 * report files less those whose phase it lacks.  Returns how many went
 * into names (at most ARTIFACT_REPORT_COUNT). */
size_t plan_report_files(const struct plan *p, const char *names[ARTIFACT_REPORT_COUNT]);

/* The loadcurve phase (4k randread at fixed offered loads, poisson
 * arrivals): its default loads in percent of the sustained rate. */
#define PLAN_LOADCURVE_MAX_STEPS 12
extern const double plan_loadcurve_default_percents[];
extern const size_t plan_loadcurve_default_count;

#endif
