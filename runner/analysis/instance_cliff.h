/* instance_cliff.h - whose cliff it was: the volume's credit bucket, or
 * the instance's own EBS burst (m5/c5/r5 up to 2xlarge, m6i/m7i up to
 * 4xlarge: 30 minutes a day at their maximum, then their baseline).
 *
 * The plan runs one device at a time, so "every volume at once" is read
 * on the run's clock: the instance has one bucket, so it falls once, at
 * one second of the run, to its baseline; the device running then shows
 * the fall and every device measured after it is held at that baseline.
 * A cliff is the instance's when its level after is the instance's
 * baseline and not the volume's, the falls of all such devices line up
 * (the same run second, within two windows or 5 %), no device measured
 * after the fall ran above the instance baseline, and the EBS log page
 * 0xD0, where it was read, does not contradict it (instance-exceeded time
 * zero while the volume throttled).  Otherwise it is the volume's.  An
 * instance type the model does not know cannot be judged, and says so. */
#ifndef EBSBENCH_INSTANCE_CLIFF_H
#define EBSBENCH_INSTANCE_CLIFF_H

#include <jansson.h>
#include <stdbool.h>

/* A level within this share of a baseline is at that baseline. */
#define INSTANCE_CLIFF_LEVEL_TOLERANCE 0.15

struct instance_ebs_limits;

/* What together.c shares: a volume's rate at full demand for I/O of bs
 * bytes (its burst, or its baseline once drained) by its label in results,
 * NaN when not recorded; the instance's EBS limit for such I/O (its burst
 * or its baseline figure), in I/O per second; whether x is at level
 * (within INSTANCE_CLIFF_LEVEL_TOLERANCE). */
double instance_cliff_volume_ops(const json_t *results, const char *label, double bs, bool burst);
double instance_cliff_instance_ops(const struct instance_ebs_limits *inst, double bs, bool burst);
bool instance_cliff_near(double x, double level);

/* Judges every cliff of analysis_devices (analysis.devices[]; each found
 * cliff gains "kind": "volume" | "instance" | "unknown") and returns
 * analysis.instance_cliff (see results.h); findings gain its sentence
 * when a cliff was found. */
json_t *instance_cliff_judge(const json_t *results, json_t *analysis_devices, json_t *findings);

#endif
