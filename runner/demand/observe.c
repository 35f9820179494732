/* observe.c - a device's demand from the kernel's own counters, sampled
 * on a fixed beat (observe.h).  Nothing here opens the device: stat(2)
 * names it, /sys/block/DEV/stat counts for it. */
#include "demand/demand.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "demand/internal.h"
#include "lib/lib.h"

#define SECTOR 512.0 /* /sys/block/DEV/stat counts 512-byte sectors, whatever the device */

int observe_device_open(const char *path, struct observe_device *d, char *err, size_t errlen)
{
	struct stat st;

	memset(d, 0, sizeof(*d));
	if (strlen(path) >= sizeof(d->path))
		return error_set(err, errlen, "%.60s...: path too long", path);
	snprintf(d->path, sizeof(d->path), "%s", path);
	if (stat(path, &st))
		return error_set(err, errlen, "%s: %s", path, strerror(errno));
	if (!S_ISBLK(st.st_mode))
		return error_set(err, errlen, "%s: not a block device", path);
	d->dev = st.st_rdev;
	disk_sample_take(d->dev, &d->last);
	if (!d->last.valid)
		return error_set(err, errlen,
				 "%s: the kernel shows no counters for it "
				 "(/sys/dev/block/MAJOR:MINOR/stat)",
				 path);
	return 0;
}

/* after - before, or 0 when the counter went back (the device was reset). */
static double grown(uint64_t after, uint64_t before)
{
	return after >= before ? (double)(after - before) : 0;
}

bool observe_device_sample(struct observe_device *d, double t, double scale,
			   struct demand_point *out)
{
	struct disk_sample now;

	disk_sample_take(d->dev, &now);
	if (!now.valid)
		return false;
	*out = (struct demand_point){
		.t = t,
		.read_ops = grown(now.read_ios, d->last.read_ios) * scale,
		.write_ops = grown(now.write_ios, d->last.write_ios) * scale,
		.read_bytes = grown(now.read_sectors, d->last.read_sectors) * SECTOR * scale,
		.write_bytes = grown(now.write_sectors, d->last.write_sectors) * SECTOR * scale,
	};
	d->last = now;
	return true;
}

/* The wall clock, in Unix seconds. */
static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Sleeps until the monotonic time at_ns, or a signal. */
static void sleep_until(uint64_t at_ns)
{
	struct timespec ts = { .tv_sec = (time_t)(at_ns / 1000000000u),
			       .tv_nsec = (long)(at_ns % 1000000000u) };
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

int observe_run(struct observe_device *d, size_t n, uint64_t interval_ns, uint64_t duration_ns,
		FILE *out, FILE *progress, const volatile sig_atomic_t *stop)
{
	uint64_t start = clock_now_ns(), next = start, last_said = start, sampled;
	double dt = (double)interval_ns / 1e9, t = wall_now();

	demand_csv_header(out);
	for (size_t i = 0; i < n; i++)
		disk_sample_take(d[i].dev, &d[i].last); /* the beat starts now */
	sampled = clock_now_ns();
	while (!*stop && (!duration_ns || next - start < duration_ns)) {
		next += interval_ns;
		while (!*stop && clock_now_ns() < next)
			sleep_until(next);
		if (*stop)
			break;
		double t_next = wall_now(), iops_sum = 0, bytes_sum = 0;
		uint64_t now = clock_now_ns();
		double scale = now > sampled ? (double)interval_ns / (double)(now - sampled) : 1;
		sampled = now;
		for (size_t i = 0; i < n; i++) {
			struct demand_point p;
			if (!observe_device_sample(&d[i], t, scale, &p)) {
				fprintf(stderr, "ebsbench observe: %s: its counters went away\n",
					d[i].path);
				fflush(out);
				return 1;
			}
			demand_csv_row(out, d[i].last.name, dt, &p);
			iops_sum += (p.read_ops + p.write_ops) / dt;
			bytes_sum += (p.read_bytes + p.write_bytes) / dt;
		}
		fflush(out);
		t = t_next;
		if (clock_now_ns() - last_said >= 1000000000u || interval_ns >= 1000000000u) {
			last_said = clock_now_ns();
			fprintf(progress, "ebsbench observe: %.0f s: %.0f IOPS, %.1f MiB/s\n",
				(double)(next - start) / 1e9, iops_sum, bytes_sum / MIB);
		}
	}
	return fflush(out) ? 1 : 0;
}
