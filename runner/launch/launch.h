/* launch.h - launch/'s face: a run launched from the operator's machine,
 * by `ebsbench presign` (presign.h), `ebsbench k8s` (k8s.h, k8s_apply.h)
 * and `ebsbench ec2` (ec2.h, ec2_launch.h), and the --volume syntax the
 * launchers and recommend take.  What the launchers share among themselves
 * (the run's config made from the volumes, its POST policy, the deadlines
 * that follow from the plan) is in launch/internal.h. */
#ifndef EBSBENCH_LAUNCH_H
#define EBSBENCH_LAUNCH_H

#include <stddef.h>

#include "model/model.h"
#include "launch/presign.h"
#include "launch/ec2.h"
#include "launch/k8s.h"
#include "launch/k8s_apply.h"
#include "launch/ec2_launch.h"

/* The instance a launcher asks for unless --instance-type names another:
 * the benchmark write-up's. */
#define LAUNCH_DEFAULT_INSTANCE_TYPE "m5.xlarge"

/* `--volume TYPE:SIZE[:IOPS[:MIBPS]]` ("gp3:100:3000:125", "gp2:100"):
 * sizes in GiB; IOPS for gp3, io1 and io2, MiB/s for gp3 only (the others'
 * follow from size or IOPS); what is left out is the type's default.
 * Checked against the EBS model's limits.  0, or -1 with a reason. */
int launch_parse_volume(const char *text, struct ebs_volume *v, char *err, size_t errlen);

#endif
