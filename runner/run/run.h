/* run.h - the face of run/: one run as others see it.  The config and its
 * devices (config.h, run_devices.h), the plan of phases (plan.h), the
 * names of the files it writes (artifacts.h), the prices it recorded
 * (run_record.h), and its execution from request to exit status
 * (run_exec.h).  Launching a run elsewhere is launch/'s. */
#ifndef EBSBENCH_RUN_FACE_H
#define EBSBENCH_RUN_FACE_H

#include "run/artifacts.h"
#include "run/config.h"
#include "run/run_devices.h"
#include "run/plan.h"
#include "run/run_record.h"
#include "run/run_exec.h"

#endif
