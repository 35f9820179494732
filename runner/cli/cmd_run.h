/* cmd_run.h - `ebsbench run`: discover, guard, run the plan, analyse, report. */
#ifndef EBSBENCH_CMD_RUN_H
#define EBSBENCH_CMD_RUN_H

#include <signal.h>

/* Exit codes: 0 done, 1 a phase failed, 2 bad usage or config, 3 refused
 * to write to a device that holds data. */
int cmd_run(int argc, char **argv, const volatile sig_atomic_t *stop);

#endif
