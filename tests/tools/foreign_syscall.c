/* foreign_syscall.c - on x86-64, call getpid through another ABI's system
 * call table (i386 through int 0x80, or x32's numbers), the back doors a
 * seccomp filter must shut by checking seccomp_data.arch and the x32 bit.
 *
 *   foreign-syscall i386|x32
 *
 * Prints the call's raw return value and exits 0; under no-io-uring the
 * process is killed (SIGSYS) before the call runs. */
#include <stdio.h>
#include <string.h>

#if !defined(__x86_64__)
#error "foreign-syscall: only x86-64 has foreign system call tables to test"
#endif

#define I386_NR_GETPID 20L
#define X32_NR_GETPID (0x40000000L | 39L)

/* getpid through the i386 table: int 0x80 takes eax as the number. */
static long getpid_i386(void)
{
	long ret;
	__asm__ volatile("int $0x80" : "=a"(ret) : "a"(I386_NR_GETPID) : "memory");
	return ret;
}

/* getpid with x32's number through the 64-bit entry (-ENOSYS where the
 * kernel has x32 disabled, as Debian's does by default). */
static long getpid_x32(void)
{
	long ret;
	__asm__ volatile("syscall" : "=a"(ret) : "a"(X32_NR_GETPID) : "rcx", "r11", "memory");
	return ret;
}

int main(int argc, char **argv)
{
	if (argc != 2 || (strcmp(argv[1], "i386") && strcmp(argv[1], "x32"))) {
		fputs("usage: foreign-syscall i386|x32\n", stderr);
		return 2;
	}
	long ret = strcmp(argv[1], "i386") ? getpid_x32() : getpid_i386();
	printf("%ld\n", ret);
	return 0;
}
