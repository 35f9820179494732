/* cmd_fio.h - `ebsbench fio`: one job from fio-style options. */
#ifndef EBSBENCH_CMD_FIO_H
#define EBSBENCH_CMD_FIO_H

#include <signal.h>

/* Returns the process exit code: 0 done, 1 the job failed, 2 bad usage,
 * 5 stopped early by SIGINT/SIGTERM (the partial results were written). */
int cmd_fio(int argc, char **argv, const volatile sig_atomic_t *stop);

#endif
