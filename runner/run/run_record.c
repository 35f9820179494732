/* run_record.c - measured facts as results.json objects. */
#include "run/run_record.h"
#include "run/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "lib/lib.h"

void run_record_ebs_sample(const char *dev_path, struct ebs_sample *out)
{
	uint8_t page[EBS_STATS_PAGE_BYTES];
	memset(out, 0, sizeof(*out));
	int fd = open(dev_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(out->reason, sizeof(out->reason), "open: %s", strerror(errno));
		return;
	}
	int rc = ebs_stats_read(fd, page);
	close(fd);
	if (rc < 0) {
		snprintf(out->reason, sizeof(out->reason), "log page 0xD0 not offered (%s)",
			 strerror(-rc));
		return;
	}
	rc = ebs_stats_parse(page, sizeof(page), &out->stats);
	if (rc != EBS_STATS_OK) {
		snprintf(out->reason, sizeof(out->reason), "log page 0xD0: %s",
			 ebs_stats_status_name(rc));
		return;
	}
	out->ok = true;
}

static json_t *histogram_json(const struct ebs_latency_histogram *h)
{
	json_t *bins = json_array();
	for (unsigned i = 0; i < h->bins; i++)
		json_array_append_new(bins, json_pack("{sIsIsI}", "lower_us",
						      (json_int_t)h->bin[i].lower_us, "upper_us",
						      (json_int_t)h->bin[i].upper_us, "count",
						      (json_int_t)h->bin[i].count));
	return bins;
}

static json_t *unavailable(const char *reason)
{
	return json_pack("{sbss}", "available", 0, "reason", reason);
}

json_t *run_record_ebs_stats(const struct ebs_sample *before, const struct ebs_sample *after,
			     uint64_t phase_us)
{
	struct ebs_stats d;
	struct ebs_throttle_verdict verdict;
	if (!before->ok || !after->ok)
		return unavailable(!before->ok ? before->reason : after->reason);
	int rc = ebs_stats_delta(&before->stats, &after->stats, &d);
	if (rc != EBS_STATS_OK)
		return unavailable(ebs_stats_status_name(rc));
	ebs_stats_throttle_judge(&d, phase_us, &verdict);
	json_t *o = json_pack(
		"{sbsIsIsIsIsIsIsIsIsIsIsI}", "available", 1, "read_ops", (json_int_t)d.read_ops,
		"write_ops", (json_int_t)d.write_ops, "read_bytes", (json_int_t)d.read_bytes,
		"write_bytes", (json_int_t)d.write_bytes, "read_time_us",
		(json_int_t)d.read_time_us, "write_time_us", (json_int_t)d.write_time_us,
		"volume_exceeded_iops_us", (json_int_t)d.volume_iops_exceeded_us,
		"volume_exceeded_throughput_us", (json_int_t)d.volume_throughput_exceeded_us,
		"instance_exceeded_iops_us", (json_int_t)d.instance_iops_exceeded_us,
		"instance_exceeded_throughput_us", (json_int_t)d.instance_throughput_exceeded_us,
		"queue_length", (json_int_t)d.queue_length);
	static const char *const limiter_key[EBS_THROTTLE_KINDS] = {
		[EBS_THROTTLE_NONE] = "none",
		[EBS_THROTTLE_VOLUME_IOPS] = "volume-iops",
		[EBS_THROTTLE_VOLUME_THROUGHPUT] = "volume-throughput",
		[EBS_THROTTLE_INSTANCE_IOPS] = "instance-iops",
		[EBS_THROTTLE_INSTANCE_THROUGHPUT] = "instance-throughput",
	};
	json_object_set_new(o, "throttled_by", json_string(limiter_key[verdict.limiter]));
	json_object_set_new(o, "read_histogram", histogram_json(&d.read_latency));
	json_object_set_new(o, "write_histogram", histogram_json(&d.write_latency));
	return o;
}

json_t *run_record_disk_check(const struct job_stats *s)
{
	if (!s->disk.valid)
		return json_null();
	uint64_t kernel_ios = s->disk.read_ios + s->disk.write_ios;
	uint64_t engine_ios = s->dir[DDIR_READ].ios + s->dir[DDIR_WRITE].ios;
	uint64_t kernel_bytes = (s->disk.read_sectors + s->disk.write_sectors) * 512;
	uint64_t engine_bytes = s->dir[DDIR_READ].bytes + s->dir[DDIR_WRITE].bytes;
	/* Bytes, not I/Os, are compared: the block layer splits a 1 MiB I/O
	 * into max_sectors_kb pieces and merges neighbours.  1 % (plus what
	 * was in flight at the edges) counts as agreement. */
	uint64_t slack = engine_bytes / 100 + (8u << 20);
	bool agrees = kernel_bytes + slack >= engine_bytes && kernel_bytes <= engine_bytes + slack;
	return json_pack("{sIsIsIsIsb}", "kernel_ios", (json_int_t)kernel_ios, "engine_ios",
			 (json_int_t)engine_ios, "kernel_bytes", (json_int_t)kernel_bytes,
			 "engine_bytes", (json_int_t)engine_bytes, "agrees", agrees);
}

static json_t *string_or_null(const char *s)
{
	return s && s[0] ? json_string(s) : json_null();
}

static json_t *volume_json(const struct run_device *d)
{
	json_t *assumed = json_array();
	if (d->type_assumed)
		json_array_append_new(assumed, json_string("type"));
	if (d->size_assumed)
		json_array_append_new(assumed, json_string("size_gib"));
	if (d->volume.iops_assumed)
		json_array_append_new(assumed, json_string("iops"));
	if (d->volume.throughput_assumed)
		json_array_append_new(assumed, json_string("throughput_mibs"));
	return json_pack("{sssfsfsfso}", "type", ebs_type_name(d->volume.type), "size_gib",
			 d->volume.size_gib, "iops", d->volume.iops, "throughput_mibs",
			 d->volume.throughput_mibs, "assumed", assumed);
}

json_t *run_record_device(const struct run_device *d)
{
	const struct discovered_device *i = &d->info;
	const char *kind = i->ebs_like				 ? "ebs"
			   : i->kind == NVME_CTRL_INSTANCE_STORE ? "instance-store"
								 : "other";
	json_t *o = json_pack("{ssssss}", "label", d->label, "path", i->dev_path, "kind", kind);
	json_object_set_new(o, "volume_id", string_or_null(i->volume_id));
	json_object_set_new(o, "model", string_or_null(i->model));
	json_object_set_new(o, "serial", string_or_null(i->serial));
	json_object_set_new(o, "size_bytes", json_integer((json_int_t)i->size_bytes));
	json_object_set_new(o, "logical_block_size", json_integer(i->logical_block_size));
	json_object_set_new(o, "volume", volume_json(d));
	return o;
}

int64_t run_record_wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void run_record_iso_utc(char *buf, size_t len, int64_t unix_ms)
{
	time_t t = (time_t)(unix_ms / 1000);
	struct tm tm;
	if (!gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, len, "%lld", (long long)t);
}

/* Names exactly which binary ran, without a hash library: FNV-1a 64. */
static void binary_id(char *buf, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;
	unsigned char chunk[65536];
	size_t n;
	FILE *f = fopen("/proc/self/exe", "rb");
	if (!f) {
		snprintf(buf, len, "unknown");
		return;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		for (size_t i = 0; i < n; i++)
			h = (h ^ chunk[i]) * 0x100000001b3ull;
	fclose(f);
	snprintf(buf, len, "fnv1a64:%016llx", (unsigned long long)h);
}

json_t *run_record_ebsbench(const struct run_config *c)
{
	char id[64];
	binary_id(id, sizeof(id));
	json_t *o = json_pack("{ssss}", "version", EBSBENCH_VERSION, "build_id", id);
	json_object_set_new(o, "image_digest", string_or_null(c->image_digest));
	return o;
}

json_t *run_record_environment(const struct run_config *c)
{
	struct utsname u;
	json_t *o = json_object();
	bool named = uname(&u) == 0;
	json_object_set_new(o, "instance_type", string_or_null(c->instance_type));
	json_object_set_new(o, "instance_id", string_or_null(c->instance_id));
	json_object_set_new(o, "zone", string_or_null(c->zone));
	json_object_set_new(o, "kernel", string_or_null(named ? u.release : NULL));
	json_object_set_new(o, "hostname", string_or_null(named ? u.nodename : NULL));
	return o;
}

static json_t *price_or_null(double usd)
{
	return isfinite(usd) ? json_real(usd) : json_null();
}

json_t *run_record_prices(const struct ebs_prices *p, bool overridden)
{
	json_t *o = json_object();
	json_object_set_new(o, "region", string_or_null(p->region));
	json_object_set_new(o, "date", string_or_null(p->as_of));
	json_object_set_new(o, "source", string_or_null(p->source));
	json_object_set_new(o, "overridden", json_boolean(overridden));
	for (int t = 0; t < EBS_TYPE_COUNT; t++) {
		const struct ebs_type_prices *tp = &p->type[t];
		json_object_set_new(o, ebs_type_name((enum ebs_type)t),
				    json_pack("{sososo}", "gib_month", price_or_null(tp->gib_month),
					      "iops_month", price_or_null(tp->iops_month),
					      "mibs_month", price_or_null(tp->mibs_month)));
	}
	return o;
}
