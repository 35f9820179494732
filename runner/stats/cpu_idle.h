/* cpu_idle.h - how idle the CPUs were while a job ran, for fio's
 * --idle-prof "cpu_idleness": the kernel's idle and iowait time in
 * /proc/stat, before and after, for the whole system and each CPU.
 *
 * fio measures idleness with calibrated idle-priority loops pinned to each
 * CPU, which themselves take the CPU's idle time; reading the kernel's own
 * accounting gives the same quantity without loading the machine. */
#ifndef EBSBENCH_CPU_IDLE_H
#define EBSBENCH_CPU_IDLE_H

#include <stdbool.h>
#include <stdint.h>

/* fio's --idle-prof "cpu_idleness": percent of the run each CPU idled. */
#define STATS_MAX_CPUS 256
struct cpu_idleness {
	bool valid;
	unsigned ncpu;
	double system; /* all CPUs together */
	double cpu[STATS_MAX_CPUS];
};

/* One reading of /proc/stat: [0] the "cpu" total, [1 + i] "cpuI". */
struct cpu_idle_sample {
	bool valid;
	unsigned ncpu;
	uint64_t idle[1 + STATS_MAX_CPUS]; /* idle + iowait, clock ticks */
	uint64_t total[1 + STATS_MAX_CPUS];
};

/* Reads /proc/stat; valid stays false when it cannot be read. */
void cpu_idle_take(struct cpu_idle_sample *out);
/* Percent idle between two readings, into out (valid when both were). */
void cpu_idle_delta(const struct cpu_idle_sample *before, const struct cpu_idle_sample *after,
		    struct cpu_idleness *out);

#endif
