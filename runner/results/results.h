/* results.h - results.json, the one record of a run.
 *
 * `ebsbench run` writes it; the analysis, summary.md, the SVG charts and
 * `ebsbench report` all read it, so a results directory can be re-rendered
 * (or re-priced) later without the devices.  Schema, version 2:
 *
 * Versions: "schema" is RESULTS_SCHEMA for what this ebsbench writes; it
 * goes up by one whenever a field is added or its meaning changes.  Readers
 * (report, recommend, the fuzz target) accept every schema from 1 to
 * RESULTS_SCHEMA, reading a field an older file lacks as absent (the
 * lookups of results_read.h give NULL or NaN), and refuse a newer one with
 * a line naming both numbers, rather than misread fields they do not know.
 * 1: ebsbench 0.1.0 (tests/unit/fixtures/results-gp2-gp3.json, kept as it
 *    was written).
 * 2: phases[].load on a loadcurve step ({"percent": 25, "offered_iops":
 *    750, "on_burst": false}) and the sweep's phases.
 * 3: devices[].read_first, what the run read before its first write.
 *
 * {
 *   "schema": 3,
 *   "ebsbench": { "version": "0.1.0", "build_id": "sha256 of the binary", "image_digest": null },
 *   "environment": { "instance_type": "m5.xlarge" | null, "instance_id": ..., "zone": ...,
 *                    "kernel": "6.1.0", "hostname": ..., "started": "ISO 8601 UTC",
 *                    "finished": ..., "stopped_early": false },
 *   "plan": { "time_scale": 1.0, "region": "ap-northeast-2", "test_size": bytes,
 *             "phases": ["layout", "randread", ...], "read_only": false },
 *   "prices": { "region": ..., "date": ..., "source": ..., "overridden": false,
 *               "gp2": { "gib_month": 0.114, "iops_month": null, "mibs_month": null }, ... },
 *   "devices": [ {
 *       "label": "gp2",                   name used in file names and tables
 *       "path": "/dev/nvme1n1", "kind": "ebs" | "instance-store" | "other",
 *       "volume_id": "vol-..." | null, "model": ..., "serial": ...,
 *       "size_bytes": N, "logical_block_size": 512,
 *       "volume": { "type": "gp2", "size_gib": 100, "iops": 300, "throughput_mibs": 128,
 *                   "assumed": ["type", "iops", ...] },   facts not given in the config
 *       "instance_limits": { ... } | null,
 *       "read_first": { "offset": 0, "bytes": N, "bytes_read": N, "seconds": 1.2,
 *                       "found": "zeros" | "ebsbench data" | "unrecognised data" }
 *                                         the region the writes reach, read whole before the
 *                                         first (job/read_first.h); absent when nothing was
 *                                         read: a read-only plan, or allow_destroy names it
 *   } ],
 *   "phases": [ {                         in the order they ran
 *       "phase": "randread", "device": "gp2",   the sweep's steps are all "sweep"
 *                                         (RESULTS_PHASE_SWEEP), told apart by rw and
 *                                         bs: writes of 16384..1048576, a read of 2097152
 *       "load": { "percent": 25, "offered_iops": 750, "on_burst": false },   loadcurve
 *                                         steps only (schema 2)
 *       "started_ms": unix ms, "ended_ms": unix ms,
 *       "idle_before_s": 12.5,            since this device's previous phase ended
 *                                         (null for its first phase)
 *       "iodepth": 32, "bs": 4096, "rw": "randread", "runtime_s": 2700 (planned),
 *       "job": { fio's jobs[0] object, as `ebsbench fio --output-format=json` },
 *       "iops_log": "gp2_rr_iops.1.log",  relative to the results directory
 *       "iops_series": [ per-second total IOPS ... ],   one per log window
 *       "clat_hist": { "log": "gp2_rr_clat_hist.1.log", "window_ms": 1000, "coarseness": 4,
 *                      "bins": 116, "windows": [ "40:1286 637 0 205", "", ... ] } | null,
 *                                         completion latency histogram of each window
 *                                         (randread and lat; run/run_hist.h says how to read)
 *       "lat_log": "gp2_rr_clat.1.log",   only with the phase's "io_latency_log": true:
 *                                         each I/O's completion latency, fio's lat log rows
 *                                         "time_ms, clat_ns, ddir, bs, offset"
 *       "ebs_stats": { "available": false, "reason": "..." } |
 *                    { "available": true, "read_ops": .., "write_ops": .., "read_bytes": ..,
 *                      "write_bytes": .., "read_time_us": .., "write_time_us": ..,
 *                      "volume_exceeded_iops_us": .., "volume_exceeded_throughput_us": ..,
 *                      "instance_exceeded_iops_us": .., "instance_exceeded_throughput_us": ..,
 *                      "queue_length": .., "throttled_by": "volume-iops" | ... | "none",
 *                      "read_histogram": [ {"lower_us":, "upper_us":, "count":} ... ],
 *                      "write_histogram": [...] },
 *       "window_ms": 1000,                 width of one iops_series sample (time-scaled)
 *       "disk_check": { "kernel_ios": N, "engine_ios": N, "kernel_bytes": N,
 *                       "engine_bytes": N, "agrees": true } | null,
 *       "load": { "percent": 25, "offered_iops": 750,   loadcurve steps only
 *                 "sustained_iops": 3000, "sustained_from": "the volume's provisioned IOPS",
 *                 "above_sustained": false, "ramp_s": 0 (unmeasured lead-in), "on_burst": false }
 *   } ],
 *   "uploads": [ { "artifact": "gp2_rr_iops.1.log", "url": "https://host/key" (no query),
 *                  "status": "uploaded" | "failed" | "skipped", "attempts": 1,
 *                  "http_status": 200, "error": null } ],   when the config has "upload"
 *   "analysis": {                         added by analysis_build()
 *     "devices": [ {
 *         "device": "gp2",
 *         "prediction": { "baseline_iops": 300, "burst_iops": 3000, "burst_seconds": 2000,
 *                         "seq_mibs": 128, ... },
 *         "cliff": { "status": "found" | "none" | ..., "second": 2000, "transition_s": 1,
 *                    "before": {"mean":, "min":, "max":}, "after": {...},
 *                    "predicted_second": 2000, "verdict": "as predicted" | "earlier than
 *                    predicted" | ... | "cliff missing" | "bucket empty at the start",
 *                    "kind": "volume" | "instance" | "unknown", "cause": "..." } | null,
 *         "phases": [ { "phase": "lat", "unit": "IOPS" | "MiB/s", "iodepth": 1, "bs": 4096,
 *                       "idle_before_s": 60, "duration_s": 60, "measured": 603,
 *                       "predicted": 600, "bound": "volume IOPS" | "latency" | ...,
 *                       "bounds": { "volume":, "volume_bound":, "instance":, "latency": },
 *                       "service_time_ms": 0.602, "credits_at_start": 18000,
 *                       "verdict": "as predicted" | "better" | "worse" | "not predicted",
 *                       "tolerance": 0.1, "explanation": "the finding's sentence" } ],
 *         "credits_at_start": { "phase": "randread", "cliff_s": 2000 | null (never burst),
 *                               "credits": 5.4e6, "percent": 100, "low": false, ... } | null,
 *         "refill": [ { "phase": "randwrite", "idle_s": 120, "duration_s": 120,
 *                       "expected_iops": 600, "measured_iops": 601, "bound": ...,
 *                       "bucket_allows_iops": 600, "latency_allows_iops": null } ],
 *         "little": [ { "phase": ..., "inflight": 31.9, "iodepth": 32, "verdict": ... } ],
 *         "sweep": [ { "rw": "write", "bs": 16384, "measured_mibs": 16.0,  only with a sweep
 *                      "service_time_ms": 1.0 (the step's: mean slat + p50 clat),
 *                      "predicted_mibs": 15.6 | null, "bound": "latency (...)" | null,
 *                      "bounds": { "latency_mibs":, "iops_mibs":, "throughput_mibs":,
 *                                  "instance_mibs": },   latency: bs / the 16 KiB write's
 *                      "verdict": "as predicted", "tolerance": 0.1 } ],   service time
 *         "cost": { "monthly_usd": 11.40, "per_3000_iops_usd": 11.40 },
 *         "loadcurve": { "sustained_iops": 3000, "sustained_from": "...",
 *                        "model_applies": true, "knee_factor": 4, "knee_threshold_ms": 2.4,
 *                        "steps": [ { "percent": 25, "offered_iops": 750,
 *                                     "measured_iops": 750, "on_burst": false,
 *                                     "above_limit": false, "held": true,
 *                                     "p50_ms":, "p95_ms":, "p99_ms":, "p99_9_ms": } ],
 *                        "knee": { "percent": 100, "offered_iops": 3000, "p99_ms": 20,
 *                                  "last_good_percent": 90 } | null,
 *                        "sentence": "the summary's" } | null   (analysis/loadcurve.h)
 *     } ],
 *     "instance_cliff": { "kind": "none" | "volume" | "instance" | "unknown",
 *                         "instance_type": "m5.large" | null, "instance_bursts": true,
 *                         "sentences": [ "whose each cliff was" ] },
 *     "findings": [ "one sentence each" ]
 *   }
 * }
 */
#ifndef EBSBENCH_RESULTS_H
#define EBSBENCH_RESULTS_H

#include <jansson.h>
#include <stdbool.h>

#define RESULTS_SCHEMA 3
#define RESULTS_SCHEMA_OLDEST 1
#define RESULTS_FILE "results.json"
/* The block-size sweep's steps: "phase": "sweep", told apart by rw and bs. */
#define RESULTS_PHASE_SWEEP "sweep"
/* The load curve's steps: "phase": "loadcurve", told apart by "load". */
#define RESULTS_PHASE_LOADCURVE "loadcurve"

/* A JSON object of a schema this ebsbench reads (1..RESULTS_SCHEMA). */
bool results_schema_ok(const json_t *root);
/* The same, with a one-line reason when not ("written by a newer
 * ebsbench: schema 3, this one reads 1 to 2"). */
int results_schema_check(const json_t *root, char *err, size_t errlen);
/* Loads DIR/results.json; NULL with a one-line reason in err. */
json_t *results_load(const char *dir, char *err, size_t errlen);
/* Loads the results file at path, its schema checked; NULL with a reason. */
json_t *results_load_file(const char *path, char *err, size_t errlen);
/* Either: path a results directory or a results.json file itself. */
json_t *results_load_any(const char *path, char *err, size_t errlen);
/* Writes DIR/results.json atomically (temp file + rename), so an upload or
 * a reader never sees half a file. */
int results_save(const json_t *results, const char *dir, char *err, size_t errlen);

/* The rest of the folder's face (last: each sees what is declared above). */
#include "results/results_read.h"

#endif
