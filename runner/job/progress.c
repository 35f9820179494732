/* progress.c - the stderr status line. */
#include "job/progress.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void progress_init(struct progress *p, FILE *out, const char *label, bool beside, uint64_t now_ns)
{
	p->out = out;
	/* A serial console is a terminal that ends up read as a log (EC2's
	 * console output): EBSBENCH_PROGRESS=plain asks for lines there. */
	const char *mode = getenv("EBSBENCH_PROGRESS");
	p->live = !beside && isatty(fileno(out)) && !(mode && !strcmp(mode, "plain"));
	snprintf(p->label, sizeof(p->label), "%s", label);
	p->interval_ns = (p->live ? 1 : 10) * 1000000000ull;
	p->next_ns = now_ns + p->interval_ns;
	p->last_ns = now_ns;
	p->last_ios = 0;
	p->remaining_after_ns = 0;
	p->drawn = false;
}

/* ns as "1:02:03", the way fio shows elapsed time and ETA. */
static void format_hms(char *buf, size_t len, uint64_t ns)
{
	uint64_t s = ns / 1000000000ull;
	snprintf(buf, len, "%" PRIu64 ":%02" PRIu64 ":%02" PRIu64, s / 3600, s / 60 % 60, s % 60);
}

void progress_update(struct progress *p, uint64_t now_ns, uint64_t ios, uint64_t bytes,
		     double fraction_done, uint64_t eta_ns)
{
	if (now_ns < p->next_ns)
		return;
	double span = (double)(now_ns - p->last_ns) / 1e9;
	double iops = span > 0 ? (double)(ios - p->last_ios) / span : 0;
	char eta[32];
	format_hms(eta, sizeof(eta), eta_ns);
	fprintf(p->out, "%sebsbench: %s: %.0f IOPS now, %.1f MiB done, %.0f%%, ETA %s%s",
		p->live ? "\r\033[K" : "", p->label, iops, (double)bytes / 1048576.0,
		fraction_done * 100.0, eta, p->live ? "" : "\n");
	fflush(p->out);
	p->drawn = true;
	p->last_ns = now_ns;
	p->last_ios = ios;
	p->next_ns = now_ns + p->interval_ns;
}

uint64_t progress_eta_ns(uint64_t elapsed_ns, double fraction_done)
{
	if (!(fraction_done > 0))
		return 0;
	double left = (double)elapsed_ns * (1 - fraction_done) / fraction_done;
	return left < (double)PROGRESS_ETA_MAX_NS ? (uint64_t)left : PROGRESS_ETA_MAX_NS;
}

void progress_finish(struct progress *p)
{
	if (p->live && p->drawn)
		fputs("\n", p->out);
}
