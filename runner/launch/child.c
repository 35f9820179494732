/* child.c - a tool as a child: posix_spawnp with its stdin from an
 * anonymous memory file (so a tool that never reads it cannot block or
 * SIGPIPE ebsbench, and the input never touches the disk), stdout and
 * stderr read through pipes until both close or the time runs out. */
#include "launch/child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/lib.h"

extern char **environ;

#define OUT_MAX (64u << 20) /* `get ... -o json` of a big cluster's NodePools */
/* After the time limit's SIGTERM, how long the group has before SIGKILL. */
#define KILL_AFTER_S 5

/* stdin: an anonymous file holding in, read from its start. */
static int input_fd(const char *tool, const char *in, size_t len, char *err, size_t errlen)
{
	if (!in)
		return open("/dev/null", O_RDONLY | O_CLOEXEC);
	int fd = memfd_create("child-stdin", MFD_CLOEXEC);
	if (fd < 0)
		return error_set(err, errlen, "%s's input: %s", tool, strerror(errno));
	for (size_t at = 0; at < len;) {
		ssize_t w = write(fd, in + at, len - at);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			close(fd);
			return error_set(err, errlen, "%s's input: %s", tool, strerror(errno));
		}
		at += (size_t)w;
	}
	if (lseek(fd, 0, SEEK_SET)) {
		close(fd);
		return error_set(err, errlen, "%s's input: %s", tool, strerror(errno));
	}
	return fd;
}

/* Spawns argv with fds[0..2] as its stdin, stdout, stderr, in a process
 * group of its own, in env (NULL: environ).  0, or -1 said in err. */
static int spawn(char *const *argv, char *const *env, const int fds[3], pid_t *pid, char *err,
		 size_t errlen)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none;
	posix_spawn_file_actions_init(&fa);
	for (int i = 0; i < 3; i++)
		posix_spawn_file_actions_adddup2(&fa, fds[i], i);
	posix_spawnattr_init(&attr);
	sigemptyset(&none);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setpgroup(&attr, 0);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
	int rc = posix_spawnp(pid, argv[0], &fa, &attr, argv, env ? env : environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	if (rc == ENOENT)
		return error_set(err, errlen, "%s is not on PATH: install it, or put it there",
				 argv[0]);
	if (rc)
		return error_set(err, errlen, "cannot run %s: %s", argv[0], strerror(rc));
	return 0;
}

/* Appends what fd has to buf (grown); 0 at EOF, 1 more to come, -1 error. */
static int drain(int fd, char **buf, size_t *len, size_t *cap)
{
	char chunk[16384];
	ssize_t n = read(fd, chunk, sizeof(chunk));
	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : -1;
	if (n == 0)
		return 0;
	if (*len + (size_t)n + 1 > *cap) {
		size_t want = (*len + (size_t)n + 1) * 2;
		char *grown = want <= OUT_MAX ? realloc(*buf, want) : NULL;
		if (!grown)
			return -1;
		*buf = grown;
		*cap = want;
	}
	memcpy(*buf + *len, chunk, (size_t)n);
	*len += (size_t)n;
	(*buf)[*len] = '\0';
	return 1;
}

/* The last non-empty line of text into why. */
static void last_line(const char *text, size_t len, char *why, size_t cap)
{
	size_t end = len;
	while (end && (text[end - 1] == '\n' || text[end - 1] == '\r' || text[end - 1] == ' '))
		end--;
	size_t start = end;
	while (start && text[start - 1] != '\n')
		start--;
	snprintf(why, cap, "%.*s", (int)(end - start), text + start);
}

static int wait_status(pid_t pid)
{
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 127;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The time limit: SIGTERM to the group at its end, SIGKILL KILL_AFTER_S
 * later; the poll's wait until the next of them (-1: none). */
static int enforce_limit(pid_t pid, double end, int *signalled)
{
	if (end <= 0)
		return -1;
	double left = end - now_s();
	if (*signalled == 0 && left <= 0) {
		kill(-pid, SIGTERM);
		*signalled = SIGTERM;
	}
	if (*signalled == SIGTERM && left <= -KILL_AFTER_S) {
		kill(-pid, SIGKILL);
		*signalled = SIGKILL;
	}
	if (*signalled == SIGKILL)
		return 1000;
	double next = *signalled ? left + KILL_AFTER_S : left;
	return next <= 0 ? 0 : (int)(next * 1000) + 1;
}

int child_run(char *const *argv, char *const *env, const char *in, size_t in_len,
	      unsigned timeout_s, struct child_result *res, char *err, size_t errlen)
{
	int out[2] = { -1, -1 }, errp[2] = { -1, -1 };
	memset(res, 0, sizeof(*res));
	int in_fd = input_fd(argv[0], in, in_len, err, errlen);
	if (in_fd < 0)
		return -1;
	if (pipe2(out, O_CLOEXEC) || pipe2(errp, O_CLOEXEC)) {
		error_set(err, errlen, "%s: pipe: %s", argv[0], strerror(errno));
		goto fail;
	}
	pid_t pid;
	if (spawn(argv, env, (int[3]){ in_fd, out[1], errp[1] }, &pid, err, errlen))
		goto fail;
	close(in_fd);
	close(out[1]);
	close(errp[1]);
	char *ebuf = NULL;
	size_t elen = 0, ecap = 0, ocap = 0;
	double end = timeout_s ? now_s() + timeout_s : 0;
	int signalled = 0;
	struct pollfd p[2] = { { out[0], POLLIN, 0 }, { errp[0], POLLIN, 0 } };
	while (p[0].fd >= 0 || p[1].fd >= 0) {
		int wait_ms = enforce_limit(pid, end, &signalled);
		if (poll(p, 2, wait_ms) < 0 && errno != EINTR)
			break;
		for (int i = 0; i < 2; i++) {
			if (p[i].fd < 0 || !p[i].revents)
				continue;
			int rc = i ? drain(p[i].fd, &ebuf, &elen, &ecap)
				   : drain(p[i].fd, &res->out, &res->out_len, &ocap);
			if (rc <= 0) {
				close(p[i].fd);
				p[i].fd = -1;
			}
		}
	}
	res->status = wait_status(pid);
	if (signalled)
		snprintf(res->why, sizeof(res->why), "%s did not answer within %u s", argv[0],
			 timeout_s);
	else
		last_line(ebuf ? ebuf : "", elen, res->why, sizeof(res->why));
	free(ebuf);
	if (!res->out)
		res->out = calloc(1, 1);
	return res->out ? 0 : error_set(err, errlen, "out of memory");
fail:
	close(in_fd);
	for (int i = 0; i < 2; i++) {
		if (out[i] >= 0)
			close(out[i]);
		if (errp[i] >= 0)
			close(errp[i]);
	}
	return -1;
}

void child_result_free(struct child_result *res)
{
	free(res->out);
	res->out = NULL;
}

int child_start(char *const *argv, struct child *c, char *err, size_t errlen)
{
	int out[2];
	c->pid = 0;
	c->out = -1;
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0 || pipe2(out, O_CLOEXEC | O_NONBLOCK)) {
		if (null >= 0)
			close(null);
		return error_set(err, errlen, "%s: %s", argv[0], strerror(errno));
	}
	int rc = spawn(argv, NULL, (int[3]){ null, out[1], null }, &c->pid, err, errlen);
	close(null);
	close(out[1]);
	if (rc) {
		close(out[0]);
		c->pid = 0;
		return -1;
	}
	c->out = out[0];
	return 0;
}

int child_ended(struct child *c)
{
	int st;
	if (!c->pid)
		return 1;
	if (waitpid(c->pid, &st, WNOHANG) != c->pid)
		return 0;
	c->pid = 0;
	return 1;
}

void child_stop(struct child *c)
{
	if (c->pid) {
		kill(c->pid, SIGTERM);
		wait_status(c->pid);
		c->pid = 0;
	}
	if (c->out >= 0)
		close(c->out);
	c->out = -1;
}
