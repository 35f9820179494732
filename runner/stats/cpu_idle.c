/* cpu_idle.c - CPU idleness from /proc/stat's idle and iowait ticks. */
#include "stats/cpu_idle.h"
#include "stats/internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One "cpu" or "cpuN" line's ticks into slot: user nice system idle iowait
 * irq softirq steal (guest time is already in user). */
static int parse_line(const char *line, uint64_t *idle, uint64_t *total)
{
	uint64_t v[8] = { 0 };
	const char *p = strchr(line, ' ');
	if (!p)
		return -1;
	for (int i = 0; i < 8; i++) {
		char *end;
		v[i] = strtoull(p, &end, 10);
		if (end == p)
			return i >= 4 ? 0 : -1;
		p = end;
	}
	*idle = v[3] + v[4];
	*total = 0;
	for (int i = 0; i < 8; i++)
		*total += v[i];
	return 0;
}

int cpu_idle_parse(const char *text, struct cpu_idle_sample *out)
{
	memset(out, 0, sizeof(*out));
	for (const char *line = text; line && *line; line = strchr(line, '\n'), line += !!line) {
		unsigned cpu;
		unsigned slot;
		if (!strncmp(line, "cpu ", 4))
			slot = 0;
		else if (sscanf(line, "cpu%u ", &cpu) == 1 && cpu < STATS_MAX_CPUS)
			slot = 1 + cpu;
		else
			continue;
		if (parse_line(line, &out->idle[slot], &out->total[slot]))
			return -1;
		if (slot == 0)
			out->valid = true;
		else if (slot > out->ncpu)
			out->ncpu = slot;
	}
	return out->valid ? 0 : -1;
}

void cpu_idle_take(struct cpu_idle_sample *out)
{
	char text[65536];
	FILE *f = fopen("/proc/stat", "r");
	memset(out, 0, sizeof(*out));
	if (!f)
		return;
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	cpu_idle_parse(text, out);
}

/* Idle share of the ticks between two readings, in percent. */
static double idle_percent(uint64_t idle0, uint64_t total0, uint64_t idle1, uint64_t total1)
{
	if (total1 <= total0 || idle1 < idle0)
		return 0.0;
	return 100.0 * (double)(idle1 - idle0) / (double)(total1 - total0);
}

void cpu_idle_delta(const struct cpu_idle_sample *before, const struct cpu_idle_sample *after,
		    struct cpu_idleness *out)
{
	memset(out, 0, sizeof(*out));
	if (!before->valid || !after->valid)
		return;
	out->valid = true;
	out->ncpu = after->ncpu < before->ncpu ? after->ncpu : before->ncpu;
	out->system =
		idle_percent(before->idle[0], before->total[0], after->idle[0], after->total[0]);
	for (unsigned i = 0; i < out->ncpu; i++)
		out->cpu[i] = idle_percent(before->idle[1 + i], before->total[1 + i],
					   after->idle[1 + i], after->total[1 + i]);
}
