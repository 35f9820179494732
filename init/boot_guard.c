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
	return stat(BOOT_GUARD_VAR, &st) == 0 ? BOOT_GUARD_TRIPPED : BOOT_GUARD_CLEAR;
}

void boot_guard_arm(void)
{
	struct stat st;
	if (stat("/sys/firmware/efi", &st) != 0)
		return;
	const uint32_t attributes = EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS |
				    EFI_VARIABLE_RUNTIME_ACCESS;
	unsigned char buf[5] = { attributes & 0xff, 0, 0, 0, 1 };
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
