/* boot_guard.c - the "run in progress" UEFI variable, through efivarfs. */
#include "boot_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

/* efivarfs files are the attributes (u32, little-endian) then the data. */
#define EFI_VARIABLE_NON_VOLATILE 0x1u
#define EFI_VARIABLE_BOOTSERVICE_ACCESS 0x2u
#define EFI_VARIABLE_RUNTIME_ACCESS 0x4u

enum boot_guard_state boot_guard_check(void)
{
	struct stat st;
	if (stat("/sys/firmware/efi", &st) != 0)
		return BOOT_GUARD_UNAVAILABLE;
	if (mount("efivarfs", EFIVARS_DIR, "efivarfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) &&
	    errno != EBUSY)
		return BOOT_GUARD_UNAVAILABLE;
	/* The attributes (4 bytes), then the boots of the run (1 byte). */
	unsigned char buf[5] = { 0 };
	int fd = open(BOOT_GUARD_VAR, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return BOOT_GUARD_CLEAR;
	ssize_t n = read(fd, buf, sizeof(buf));
	close(fd);
	return n == (ssize_t)sizeof(buf) && buf[4] >= 2 ? BOOT_GUARD_TRIPPED_RESUMED
							: BOOT_GUARD_TRIPPED;
}

enum boot_guard_action boot_guard_decide(enum boot_guard_state state, bool resume_get)
{
	switch (state) {
	case BOOT_GUARD_TRIPPED:
		return resume_get ? BOOT_GUARD_RESUME : BOOT_GUARD_REFUSE;
	case BOOT_GUARD_TRIPPED_RESUMED:
		return BOOT_GUARD_REFUSE;
	default:
		return BOOT_GUARD_RUN;
	}
}

void boot_guard_arm(bool resumed)
{
	struct stat st;
	if (stat("/sys/firmware/efi", &st) != 0)
		return;
	boot_guard_clear(); /* the tripped variable is immutable: a new one */
	const uint32_t attributes = EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS |
				    EFI_VARIABLE_RUNTIME_ACCESS;
	unsigned char buf[5] = { attributes & 0xff, 0, 0, 0, resumed ? 2 : 1 };
	int fd = open(BOOT_GUARD_VAR, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	/* efivarfs takes a variable in one write. */
	if (fd >= 0 && write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
		unlink(BOOT_GUARD_VAR);
	if (fd >= 0)
		close(fd);
}

void boot_guard_clear(void)
{
	if (unlink(BOOT_GUARD_VAR) == 0 || errno != EPERM)
		return;
	/* efivarfs makes a variable it finds at mount immutable: lift that. */
	int fd = open(BOOT_GUARD_VAR, O_RDONLY | O_CLOEXEC);
	int flags = 0;
	if (fd >= 0 && ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0) {
		flags &= ~FS_IMMUTABLE_FL;
		ioctl(fd, FS_IOC_SETFLAGS, &flags);
	}
	if (fd >= 0)
		close(fd);
	unlink(BOOT_GUARD_VAR);
}
