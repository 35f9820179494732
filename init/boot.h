/* boot.h - what PID 1 sets up before anything else, and the way out.
 *
 * The appliance ends one way only: boot_poweroff().  A watchdog
 * (boot_watchdog_arm) powers off from a signal handler if PID 1 itself
 * gets stuck; panic=N on the command line covers a kernel panic (QEMU's
 * -no-reboot and EC2's shutdown behaviour turn that into a stop). */
#ifndef EBSBENCH_INIT_BOOT_H
#define EBSBENCH_INIT_BOOT_H

#include <stdarg.h>

/* proc, sys, devtmpfs, /run and /tmp (tmpfs); the console on fds 0-2. */
void boot_mount_all(void);

/* "ebsbench-init: " + the message, on the console (stderr). */
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Powers off in seconds from now, whatever PID 1 is doing then. */
void boot_watchdog_arm(unsigned seconds);

/* Syncs and powers off; never returns. */
_Noreturn void boot_poweroff(void);

/* A shell on the console (ebsbench.rescue=1), then power off. */
_Noreturn void boot_rescue_shell(void);

/* Seconds since the kernel started (CLOCK_BOOTTIME), for the console. */
double boot_uptime_s(void);

/* Kernel start as wall-clock ms: now minus the uptime. */
long long boot_kernel_start_ms(void);

#endif
