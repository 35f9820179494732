/* test_progress.c - the stderr status line: due every 10 s off a terminal,
 * IOPS over the last interval, and the ETA as h:mm:ss; on a terminal one
 * redrawn line, unless other jobs run beside it. */
#include <pty.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "job/progress.h"

#define SEC 1000000000ull

/* A progress line written to a memory stream (never a terminal: plain lines). */
struct captured {
	char *text;
	size_t len;
	FILE *out;
};

static void capture_open(struct captured *c)
{
	c->text = NULL;
	c->len = 0;
	c->out = open_memstream(&c->text, &c->len);
}

static void capture_close(struct captured *c)
{
	fclose(c->out);
	free(c->text);
}

static void test_plain_line_with_eta(struct checks *checks)
{
	struct captured c;
	struct progress p;
	capture_open(&c);
	CHECK(c.out != NULL);
	progress_init(&p, c.out, "randread on /dev/x", false, 0);
	CHECK(!p.live);
	progress_update(&p, 5 * SEC, 500, 1048576, 0.25, 3723 * SEC);
	fflush(c.out);
	CHECK_EQ_U64(c.len, 0); /* not due before 10 s */
	progress_update(&p, 10 * SEC, 30000, 3 * 1048576, 0.5, 3723 * SEC + SEC / 2);
	fflush(c.out);
	CHECK(c.text && strcmp(c.text, "ebsbench: randread on /dev/x: 3000 IOPS now, 3.0 MiB done, "
				       "50%, ETA 1:02:03\n") == 0);
	progress_finish(&p);
	capture_close(&c);
}

static void test_eta_minutes_and_seconds_padded(struct checks *checks)
{
	struct captured c;
	struct progress p;
	capture_open(&c);
	progress_init(&p, c.out, "seqwrite on /dev/y", false, 0);
	progress_update(&p, 10 * SEC, 0, 0, 1.0, 65 * SEC);
	fflush(c.out);
	CHECK(c.text && strstr(c.text, ", ETA 0:01:05\n") != NULL);
	capture_close(&c);
}

/* 10 s for a billionth of a billionth of the region: the quotient is
 * 10^25 ns, past what uint64_t holds (a cast of it is undefined). */
static void test_eta_stops_at_a_year(struct checks *checks)
{
	CHECK_EQ_U64(progress_eta_ns(10 * SEC, 0.25), 30 * SEC);
	CHECK_EQ_U64(progress_eta_ns(10 * SEC, 1.0), 0);
	CHECK_EQ_U64(progress_eta_ns(10 * SEC, 0.0), 0);
	CHECK_EQ_U64(progress_eta_ns(10 * SEC, 1e-18), PROGRESS_ETA_MAX_NS);
	CHECK_EQ_U64(progress_eta_ns(UINT64_MAX, 0.5), PROGRESS_ETA_MAX_NS);
}

/* On a terminal (a pty here) the line is redrawn each second; a job
 * running beside others writes a line every 10 s, as off a terminal, so
 * no job's line overwrites another's. */
static void test_terminal_live_unless_beside(struct checks *checks)
{
	int master, slave;
	CHECK(openpty(&master, &slave, NULL, NULL, NULL) == 0);
	FILE *tty = fdopen(slave, "w");
	CHECK(tty != NULL);
	if (!tty)
		return;
	unsetenv("EBSBENCH_PROGRESS");
	struct progress p;
	progress_init(&p, tty, "together gp3 on /dev/x", false, 0);
	CHECK(p.live);
	CHECK_EQ_U64(p.interval_ns, SEC);
	progress_init(&p, tty, "together gp3 on /dev/x", true, 0);
	CHECK(!p.live);
	CHECK_EQ_U64(p.interval_ns, 10 * SEC);
	progress_update(&p, 10 * SEC, 1000, 1048576, 0.5, 10 * SEC);
	fflush(tty);
	char buf[256] = { 0 };
	ssize_t n = read(master, buf, sizeof(buf) - 1);
	CHECK(n > 0 && buf[0] == 'e' && strstr(buf, "100 IOPS now") && !strstr(buf, "\033[K"));
	fclose(tty);
	close(master);
}

CHECK_MAIN(test_terminal_live_unless_beside, test_plain_line_with_eta,
	   test_eta_minutes_and_seconds_padded, test_eta_stops_at_a_year)
