/* run.h - one run: the config, the devices chosen, the plan of phases, the
 * record of what was measured, the names of the files it writes, the
 * presigned upload block, the Kubernetes objects that launch it, and the
 * run's execution from request to exit status. */
#ifndef EBSBENCH_RUN_FACE_H
#define EBSBENCH_RUN_FACE_H

#include "run/artifacts.h"
#include "run/config.h"
#include "run/run_devices.h"
#include "run/plan.h"
#include "run/run_record.h"
#include "run/run_hist.h"
#include "run/presign.h"
#include "run/launch.h"
#include "run/k8s.h"
#include "run/k8s_apply.h"
#include "run/ec2.h"
#include "run/observe.h"
#include "run/run_exec.h"

#endif
