/* supervise.c - fork, exec, forward, reap, time out. */
#include "supervise.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/lib.h"

static void waited_set(sigset_t *s)
{
	sigemptyset(s);
	sigaddset(s, SIGCHLD);
	sigaddset(s, SIGTERM);
	sigaddset(s, SIGINT);
	sigaddset(s, SIGHUP);
}

void supervise_block(void)
{
	sigset_t s;
	waited_set(&s);
	sigprocmask(SIG_BLOCK, &s, NULL);
}

void supervise_reap(void)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

int supervise_kernel_handler(int sig, void (*handler)(int), void (**old)(int))
{
#if defined(__x86_64__) || defined(__aarch64__)
	/* The kernel's struct sigaction on both, as four words: handler,
	 * flags, restorer, a 64-bit mask. */
	_Static_assert(sizeof(handler) == sizeof(uint64_t), "a handler is one word");
	uint64_t act[4] = { 0 }, prev[4] = { 0 };
	memcpy(&act[0], &handler, sizeof(handler));
	if (syscall(SYS_rt_sigaction, sig, act, prev, sizeof(act[3])))
		return -1;
	if (old)
		memcpy(old, &prev[0], sizeof(*old));
	return 0;
#else
	(void)sig;
	(void)handler;
	(void)old;
	errno = ENOSYS;
	return -1;
#endif
}

/* One signal back to SIG_DFL: through libc, or through the kernel for the
 * signals libc refuses because it keeps them for itself. */
static void signal_to_default(int sig)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigemptyset(&dfl.sa_mask);
	if (sigaction(sig, &dfl, NULL) != 0 && errno == EINVAL)
		supervise_kernel_handler(sig, SIG_DFL, NULL);
}

/* In the child: every signal back to its default action and none blocked.
 * exec keeps ignored signals and the mask as they are, so a child started
 * by an init that was itself started under nohup (SIGHUP ignored) or by a
 * CI runner would otherwise never see the signals forwarded to it, and a
 * shell cannot even trap a signal ignored on entry. */
static void signals_to_defaults(void)
{
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal_to_default(sig);
	sigset_t all;
	sigfillset(&all);
	sigprocmask(SIG_UNBLOCK, &all, NULL);
}

/* Forks and execs argv[0] in a session of its own; returns its pid. */
static pid_t start_child(char *const argv[], int out_fd, char *const extra_env[])
{
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	signals_to_defaults();
	setsid(); /* its own group: a signal for it reaches its children too */
	if (out_fd >= 0)
		dup2(out_fd, STDOUT_FILENO);
	for (size_t i = 0; extra_env && extra_env[i]; i++)
		putenv(extra_env[i]);
	execv(argv[0], argv);
	fprintf(stderr, "ebsbench-init: cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* Reaps everything; 1 once the child has exited (its status in r). */
static int reap_until_child(pid_t child, struct supervise_result *r)
{
	int st;
	pid_t p;
	while ((p = waitpid(-1, &st, WNOHANG)) > 0) {
		if (p != child)
			continue; /* an orphan handed to PID 1 */
		r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		return 1;
	}
	return 0;
}

void supervise(char *const argv[], int out_fd, char *const extra_env[], double deadline_s,
	       double grace_s, struct supervise_result *r)
{
	memset(r, 0, sizeof(*r));
	r->status = -1;
	pid_t child = start_child(argv, out_fd, extra_env);
	if (child < 0)
		return;
	sigset_t waited;
	waited_set(&waited);
	double kill_at = 0;
	for (;;) {
		if (reap_until_child(child, r))
			return;
		double now = (double)clock_now_ns() / 1e9;
		if (deadline_s > 0 && now >= deadline_s && !r->timed_out) {
			r->timed_out = true;
			kill(-child, SIGTERM);
			kill_at = now + grace_s;
		}
		if (kill_at > 0 && now >= kill_at)
			kill(-child, SIGKILL);
		struct timespec tick = { 1, 0 };
		int sig = sigtimedwait(&waited, NULL, &tick);
		if (sig == SIGTERM || sig == SIGINT || sig == SIGHUP) {
			kill(-child, sig);
			r->forwarded = sig;
		}
	}
}
