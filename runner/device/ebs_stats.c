/* ebs_stats.c - EBS log page 0xD0: parse, delta, throttle verdict, ioctl.
 *
 * Layout (little-endian), as amazon-ec2-utils' ebsnvme and nvme-cli's amzn
 * plugin read it:
 *     0  u32 magic            4  u32 version
 *     8  u64 x 11 counters (see struct ebs_stats, in order)
 *   512  read latency histogram:  u64 bins, then 64 x {u64 lower, u64 upper,
 *                                 u32 count, u32 reserved}
 *  2056  write latency histogram: the same
 *  3600  per-I/O-size histogram index (version 1; not used here) */
#include "device/ebs_stats.h"
#include "lib/lib.h"

#include <errno.h>
#include <linux/nvme_ioctl.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <sys/ioctl.h>

#define OFF_MAGIC 0
#define OFF_VERSION 4
#define OFF_COUNTERS 8
#define OFF_READ_HIST 512
#define OFF_WRITE_HIST 2056
#define HIST_BIN_BYTES 24

#define NVME_ADMIN_GET_LOG_PAGE 0x02

/* The ten cumulative counters in page order, so parse and delta walk one
 * table; the point-in-time queue length follows them. */
static const size_t counter_offsets[] = {
	offsetof(struct ebs_stats, read_ops),
	offsetof(struct ebs_stats, write_ops),
	offsetof(struct ebs_stats, read_bytes),
	offsetof(struct ebs_stats, write_bytes),
	offsetof(struct ebs_stats, read_time_us),
	offsetof(struct ebs_stats, write_time_us),
	offsetof(struct ebs_stats, volume_iops_exceeded_us),
	offsetof(struct ebs_stats, volume_throughput_exceeded_us),
	offsetof(struct ebs_stats, instance_iops_exceeded_us),
	offsetof(struct ebs_stats, instance_throughput_exceeded_us),
};
#define COUNTERS (ARRAY_SIZE(counter_offsets))

static uint64_t counter_get(const struct ebs_stats *s, size_t i)
{
	uint64_t v;
	memcpy(&v, (const char *)s + counter_offsets[i], sizeof(v));
	return v;
}

static void counter_set(struct ebs_stats *s, size_t i, uint64_t v)
{
	memcpy((char *)s + counter_offsets[i], &v, sizeof(v));
}

static int parse_histogram(const uint8_t *p, struct ebs_latency_histogram *h)
{
	uint64_t bins = le64(p);
	if (bins > EBS_STATS_MAX_BINS)
		return EBS_STATS_TOO_MANY_BINS;
	h->bins = (unsigned)bins;
	for (unsigned i = 0; i < h->bins; i++) {
		const uint8_t *b = p + 8 + (size_t)i * HIST_BIN_BYTES;
		struct ebs_latency_bin *bin = &h->bin[i];
		bin->lower_us = le64(b);
		bin->upper_us = le64(b + 8);
		bin->count = le32(b + 16);
		if (bin->lower_us > bin->upper_us)
			return EBS_STATS_GARBAGE;
		if (i > 0 && bin->lower_us < h->bin[i - 1].lower_us)
			return EBS_STATS_GARBAGE;
	}
	return EBS_STATS_OK;
}

static int parse_page(const uint8_t *page, struct ebs_stats *out)
{
	uint32_t magic = le32(page + OFF_MAGIC);
	if (magic == EBS_STATS_MAGIC_EBS)
		out->source = EBS_STATS_VOLUME;
	else if (magic == EBS_STATS_MAGIC_INSTANCE_STORE)
		out->source = EBS_STATS_INSTANCE_STORE;
	else
		return EBS_STATS_BAD_MAGIC;
	out->version = le32(page + OFF_VERSION);
	for (size_t i = 0; i < COUNTERS; i++)
		counter_set(out, i, le64(page + OFF_COUNTERS + 8 * i));
	out->queue_length = le64(page + OFF_COUNTERS + 8 * COUNTERS);
	int rc = parse_histogram(page + OFF_READ_HIST, &out->read_latency);
	if (rc == EBS_STATS_OK)
		rc = parse_histogram(page + OFF_WRITE_HIST, &out->write_latency);
	return rc;
}

int ebs_stats_parse(const uint8_t *page, size_t len, struct ebs_stats *out)
{
	memset(out, 0, sizeof(*out));
	if (!page || len < EBS_STATS_PAGE_BYTES)
		return EBS_STATS_SHORT;
	int rc = parse_page(page, out);
	if (rc != EBS_STATS_OK)
		memset(out, 0, sizeof(*out));
	return rc;
}

static bool same_bins(const struct ebs_latency_histogram *a, const struct ebs_latency_histogram *b)
{
	if (a->bins != b->bins)
		return false;
	for (unsigned i = 0; i < a->bins; i++)
		if (a->bin[i].lower_us != b->bin[i].lower_us ||
		    a->bin[i].upper_us != b->bin[i].upper_us)
			return false;
	return true;
}

static void histogram_delta(const struct ebs_latency_histogram *before,
			    const struct ebs_latency_histogram *after,
			    struct ebs_latency_histogram *out)
{
	*out = *after;
	/* Bin counts are u32 on the device: modular subtraction survives
	 * one wrap during a phase, which a long large-queue run can reach. */
	for (unsigned i = 0; i < out->bins; i++)
		out->bin[i].count = (uint32_t)(after->bin[i].count - before->bin[i].count);
}

static int delta_counters(const struct ebs_stats *before, const struct ebs_stats *after,
			  struct ebs_stats *out)
{
	for (size_t i = 0; i < COUNTERS; i++) {
		uint64_t b = counter_get(before, i), a = counter_get(after, i);
		if (a < b)
			return EBS_STATS_WENT_BACKWARDS;
		counter_set(out, i, a - b);
	}
	return EBS_STATS_OK;
}

int ebs_stats_delta(const struct ebs_stats *before, const struct ebs_stats *after,
		    struct ebs_stats *out)
{
	memset(out, 0, sizeof(*out));
	if (before->source != after->source ||
	    !same_bins(&before->read_latency, &after->read_latency) ||
	    !same_bins(&before->write_latency, &after->write_latency))
		return EBS_STATS_MISMATCH;
	int rc = delta_counters(before, after, out);
	if (rc != EBS_STATS_OK) {
		memset(out, 0, sizeof(*out));
		return rc;
	}
	out->source = after->source;
	out->version = after->version;
	out->queue_length = after->queue_length;
	histogram_delta(&before->read_latency, &after->read_latency, &out->read_latency);
	histogram_delta(&before->write_latency, &after->write_latency, &out->write_latency);
	return EBS_STATS_OK;
}

static double share_of(uint64_t exceeded_us, uint64_t phase_us)
{
	double f = (double)exceeded_us / (double)phase_us;
	/* The log page and our clock sample at slightly different instants. */
	return f > 1.0 ? 1.0 : f;
}

void ebs_stats_throttle_judge(const struct ebs_stats *delta, uint64_t phase_us,
			      struct ebs_throttle_verdict *out)
{
	memset(out, 0, sizeof(*out));
	out->limiter = EBS_THROTTLE_NONE;
	if (phase_us == 0)
		return;
	out->fraction[EBS_THROTTLE_VOLUME_IOPS] =
		share_of(delta->volume_iops_exceeded_us, phase_us);
	out->fraction[EBS_THROTTLE_VOLUME_THROUGHPUT] =
		share_of(delta->volume_throughput_exceeded_us, phase_us);
	out->fraction[EBS_THROTTLE_INSTANCE_IOPS] =
		share_of(delta->instance_iops_exceeded_us, phase_us);
	out->fraction[EBS_THROTTLE_INSTANCE_THROUGHPUT] =
		share_of(delta->instance_throughput_exceeded_us, phase_us);
	double longest = 0;
	/* Ties go to the volume: it is listed first, and it is the limit a
	 * user buying IOPS can change. */
	for (int k = EBS_THROTTLE_VOLUME_IOPS; k < EBS_THROTTLE_KINDS; k++) {
		if (out->fraction[k] > longest) {
			longest = out->fraction[k];
			out->limiter = (enum ebs_throttle)k;
		}
	}
	if (longest < EBS_THROTTLE_MIN_FRACTION)
		out->limiter = EBS_THROTTLE_NONE;
}

const char *ebs_stats_status_name(int status)
{
	switch (status) {
	case EBS_STATS_OK:
		return "ok";
	case EBS_STATS_SHORT:
		return "stats log page shorter than 4096 bytes";
	case EBS_STATS_BAD_MAGIC:
		return "stats log page has no EBS or instance store magic (not an EC2 NVMe device)";
	case EBS_STATS_TOO_MANY_BINS:
		return "stats log page claims more than 64 histogram bins";
	case EBS_STATS_GARBAGE:
		return "stats log page histogram bins are inconsistent";
	case EBS_STATS_MISMATCH:
		return "stats pages differ in source or histogram layout";
	case EBS_STATS_WENT_BACKWARDS:
		return "stats counters went backwards (volume detached and reattached?)";
	}
	return "unknown stats status";
}

int ebs_stats_read(int fd, uint8_t page[EBS_STATS_PAGE_BYTES])
{
	/* NUMDL counts dwords from zero. */
	const uint32_t numdl = EBS_STATS_PAGE_BYTES / 4 - 1;
	struct nvme_admin_cmd cmd;
	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = NVME_ADMIN_GET_LOG_PAGE;
	cmd.nsid = 1;
	cmd.addr = (uint64_t)(uintptr_t)page;
	cmd.data_len = EBS_STATS_PAGE_BYTES;
	cmd.cdw10 = numdl << 16 | EBS_STATS_LOG_ID;
	int rc = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &cmd);
	if (rc < 0)
		return -errno;
	return rc > 0 ? -EIO : 0;
}
