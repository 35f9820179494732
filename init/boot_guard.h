/* boot_guard.h - a boot that did not finish must not start the run again.
 *
 * A kernel panic reboots (panic=N: Linux has no power-off on panic), and
 * so may a hang that the hypervisor resets.  On EC2 that would start the
 * whole run again: a second sequence on volumes whose credits the first
 * one spent, and its uploads over the first one's.  So PID 1 keeps a
 * UEFI variable set while it runs (UEFI keeps variables across a reboot)
 * and clears it on every way out through boot_poweroff(); finding it set
 * at boot means the previous boot died, and the appliance powers off
 * instead, unless the run can be continued: with the upload block's
 * resume_get (a presigned GET of the run's own results.json in S3) the
 * next boot resumes it once (`run --resume=auto`: the phases finished are
 * kept, the gap recorded), as a lost pod's replacement does.  The
 * variable's byte counts the boots of the run, so a resumed boot that
 * dies too powers off: no loop.  Without UEFI variables (a direct kernel boot in QEMU) there
 * is no guard, and none is needed: QEMU's -no-reboot exits on a panic. */
#ifndef EBSBENCH_INIT_BOOT_GUARD_H
#define EBSBENCH_INIT_BOOT_GUARD_H

#include <stdbool.h>

#define EFIVARS_DIR "/sys/firmware/efi/efivars"
/* A vendor GUID of our own ("ebsnbench" in its first bytes). */
#define BOOT_GUARD_VAR EFIVARS_DIR "/EbsbenchRunning-6562736e-6265-6e63-6800-000000000003"

enum boot_guard_state {
	BOOT_GUARD_CLEAR,	    /* not set: the previous boot finished */
	BOOT_GUARD_TRIPPED,	    /* set: the previous boot died in its run */
	BOOT_GUARD_TRIPPED_RESUMED, /* set by a resumed boot, which died too */
	BOOT_GUARD_UNAVAILABLE,	    /* no UEFI variables here */
};

/* What this boot does with its run. */
enum boot_guard_action {
	BOOT_GUARD_RUN,	   /* the run from its start */
	BOOT_GUARD_RESUME, /* `run --resume=auto`: continue the stopped run */
	BOOT_GUARD_REFUSE, /* power off rather than run again */
};

/* The action for a boot that found the guard in state, with or without
 * the resume_get URL in its config.  Without UEFI there is no telling a
 * reset from a first boot, nor a second reset from a first: no resume. */
enum boot_guard_action boot_guard_decide(enum boot_guard_state state, bool resume_get);

/* At boot: mounts efivarfs when the firmware is UEFI and says whether
 * the variable is set. */
enum boot_guard_state boot_guard_check(void);

/* Just before the run: sets the variable (nothing without UEFI), to
 * say a resumed boot when resumed.  Only
 * from here on is a reboot a second run; a boot that dies before (no
 * config yet, IMDS down) may start again, and an instance stopped from
 * outside before its run is not refused at its next start. */
void boot_guard_arm(bool resumed);

/* Clears the variable; async-signal-safe (the watchdog calls it). */
void boot_guard_clear(void);

#endif
