/* internal.h - what run/'s files share among themselves (and its unit
 * tests call): the run's own steps and records, which nothing outside
 * run/ calls, so the face (run.h) does not include this header. */
#ifndef EBSBENCH_RUN_INTERNAL_H
#define EBSBENCH_RUN_INTERNAL_H

#include <jansson.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device/device.h"
#include "stats/stats.h"
#include "run/artifacts.h"
#include "run/config.h"
#include "run/plan.h"
#include "run/run_exec.h"
#include "run/run_state.h"

/* artifacts.c: the log names, the upload lists and each file's Content-Type */
/* The Content-Type a file goes up with, so a presigned link opens it as
 * what it is ("text/html; charset=utf-8" for report.html, text/plain for
 * the logs): by its name, application/octet-stream for a name no run
 * writes.  The uploader is handed this function (upload/ sits below run/). */
const char *artifacts_content_type(const char *name);
/* Every once-per-run name in upload order, ARTIFACT_COUNT of them (the
 * optional ones included: see artifacts_needs_phase). */
const char *const *artifacts_run_files(void);
/* The report's names (ARTIFACT_REPORT_COUNT of them), as the uploader
 * sends them before results.json. */
const char *const *artifacts_report_files(void);
/* The IOPS log of one phase on one device, named as fio names the log of
 * write_iops_log=LABEL_SHORT, as the reference benchmark did:
 * "gp2_rr_iops.1.log".  0, or -1 with a reason when it does not fit. */
int artifacts_iops_log(char *name, size_t cap, const char *device_label, const char *phase_short,
		       char *err, size_t errlen);

/* The completion latency histogram log of one phase on one device, named
 * as fio names the log of write_hist_log=LABEL_SHORT: "gp2_rr_clat_hist.1.log".
 * 0, or -1 with a reason when it does not fit. */
int artifacts_hist_log(char *name, size_t cap, const char *device_label, const char *phase_short,
		       char *err, size_t errlen);

/* Each I/O's completion latency, for a phase with "io_latency_log": true,
 * named as fio names the clat log of write_lat_log=LABEL_SHORT at
 * log_avg_msec=0: "gp2_rr_clat.1.log".  0, or -1 with a reason. */
int artifacts_lat_log(char *name, size_t cap, const char *device_label, const char *phase_short,
		      char *err, size_t errlen);

/* config.c: allow_destroy as a list, the range errors, the key table */
/* c's allow_destroy entries as discover's functions take them, into
 * list[CONFIG_MAX_ALLOW]; returns how many. */
size_t config_allow_list(const struct run_config *c, const char *list[CONFIG_MAX_ALLOW]);

/* The one form of a range error: "config: 'KEY' is VALUE, outside RANGE"
 * in err; returns -1. */
int config_out_of_range(const char *key, const char *value, const char *range, char *err,
			size_t errlen);
/* The same for a plain number, written as %.15g. */
int config_number_out_of_range(const char *key, double value, const char *range, char *err,
			       size_t errlen);

/* One row of the run config's key table (config.c): every key a config
 * may hold, by its name as docs/run.md lists it ("time_scale",
 * "devices[].iops", "environment.zone"), what it takes and its range as
 * the docs and the messages say them, a line of docs, and the setter that
 * reads and checks it into base (the run_config, or the device_config for
 * "devices[]." keys).  A string's range is its field's size. */
struct config_key {
	const char *name;
	const char *type;  /* "string", "number", "size", "object", ... */
	const char *range; /* NULL: a string's is its cap */
	double lo, hi;	   /* a number's bounds, where the setter checks them */
	size_t offset;	   /* the field in base, where the setter fills one */
	size_t cap;	   /* the field's size: a string's is under it */
	int (*set)(const struct config_key *k, void *base, json_t *v, char *err, size_t errlen);
	const char *doc;
};
/* The table's row i, in docs/run.md's order; NULL past its end. */
const struct config_key *config_key_at(size_t i);

/* plan.c: whether the plan runs a phase */
/* Whether the plan runs the phase ("sweep"): what decides the optional
 * report files it writes (artifacts_needs_phase). */
bool plan_has_phase(const struct plan *p, const char *phase);

/* plan_quick.c: the test region */
/* The test region the plan uses: the config's, at most 1 GiB in the quick
 * plan. */
uint64_t plan_test_size(const struct run_config *c);

/* plan_loadcurve.c: a loadcurve step's rate, length, depth, ramp and record */
/* A device's sustained 4k rate as the model gives it (gp3/io1/io2 their
 * provisioned IOPS, gp2/st1/sc1 their baseline, lowered to the
 * instance's baseline EBS IOPS when inst is known), and where it comes
 * from.  A device the model does not cover: its config's iops, else the
 * baseline its config's gp2/st1/sc1 type and size give, else 0 with from
 * saying why. */
double plan_sustained_iops(const struct run_device *d, const struct instance_ebs_limits *inst,
			   const char **from);
/* How long a step offering `offered` IOPS runs, in unscaled seconds:
 * long enough that LOADCURVE_TAIL_IOS of its I/Os lie beyond its p99,
 * and at least LOADCURVE_STEP_MIN_REAL_S once scaled by time_scale. */
double plan_loadcurve_step_seconds(double offered, double time_scale);
/* The queue depth of a step offering `offered` IOPS. */
unsigned plan_loadcurve_iodepth(double offered);
/* The unmeasured lead-in (ramp) of a loadcurve step that starts idle_ns
 * after the device's previous phase: on a bursting device above its
 * sustained rate, long enough that at the step's own rate it spends what
 * that gap refilled (sustained x idle), so the measured part starts on
 * the empty bucket randread left; else 0.  Also 0 when that would take
 * over a minute (a long gap: the bucket was not empty), the step then runs
 * on burst and its "on_burst" says so.  Not time-scaled: the gap is not;
 * the plan's estimate holds a minute for it. */
uint64_t plan_load_ramp_ns(const struct plan_step *s, uint64_t idle_ns);
/* results.json's "load" of a loadcurve step: its plan, and on_burst from
 * what the step measured (measured_iops). */
json_t *plan_load_json(const struct plan_load *l, double measured_iops);

/* run_devices.c: choosing the devices, the write safety check, the read first, the probe */
/* Picks the devices: those the config names (by path or volume id), else
 * every EBS(-like) volume that is not a system disk.  Fills devices[] (at
 * most CONFIG_MAX_DEVICES) and *count; -1 with a one-line reason. */
int run_devices_resolve(const struct run_config *c, const struct discover_list *found,
			struct run_device *devices, size_t *count, char *err, size_t errlen);

/* The labelling rule: labels name files and table columns, so they are
 * the config's "label", else its "type" ("gp2"), else the kernel's name
 * for the device (kernel_name; NULL or "" when not known). */
const char *run_devices_label_base(const struct device_config *want, const char *kernel_name);

/* Refuses a write plan on any device that holds data not listed in
 * allow_destroy, or that is mounted, held or a system disk, before any
 * I/O; the reason names the device and what was found. */
int run_devices_check_writes(const struct run_config *c, const struct run_device *devices,
			     size_t count, char *err, size_t errlen);

/* The second look, before the first write: each device's region in
 * p->read_first read whole (job/read_first.h), the one after the other;
 * what was read goes into its entry of devices_json as "read_first".
 * Returns 0 when all held only zeros and ebsbench's own data, -1 with a
 * one-line refusal naming the device and the byte (or the reason it could
 * not be read, or that stop ended the reading). */
int run_devices_read_first(const struct plan *p, const struct run_device *devices, size_t count,
			   json_t *devices_json, const volatile sig_atomic_t *stop, char *err,
			   size_t errlen);

/* Before the first I/O of the run (and before the read first, which loads
 * what it reads): each device's initialization probe (job/init_probe.h)
 * into its entry of devices_json as "initialization", unless the entry has
 * one already (a resume's, from the stopped run); a line on stderr for a
 * volume still loading from its snapshot, or one the probe could not read. */
void run_devices_probe(const struct run_device *devices, size_t count, json_t *devices_json,
		       const volatile sig_atomic_t *stop);

/* run_exec.c: run_execute's parts, for a state built by other means (tests) */
/* results.json's start (schema, environment, plan, prices, devices, no
 * phases yet) and the uploader, once st's config, devices and plan are in. */
void run_exec_start(struct run_state *st);
/* From a started st: read first, every step in plan order until stop is
 * set (results.json saved, and uploaded, after each), then finish:
 * results.json's "finished" and "stopped_early", the analysis, the report,
 * the uploads.  Returns 0, 1, 3 or 4 as run_execute. */
int run_exec_steps(struct run_state *st, const struct run_reporter *report,
		   const volatile sig_atomic_t *stop);
/* Frees what st holds (not st). */
void run_exec_free(struct run_state *st);

/* run_record.c: devices, EBS statistics and the kernel's view of a phase, environment, clock */
/* EBS statistics read around a phase (log page 0xD0), where offered. */
struct ebs_sample {
	bool ok;
	char reason[128]; /* why not, when !ok */
	struct ebs_stats stats;
};

void run_record_ebs_sample(const char *dev_path, struct ebs_sample *out);
/* {"available": false, "reason"} or the deltas and who throttled. */
json_t *run_record_ebs_stats(const struct ebs_sample *before, const struct ebs_sample *after,
			     uint64_t phase_us);

/* The kernel's count of the same I/O (/sys/block/DEV/stat), to check the
 * engine against: I/Os and bytes of each, and whether the bytes agree. */
json_t *run_record_disk_check(const struct job_stats *s);

json_t *run_record_device(const struct run_device *d);

/* "ebsbench" and "environment" objects: version, build id (FNV-1a of the
 * binary), kernel, host, and what the config says about the instance. */
json_t *run_record_ebsbench(const struct run_config *c);
json_t *run_record_environment(const struct run_config *c);
/* The wall clock in ms since 1970: a phase's started_ms and ended_ms. */
int64_t run_record_wall_ms(void);
/* "2026-11-29T21:35:59Z" */
void run_record_iso_utc(char *buf, size_t len, int64_t unix_ms);

#endif
