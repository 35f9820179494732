/* sweep.h - the model's line under seed 002's block-size sweep: at qd1,
 * for each block size, what should bound the throughput and at what
 * MiB/s, beside what each step measured, with a verdict in verdict.c's
 * words.
 *
 * Three bounds per step, the lowest wins: latency (one I/O in flight, so
 * bs / the device's per-I/O service time, measured at the sweep's
 * smallest write: its mean submission plus its p50 completion latency),
 * IOPS (the volume's IOPS in its 256 KiB units, sequential I/O of 32 KiB
 * and up merged, times bs) and throughput (the volume's MiB/s cap), and
 * the instance's EBS limit where the instance type is known.  Small
 * blocks are latency- or IOPS-bound and grow with bs; large ones meet the
 * cap, as seed 002's 16 MB/s at 16k grew to 150 MB/s at 512k. */
#ifndef EBSBENCH_SWEEP_H
#define EBSBENCH_SWEEP_H

#include <jansson.h>
#include <stdbool.h>

#include "model/model.h"
#include "analysis/verdict.h"

/* One step's bounds in MiB/s (NaN: unknown) and the lowest of them. */
struct sweep_point {
	double bs;
	double latency_mibs;	/* bs / service time at qd1 */
	double iops_mibs;	/* the volume's IOPS x bs, in its units */
	double throughput_mibs; /* the volume's MiB/s cap */
	double instance_mibs;	/* the instance's EBS limit; NaN: unknown */
	double predicted_mibs;
	enum ebs_bound bound; /* which of them set predicted_mibs */
};

/* The model at block size bs (bytes) for a qd1 sequential step whose
 * service time is service_s (0 or NaN: unknown, latency bounds nothing):
 * the volume's burst figures when volume_burst (gp2 with credits),
 * instance_mibs as the instance allows (NaN: unknown). */
struct sweep_point sweep_predict(const struct ebs_volume *v, double bs, double service_s,
				 bool volume_burst, double instance_mibs);

/* The device's sweep (analysis.devices[].sweep, see results.h): one
 * object per "sweep" step it ran, in run order, from the steps' records
 * and their verdict.c objects (verdicts: analysis.devices[].phases, the
 * list verdict_phases made for the same device), which then take the
 * sweep's prediction, bound and verdict; findings gains the device's
 * sentence on it.  NULL when the device ran no sweep. */
json_t *sweep_line(const json_t *results, const struct verdict_device *d, json_t *verdicts,
		   json_t *findings);

#endif
