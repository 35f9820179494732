/* no_io_uring.c - run a command with io_uring_setup refused by a seccomp
 * filter, as container runtimes' default profiles refuse it.
 *
 *   no-io-uring ENOSYS|EPERM CMD [ARG...]
 *
 * The filter returns the chosen errno for io_uring_setup and allows every
 * other system call of this build's architecture; a call made under any
 * other architecture (an x86-64 process can still enter through the i386
 * or x32 tables) kills the process, because its numbers mean other calls
 * and a filter that only looked at the number would let io_uring through.
 * PR_SET_NO_NEW_PRIVS comes first: without it an unprivileged caller may
 * not install a filter, and with it a set-uid CMD cannot shed the filter. */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/lib.h"

#if defined(__x86_64__)
#define FILTER_ARCH AUDIT_ARCH_X86_64
/* x32 calls share x86-64's audit arch; their numbers carry this bit. */
#define FILTER_FOREIGN_NR_BIT 0x40000000u
#elif defined(__aarch64__)
#define FILTER_ARCH AUDIT_ARCH_AARCH64
#define FILTER_FOREIGN_NR_BIT 0u
#else
#error "no-io-uring: add this architecture's AUDIT_ARCH_* value"
#endif

static const char usage[] = "usage: no-io-uring ENOSYS|EPERM CMD [ARG...]\n";

/* The errno a mode name stands for; -1 if the name is not a mode. */
static int errno_of_mode(const char *mode)
{
	if (!strcmp(mode, "ENOSYS"))
		return ENOSYS;
	if (!strcmp(mode, "EPERM"))
		return EPERM;
	return -1;
}

/* Installs the filter: io_uring_setup fails with refusal_errno, a foreign
 * architecture's call kills the process, everything else runs. */
static int install_filter(int refusal_errno, char *err, size_t errlen)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FILTER_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, FILTER_FOREIGN_NR_BIT, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (unsigned)refusal_errno),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = ARRAY_SIZE(code), .filter = code };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		snprintf(err, errlen, "PR_SET_NO_NEW_PRIVS: %s", strerror(errno));
		return -1;
	}
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0)) {
		snprintf(err, errlen, "PR_SET_SECCOMP: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	char err[128];
	if (argc < 3) {
		fputs(usage, stderr);
		return 2;
	}
	int refusal_errno = errno_of_mode(argv[1]);
	if (refusal_errno < 0) {
		fprintf(stderr, "no-io-uring: unknown mode '%s' (ENOSYS or EPERM)\n", argv[1]);
		return 2;
	}
	if (install_filter(refusal_errno, err, sizeof(err))) {
		fprintf(stderr, "no-io-uring: %s\n", err);
		return 1;
	}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "no-io-uring: cannot run %s: %s\n", argv[2], strerror(errno));
	return 127;
}
