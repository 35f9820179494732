/* test_init.c - the appliance's PID 1 pieces that run anywhere: the
 * kernel command line, base64, the config it hands to the run, the
 * verdict line, and supervise() with real child processes. */
#include <jansson.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boot_guard.h"
#include "check.h"
#include "lib/clock.h"
#include "cmdline.h"
#include "config_source.h"
#include "lib/lib.h"
#include "supervise.h"
#include "verdict.h"
#include "launch/child.h"

static void test_cmdline_value(struct checks *checks)
{
	const char *line = "console=ttyS0 panic=5 ebsbench.config=e30= ebsbench.rescue=1\n";
	char v[16];
	CHECK(cmdline_value(line, "ebsbench.config", v, sizeof(v)) == 1 && !strcmp(v, "e30="));
	CHECK(cmdline_value(line, "ebsbench.rescue", v, sizeof(v)) == 1 && !strcmp(v, "1"));
	CHECK(cmdline_value(line, "panic", v, sizeof(v)) == 1 && !strcmp(v, "5"));
	/* A prefix of a key is not the key. */
	CHECK(cmdline_value(line, "ebsbench.conf", v, sizeof(v)) == 0 && v[0] == '\0');
	CHECK(cmdline_value(line, "console=ttyS0", v, sizeof(v)) == 0);
	/* The last word wins, as for the kernel's own parameters. */
	CHECK(cmdline_value("a=1 a=2", "a", v, sizeof(v)) == 1 && !strcmp(v, "2"));
	CHECK(cmdline_value("a=0123456789abcdef", "a", v, sizeof(v)) == -1 && v[0] == '\0');
	CHECK(cmdline_value("", "a", v, sizeof(v)) == 0);
}

static void test_base64(struct checks *checks)
{
	unsigned char out[64];
	long n = base64_decode("eyJhIjogMX0=", out, sizeof(out));
	CHECK(n == 8 && !memcmp(out, "{\"a\": 1}", 8));
	/* URL-safe alphabet and no padding: what survives a command line. */
	CHECK(base64_decode("-_8", out, sizeof(out)) == 2 && out[0] == 0xfb && out[1] == 0xff);
	CHECK(base64_decode("ab$c", out, sizeof(out)) == -1);
	CHECK(base64_decode("YWJj", out, 2) == -1);
	CHECK(base64_decode("YQ==x", out, sizeof(out)) == -1);
	CHECK(base64_decode("", out, sizeof(out)) == 0);
}

static void test_config_from_cmdline(struct checks *checks)
{
	char err[256] = "";
	char *text = config_from_cmdline("eyJhIjogMX0", err, sizeof(err));
	CHECK(text && !strcmp(text, "{\"a\": 1}"));
	free(text);
	CHECK(!config_from_cmdline("not base64!", err, sizeof(err)));
	CHECK(strstr(err, "neither a /path nor base64") != NULL);
	CHECK(!config_from_cmdline("/no/such/config.json", err, sizeof(err)));
	CHECK(strstr(err, "/no/such/config.json") && strstr(err, "No such file"));
}

static void test_config_for_run(struct checks *checks)
{
	struct imds_facts f = { "m5.xlarge", "i-0abc", "ap-northeast-2a" };
	char err[256] = "";
	json_t *c = config_for_run("{\"environment\": {\"instance_type\": \"c5.large\"}}",
				   "user-data", &f, err, sizeof(err));
	json_t *env = json_object_get(c, "environment");
	/* The config's own words win; IMDS fills the rest. */
	CHECK(!strcmp(json_string_value(json_object_get(env, "instance_type")), "c5.large"));
	CHECK(!strcmp(json_string_value(json_object_get(env, "instance_id")), "i-0abc"));
	CHECK(!strcmp(json_string_value(json_object_get(env, "zone")), "ap-northeast-2a"));
	json_decref(c);

	struct imds_facts none = { "", "", "" };
	c = config_for_run("{}", "fw_cfg", &none, err, sizeof(err));
	CHECK(c && json_object_size(json_object_get(c, "environment")) == 0);
	json_decref(c);

	CHECK(!config_for_run("{\"devices\": [", "user-data", &f, err, sizeof(err)));
	CHECK(!strncmp(err, "user-data is not valid JSON: line 1 column", 42));
	CHECK(!config_for_run("[1]", "user-data", &f, err, sizeof(err)));
	CHECK(strstr(err, "not an object") != NULL);
	CHECK(!config_for_run("{\"environment\": 3}", "user-data", &f, err, sizeof(err)));
	CHECK(strstr(err, "'environment' must be an object") != NULL);
	CHECK(!config_for_run("{\"a\": 1, \"a\": 2}", "user-data", &f, err, sizeof(err)));
}

static void test_verdict_line(struct checks *checks)
{
	char line[512];
	struct supervise_result r = { .status = 0 };
	verdict_line(line, sizeof(line), &r, true, 12, 2, 181.4);
	CHECK(!strcmp(line, "OK: 12 phase(s) on 2 device(s) in 181 s; results uploaded"));
	r.status = 4;
	verdict_line(line, sizeof(line), &r, true, 12, 2, 181);
	CHECK(!strncmp(line, "MEASURED: ", 10) && strstr(line, "upload FAILED"));
	r.status = 0;
	verdict_line(line, sizeof(line), &r, false, 1, 1, 5);
	CHECK(strstr(line, "no upload configured") != NULL);
	r = (struct supervise_result){ .status = 143, .timed_out = true };
	verdict_line(line, sizeof(line), &r, true, 3, 2, 700);
	CHECK(!strncmp(line, "STOPPED by the watchdog deadline after 700 s", 44));
	/* A failed phase (exit 1) hides a failed upload's 4: the record says it. */
	r = (struct supervise_result){ .status = 1 };
	verdict_line(line, sizeof(line), &r, VERDICT_UPLOAD_FAILED, 4, 2, 30);
	CHECK(!strncmp(line, "FAILED: a phase failed", 22) && strstr(line, "upload FAILED"));
	verdict_line(line, sizeof(line), &r, VERDICT_UPLOADED, 4, 2, 30);
	CHECK(strstr(line, "; results uploaded") != NULL);
	r = (struct supervise_result){ .status = 3 };
	verdict_line(line, sizeof(line), &r, true, 0, 0, 1);
	CHECK(!strncmp(line, "REFUSED: ", 9));
	r = (struct supervise_result){ .status = 137 };
	verdict_line(line, sizeof(line), &r, true, 0, 0, 1);
	CHECK(strstr(line, "killed by signal 9") != NULL);
	/* A run a SIGTERM stopped before its end: not "FAILED", and it says so. */
	r = (struct supervise_result){ .status = EXIT_STOPPED };
	verdict_line(line, sizeof(line), &r, VERDICT_UPLOADED, 2, 1, 40);
	CHECK(!strcmp(line, "STOPPED before its end (ebsbench run exit 5): 2 phase(s) on 1 "
			    "device(s) in 40 s; results uploaded"));
}

/* A boot that finds the guard set resumes once, only with resume_get; a
 * resumed boot that died too, or no UEFI to count boots with, never. */
static void test_boot_guard_decide(struct checks *checks)
{
	CHECK(boot_guard_decide(BOOT_GUARD_CLEAR, true) == BOOT_GUARD_RUN);
	CHECK(boot_guard_decide(BOOT_GUARD_CLEAR, false) == BOOT_GUARD_RUN);
	CHECK(boot_guard_decide(BOOT_GUARD_TRIPPED, true) == BOOT_GUARD_RESUME);
	CHECK(boot_guard_decide(BOOT_GUARD_TRIPPED, false) == BOOT_GUARD_REFUSE);
	CHECK(boot_guard_decide(BOOT_GUARD_TRIPPED_RESUMED, true) == BOOT_GUARD_REFUSE);
	CHECK(boot_guard_decide(BOOT_GUARD_TRIPPED_RESUMED, false) == BOOT_GUARD_REFUSE);
	CHECK(boot_guard_decide(BOOT_GUARD_UNAVAILABLE, true) == BOOT_GUARD_RUN);
}

static void test_supervise_exit_and_output(struct checks *checks)
{
	char path[] = "/tmp/test_init_outXXXXXX";
	int fd = mkstemp(path);
	char *argv[] = { "/bin/sh", "-c", "echo \"$WHO\"; exit 3", NULL };
	char who[] = "WHO=child";
	char *env[] = { who, NULL };
	struct supervise_result r;
	supervise(argv, fd, env, 0, 0, &r);
	close(fd);
	char *out = read_small_file(path, 64);
	CHECK(r.status == 3 && !r.timed_out && r.forwarded == 0);
	CHECK(out && !strcmp(out, "child\n"));
	free(out);
	unlink(path);

	char *missing[] = { "/no/such/program", NULL };
	supervise(missing, -1, NULL, 0, 0, &r);
	CHECK(r.status == 127);
}

static void test_supervise_deadline(struct checks *checks)
{
	double now = (double)clock_now_ns() / 1e9;
	char *argv[] = { "/bin/sh", "-c", "sleep 30", NULL };
	struct supervise_result r;
	supervise(argv, -1, NULL, now + 0.5, 10, &r);
	/* SIGTERM at the deadline; the grace period was not needed. */
	CHECK(r.timed_out && r.status == 128 + SIGTERM);
	CHECK((double)clock_now_ns() / 1e9 - now < 5);

	/* A child that ignores SIGTERM gets SIGKILL once the grace is over. */
	char *stubborn[] = { "/bin/sh", "-c", "trap '' TERM; sleep 30", NULL };
	now = (double)clock_now_ns() / 1e9;
	supervise(stubborn, -1, NULL, now + 0.2, 1, &r);
	CHECK(r.timed_out && r.status == 128 + SIGKILL);
	CHECK((double)clock_now_ns() / 1e9 - now < 8);
}

static void test_supervise_forwards_signals(struct checks *checks)
{
	/* The child reports the signal it got through its exit code. */
	char *argv[] = { "/bin/sh", "-c", "trap 'exit 42' HUP; sleep 30 & wait", NULL };
	pid_t me = getpid();
	pid_t sender = fork();
	if (sender == 0) {
		usleep(300000);
		kill(me, SIGHUP);
		_exit(0);
	}
	struct supervise_result r;
	supervise(argv, -1, NULL, (double)clock_now_ns() / 1e9 + 20, 1, &r);
	CHECK(r.forwarded == SIGHUP && r.status == 42 && !r.timed_out);
	supervise_reap();
}

/* The hex mask on the "NAME:" line of a /proc/PID/status dump; all ones
 * when the line is missing, so a missing line never reads as "none". */
static unsigned long long status_mask(const char *status, const char *name)
{
	const char *line = strstr(status, name);
	if (!line)
		return ~0ULL;
	return strtoull(line + strlen(name), NULL, 16);
}

/* What a supervisor may inherit from nohup, a CI runner or GNU make:
 * SIGHUP, SIGTERM, SIGUSR2, SIGPIPE and libc's own signal 33 (musl's and
 * glibc's both) ignored, SIGUSR1 blocked.  Saved to be put back. */
#define INHERITED_IGNORED 4
#define LIBC_OWN_SIGNAL 33
struct inherited_signals {
	struct sigaction saved[INHERITED_IGNORED];
	void (*saved_libc_own)(int);
	sigset_t saved_mask;
};
static const int inherited_ignored[INHERITED_IGNORED] = { SIGHUP, SIGTERM, SIGUSR2, SIGPIPE };

/* Ignores and blocks as above; returns 0, or -1 if signal 33 could not be set. */
static int inherit_signals(struct inherited_signals *st)
{
	struct sigaction ign = { .sa_handler = SIG_IGN };
	sigemptyset(&ign.sa_mask);
	for (size_t i = 0; i < INHERITED_IGNORED; i++)
		sigaction(inherited_ignored[i], &ign, &st->saved[i]);
	sigset_t usr1;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, &st->saved_mask);
	return supervise_kernel_handler(LIBC_OWN_SIGNAL, SIG_IGN, &st->saved_libc_own);
}

/* Puts back what inherit_signals changed. */
static void restore_signals(const struct inherited_signals *st)
{
	supervise_kernel_handler(LIBC_OWN_SIGNAL, st->saved_libc_own, NULL);
	sigprocmask(SIG_SETMASK, &st->saved_mask, NULL);
	for (size_t i = 0; i < INHERITED_IGNORED; i++)
		sigaction(inherited_ignored[i], &st->saved[i], NULL);
}

/* The child starts with every signal at its default and none blocked,
 * whatever the supervisor itself inherited. */
static void test_supervise_child_signal_defaults(struct checks *checks)
{
	struct inherited_signals st;
	CHECK(inherit_signals(&st) == 0);
	/* grep reads its own status: what the child inherited through exec. */
	char path[] = "/tmp/test_init_sigXXXXXX";
	int fd = mkstemp(path);
	char *argv[] = { "/bin/grep", "-E", "^Sig(Ign|Blk):", "/proc/self/status", NULL };
	struct supervise_result r;
	supervise(argv, fd, NULL, 0, 0, &r);
	close(fd);
	restore_signals(&st);

	char *out = read_small_file(path, 256);
	unlink(path);
	CHECK(r.status == 0);
	CHECK(out != NULL);
	if (!out)
		return;
	CHECK_EQ_U64(status_mask(out, "SigIgn:"), 0);
	CHECK_EQ_U64(status_mask(out, "SigBlk:"), 0);
	free(out);
}

int main(void)
{
	/* Run as under nohup, whatever started the test: SIGHUP ignored on
	 * entry, which the child must not inherit (the forwarding test). */
	signal(SIGHUP, SIG_IGN);
	supervise_block();
	static check_test *const tests[] = { test_cmdline_value,
					     test_base64,
					     test_config_from_cmdline,
					     test_config_for_run,
					     test_verdict_line,
					     test_boot_guard_decide,
					     test_supervise_exit_and_output,
					     test_supervise_deadline,
					     test_supervise_forwards_signals,
					     test_supervise_child_signal_defaults };
	return checks_run(tests, ARRAY_SIZE(tests));
}
