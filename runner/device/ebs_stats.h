/* ebs_stats.h - the EBS detailed performance statistics log page (NVMe
 * Get Log Page 0xD0): cumulative I/O counters, the time each EBS limit was
 * exceeded, and read/write latency histograms.  Taken before and after a
 * phase, the delta says whether the volume or the instance throttled it.
 * Instance store answers the same page with another magic. */
#ifndef EBSBENCH_EBS_STATS_H
#define EBSBENCH_EBS_STATS_H

#include <stddef.h>
#include <stdint.h>

#define EBS_STATS_PAGE_BYTES 4096
#define EBS_STATS_LOG_ID 0xD0
#define EBS_STATS_MAGIC_EBS 0x3C23B510u
#define EBS_STATS_MAGIC_INSTANCE_STORE 0xEC2C0D7Eu
/* (2056 - 512 - 8) / 24: what fits between the two histograms. */
#define EBS_STATS_MAX_BINS 64
/* Exceeded for less than this share of a phase is the first second's
 * overshoot, not a throttled phase. */
#define EBS_THROTTLE_MIN_FRACTION 0.01

enum ebs_stats_source {
	EBS_STATS_VOLUME,
	EBS_STATS_INSTANCE_STORE,
};

enum ebs_stats_status {
	EBS_STATS_OK = 0,
	EBS_STATS_SHORT = -1,	       /* fewer than EBS_STATS_PAGE_BYTES */
	EBS_STATS_BAD_MAGIC = -2,      /* not an EC2 NVMe device */
	EBS_STATS_TOO_MANY_BINS = -3,  /* a histogram claims more than fit */
	EBS_STATS_GARBAGE = -4,	       /* bins with lower > upper or out of order */
	EBS_STATS_MISMATCH = -5,       /* delta: pages from different devices/layouts */
	EBS_STATS_WENT_BACKWARDS = -6, /* delta: a counter fell (volume reattached?) */
};

struct ebs_latency_bin {
	uint64_t lower_us;
	uint64_t upper_us;
	uint64_t count; /* a u32 on the device: it wraps */
};

struct ebs_latency_histogram {
	unsigned bins;
	struct ebs_latency_bin bin[EBS_STATS_MAX_BINS];
};

struct ebs_stats {
	enum ebs_stats_source source;
	uint32_t version; /* 1: the device also has per-I/O-size histograms past 4096 */
	uint64_t read_ops, write_ops;
	uint64_t read_bytes, write_bytes;
	uint64_t read_time_us, write_time_us;
	/* Time spent with demand above each limit.  Instance store fills
	 * only the instance pair. */
	uint64_t volume_iops_exceeded_us, volume_throughput_exceeded_us;
	uint64_t instance_iops_exceeded_us, instance_throughput_exceeded_us;
	uint64_t queue_length; /* point in time, not cumulative */
	struct ebs_latency_histogram read_latency, write_latency;
};

/* Same order as enum ebs_bound in ebs_model.h (what a prediction says
 * limits a rate), so measured and predicted limiters compare directly. */
enum ebs_throttle {
	EBS_THROTTLE_NONE,
	EBS_THROTTLE_VOLUME_IOPS,
	EBS_THROTTLE_VOLUME_THROUGHPUT,
	EBS_THROTTLE_INSTANCE_IOPS,
	EBS_THROTTLE_INSTANCE_THROUGHPUT,
	EBS_THROTTLE_KINDS,
};

struct ebs_throttle_verdict {
	enum ebs_throttle limiter; /* exceeded longest, or NONE below the floor */
	/* Share of the phase each limit was exceeded, 0..1; [NONE] is 0. */
	double fraction[EBS_THROTTLE_KINDS];
};

/* Parses a log page of len bytes.  Returns EBS_STATS_OK or a negative
 * ebs_stats_status; out is zeroed on error. */
int ebs_stats_parse(const uint8_t *page, size_t len, struct ebs_stats *out);

/* out = after - before: counters and bin counts subtract, queue length
 * and bin bounds come from after.  Returns EBS_STATS_OK, or MISMATCH /
 * WENT_BACKWARDS, in which case out is zeroed. */
int ebs_stats_delta(const struct ebs_stats *before, const struct ebs_stats *after,
		    struct ebs_stats *out);

/* Who throttled a phase of phase_us microseconds, from its delta. */
void ebs_stats_throttle_judge(const struct ebs_stats *delta, uint64_t phase_us,
			      struct ebs_throttle_verdict *out);

const char *ebs_stats_status_name(int status);

/* Get Log Page 0xD0, nsid 1, 4096 bytes, into page.  Returns 0, -errno
 * from the ioctl, or -EIO for an NVMe error status (e.g. not an EC2
 * device).  Needs CAP_SYS_ADMIN. */
int ebs_stats_read(int fd, uint8_t page[EBS_STATS_PAGE_BYTES]);

#endif
