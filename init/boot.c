/* boot.c - mounts, console, watchdog and power-off for PID 1. */
#include "boot.h"

#include "boot_guard.h"
#include "supervise.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void mount_one(const char *type, const char *dir, unsigned long flags, const char *opts)
{
	mkdir(dir, 0755);
	if (mount(type, dir, type, flags, opts) && errno != EBUSY)
		say("mount %s on %s: %s", type, dir, strerror(errno));
}

void boot_mount_all(void)
{
	/* devtmpfs first: the console lives there. */
	mkdir("/dev", 0755);
	mount("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, "mode=0755");
	int fd = open("/dev/console", O_RDWR | O_NOCTTY);
	if (fd >= 0) {
		for (int i = 0; i < 3; i++)
			dup2(fd, i);
		if (fd > 2)
			close(fd);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	mount_one("proc", "/proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	mount_one("sysfs", "/sys", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	/* Results and the config (presigned URLs: secrets) live in RAM only. */
	mount_one("tmpfs", "/run", MS_NOSUID | MS_NODEV, "mode=0755");
	mount_one("tmpfs", "/tmp", MS_NOSUID | MS_NODEV, "mode=1777");
}

void say(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "ebsbench-init: %s\n", line);
}

static void on_watchdog(int sig)
{
	(void)sig;
	static const char msg[] = "ebsbench-init: watchdog deadline passed: powering off\n";
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0) {
		/* nothing to do: the power-off matters, not the message */
	}
	boot_guard_clear();
	sync();
	reboot(RB_POWER_OFF);
	_exit(1);
}

void boot_watchdog_arm(unsigned seconds)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_watchdog;
	sigaction(SIGALRM, &sa, NULL);
	alarm(seconds);
}

_Noreturn void boot_poweroff(void)
{
	say("powering off");
	fflush(NULL);
	boot_guard_clear();
	sync();
	reboot(RB_POWER_OFF);
	/* Not reached unless the kernel refused; PID 1 must not exit. */
	for (;;)
		pause();
}

_Noreturn void boot_rescue_shell(void)
{
	say("rescue shell on the console; exit it to power off (the watchdog still runs)");
	char *argv[] = { "/bin/sh", NULL };
	struct supervise_result r;
	supervise(argv, -1, NULL, 0, 0, &r);
	boot_poweroff();
}

double boot_uptime_s(void)
{
	struct timespec up;
	clock_gettime(CLOCK_BOOTTIME, &up);
	return (double)up.tv_sec + (double)up.tv_nsec / 1e9;
}

long long boot_kernel_start_ms(void)
{
	struct timespec up, now;
	clock_gettime(CLOCK_BOOTTIME, &up);
	clock_gettime(CLOCK_REALTIME, &now);
	return (long long)(now.tv_sec - up.tv_sec) * 1000 + (now.tv_nsec - up.tv_nsec) / 1000000;
}
