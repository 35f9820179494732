/* test_ebs_stats.c - the EBS stats log page on crafted pages: layout,
 * errors, before/after deltas and the throttle verdict. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "device/ebs_stats.h"

static void put_le(uint8_t *p, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Bins [0,1) [1,2) [2,4) ... as EBS reports them, count i * scale. */
static void put_histogram(uint8_t *p, uint64_t bins, uint32_t scale)
{
	put_le(p, bins, 8);
	for (uint64_t i = 0; i < bins && i < 64; i++) {
		uint8_t *b = p + 8 + i * 24;
		put_le(b, i == 0 ? 0 : 1ull << (i - 1), 8);
		put_le(b + 8, 1ull << i, 8);
		put_le(b + 16, (uint32_t)(i * scale), 4);
		put_le(b + 20, 0xdeadbeef, 4); /* reserved: must be ignored */
	}
}

/* Counter k at offset 8 + 8k holds base + k, so a swap shows up. */
static void make_page(uint8_t *page, uint32_t magic, uint64_t base, unsigned bins)
{
	memset(page, 0, EBS_STATS_PAGE_BYTES);
	put_le(page, magic, 4);
	put_le(page + 4, 0, 4);
	for (unsigned k = 0; k < 11; k++)
		put_le(page + 8 + 8 * k, base + k, 8);
	put_histogram(page + 512, bins, 1);
	put_histogram(page + 2056, bins, 2);
}

static void test_ebs_page(struct checks *checks)
{
	uint8_t page[EBS_STATS_PAGE_BYTES];
	struct ebs_stats s;
	make_page(page, 0x3C23B510, 1000, 28);
	CHECK_EQ_U64(ebs_stats_parse(page, sizeof(page), &s), EBS_STATS_OK);
	CHECK(s.source == EBS_STATS_VOLUME);
	CHECK_EQ_U64(s.read_ops, 1000);
	CHECK_EQ_U64(s.write_ops, 1001);
	CHECK_EQ_U64(s.read_bytes, 1002);
	CHECK_EQ_U64(s.write_bytes, 1003);
	CHECK_EQ_U64(s.read_time_us, 1004);
	CHECK_EQ_U64(s.write_time_us, 1005);
	CHECK_EQ_U64(s.volume_iops_exceeded_us, 1006);
	CHECK_EQ_U64(s.volume_throughput_exceeded_us, 1007);
	CHECK_EQ_U64(s.instance_iops_exceeded_us, 1008);
	CHECK_EQ_U64(s.instance_throughput_exceeded_us, 1009);
	CHECK_EQ_U64(s.queue_length, 1010);
	CHECK_EQ_U64(s.read_latency.bins, 28);
	CHECK_EQ_U64(s.write_latency.bins, 28);
	CHECK_EQ_U64(s.read_latency.bin[5].lower_us, 16);
	CHECK_EQ_U64(s.read_latency.bin[5].upper_us, 32);
	CHECK_EQ_U64(s.read_latency.bin[5].count, 5);
	CHECK_EQ_U64(s.write_latency.bin[5].count, 10);
}

static void test_instance_store_page(struct checks *checks)
{
	uint8_t page[EBS_STATS_PAGE_BYTES];
	struct ebs_stats s;
	make_page(page, 0xEC2C0D7E, 7, 10);
	put_le(page + 4, 1, 4); /* version 1: per-size histograms follow */
	CHECK_EQ_U64(ebs_stats_parse(page, sizeof(page), &s), EBS_STATS_OK);
	CHECK(s.source == EBS_STATS_INSTANCE_STORE);
	CHECK_EQ_U64(s.version, 1);
	CHECK_EQ_U64(s.instance_iops_exceeded_us, 15);
}

static void test_full_histograms_meet_exactly(struct checks *checks)
{
	/* 64 read bins end where the write histogram starts: a layout
	 * mistake would read the write bin count as a read bin. */
	uint8_t page[EBS_STATS_PAGE_BYTES];
	struct ebs_stats s;
	make_page(page, 0x3C23B510, 0, 64);
	CHECK_EQ_U64(ebs_stats_parse(page, sizeof(page), &s), EBS_STATS_OK);
	CHECK_EQ_U64(s.read_latency.bins, 64);
	CHECK_EQ_U64(s.read_latency.bin[63].count, 63);
	CHECK_EQ_U64(s.write_latency.bins, 64);
	CHECK_EQ_U64(s.write_latency.bin[63].count, 126);
}

static void test_not_ec2(struct checks *checks)
{
	/* QEMU has no log page 0xD0: the ioctl fails, or a lenient device
	 * returns zeros.  Either way: not an EC2 device. */
	uint8_t page[EBS_STATS_PAGE_BYTES];
	struct ebs_stats s;
	memset(page, 0, sizeof(page));
	CHECK_EQ_U64(ebs_stats_parse(page, sizeof(page), &s), (uint64_t)EBS_STATS_BAD_MAGIC);
	make_page(page, 0x3C23B511, 1, 4);
	CHECK_EQ_U64(ebs_stats_parse(page, sizeof(page), &s), (uint64_t)EBS_STATS_BAD_MAGIC);
	CHECK_EQ_U64(s.read_ops, 0);
	CHECK(strstr(ebs_stats_status_name(EBS_STATS_BAD_MAGIC), "not an EC2") != NULL);
}

static void test_garbage(struct checks *checks)
{
	uint8_t page[EBS_STATS_PAGE_BYTES];
	struct ebs_stats s;
	make_page(page, 0x3C23B510, 1, 64);
	put_le(page + 512, 65, 8);
	CHECK_EQ_U64(ebs_stats_parse(page, sizeof(page), &s), (uint64_t)EBS_STATS_TOO_MANY_BINS);
	make_page(page, 0x3C23B510, 1, 8);
	put_le(page + 2056, UINT64_MAX, 8);
	CHECK_EQ_U64(ebs_stats_parse(page, sizeof(page), &s), (uint64_t)EBS_STATS_TOO_MANY_BINS);
	/* lower above upper */
	make_page(page, 0x3C23B510, 1, 8);
	put_le(page + 512 + 8 + 3 * 24, 1000, 8);
	CHECK_EQ_U64(ebs_stats_parse(page, sizeof(page), &s), (uint64_t)EBS_STATS_GARBAGE);
	/* out of order */
	make_page(page, 0x3C23B510, 1, 8);
	put_le(page + 2056 + 8 + 4 * 24, 1, 8);
	CHECK_EQ_U64(ebs_stats_parse(page, sizeof(page), &s), (uint64_t)EBS_STATS_GARBAGE);
	CHECK_EQ_U64(s.read_latency.bins, 0); /* zeroed, not half filled */
	for (size_t i = 0; i < sizeof(page); i++)
		page[i] = (uint8_t)(i * 251 + 3);
	CHECK(ebs_stats_parse(page, sizeof(page), &s) < 0);
}

static void test_short(struct checks *checks)
{
	uint8_t page[EBS_STATS_PAGE_BYTES];
	struct ebs_stats s;
	make_page(page, 0x3C23B510, 1, 8);
	CHECK_EQ_U64(ebs_stats_parse(page, 4095, &s), (uint64_t)EBS_STATS_SHORT);
	CHECK_EQ_U64(ebs_stats_parse(page, 512, &s), (uint64_t)EBS_STATS_SHORT);
	CHECK_EQ_U64(ebs_stats_parse(NULL, 4096, &s), (uint64_t)EBS_STATS_SHORT);
}

static void parse_ok(struct checks *checks, const uint8_t *page, struct ebs_stats *s)
{
	CHECK_EQ_U64(ebs_stats_parse(page, EBS_STATS_PAGE_BYTES, s), EBS_STATS_OK);
}

static void test_delta(struct checks *checks)
{
	uint8_t page[EBS_STATS_PAGE_BYTES];
	struct ebs_stats before, after, d;
	make_page(page, 0x3C23B510, 100, 16);
	parse_ok(checks, page, &before);
	make_page(page, 0x3C23B510, 250, 16);
	put_le(page + 8 + 80, 3, 8);			 /* queue length fell: fine */
	put_le(page + 512 + 8 + 2 * 24 + 16, 2 + 40, 4); /* read bin 2: +40 */
	put_le(page + 2056 + 8 + 0 * 24 + 16, 5, 4);	 /* write bin 0: +5 */
	parse_ok(checks, page, &after);
	/* Bin counts are u32 on the device and may wrap mid-phase. */
	before.write_latency.bin[1].count = 0xFFFFFFF0u;
	after.write_latency.bin[1].count = 0x10;
	CHECK_EQ_U64(ebs_stats_delta(&before, &after, &d), EBS_STATS_OK);
	CHECK_EQ_U64(d.read_ops, 150);
	CHECK_EQ_U64(d.instance_throughput_exceeded_us, 150);
	CHECK_EQ_U64(d.queue_length, 3);
	CHECK_EQ_U64(d.read_latency.bins, 16);
	CHECK_EQ_U64(d.read_latency.bin[2].count, 40);
	CHECK_EQ_U64(d.read_latency.bin[2].lower_us, 2);
	CHECK_EQ_U64(d.read_latency.bin[3].count, 0);
	CHECK_EQ_U64(d.write_latency.bin[0].count, 5);
	CHECK_EQ_U64(d.write_latency.bin[1].count, 0x20);
}

static void test_delta_refuses_mismatch(struct checks *checks)
{
	uint8_t page[EBS_STATS_PAGE_BYTES];
	struct ebs_stats before, after, d;
	make_page(page, 0x3C23B510, 100, 16);
	parse_ok(checks, page, &before);
	make_page(page, 0x3C23B510, 200, 17);
	parse_ok(checks, page, &after);
	CHECK_EQ_U64(ebs_stats_delta(&before, &after, &d), (uint64_t)EBS_STATS_MISMATCH);
	make_page(page, 0xEC2C0D7E, 200, 16);
	parse_ok(checks, page, &after);
	CHECK_EQ_U64(ebs_stats_delta(&before, &after, &d), (uint64_t)EBS_STATS_MISMATCH);
	make_page(page, 0x3C23B510, 200, 16);
	put_le(page + 512 + 8 + 24 + 8, 3, 8); /* bin 1 upper bound moved */
	parse_ok(checks, page, &after);
	CHECK_EQ_U64(ebs_stats_delta(&before, &after, &d), (uint64_t)EBS_STATS_MISMATCH);
	/* A reattached volume starts its counters again. */
	make_page(page, 0x3C23B510, 50, 16);
	parse_ok(checks, page, &after);
	CHECK_EQ_U64(ebs_stats_delta(&before, &after, &d), (uint64_t)EBS_STATS_WENT_BACKWARDS);
	CHECK_EQ_U64(d.read_ops, 0);
}

static void test_throttle_verdict(struct checks *checks)
{
	struct ebs_stats d;
	struct ebs_throttle_verdict v;
	const uint64_t minute = 60 * 1000000ull;
	memset(&d, 0, sizeof(d));
	ebs_stats_throttle_judge(&d, minute, &v);
	CHECK(v.limiter == EBS_THROTTLE_NONE);

	d.volume_iops_exceeded_us = 30 * 1000000ull;
	d.instance_throughput_exceeded_us = 6 * 1000000ull;
	ebs_stats_throttle_judge(&d, minute, &v);
	CHECK(v.limiter == EBS_THROTTLE_VOLUME_IOPS);
	CHECK_NEAR(v.fraction[EBS_THROTTLE_VOLUME_IOPS], 0.5, 1e-12);
	CHECK_NEAR(v.fraction[EBS_THROTTLE_INSTANCE_THROUGHPUT], 0.1, 1e-12);
	CHECK_NEAR(v.fraction[EBS_THROTTLE_VOLUME_THROUGHPUT], 0.0, 0);

	d.instance_throughput_exceeded_us = 45 * 1000000ull;
	ebs_stats_throttle_judge(&d, minute, &v);
	CHECK(v.limiter == EBS_THROTTLE_INSTANCE_THROUGHPUT);

	/* Sampling skew can make exceeded time exceed the phase. */
	d.instance_throughput_exceeded_us = minute + 5000;
	ebs_stats_throttle_judge(&d, minute, &v);
	CHECK_NEAR(v.fraction[EBS_THROTTLE_INSTANCE_THROUGHPUT], 1.0, 0);
}

static void test_throttle_floor_and_ties(struct checks *checks)
{
	struct ebs_stats d;
	struct ebs_throttle_verdict v;
	memset(&d, 0, sizeof(d));
	/* 0.5 s over in a minute: the first second's overshoot. */
	d.volume_throughput_exceeded_us = 500000;
	ebs_stats_throttle_judge(&d, 60 * 1000000ull, &v);
	CHECK(v.limiter == EBS_THROTTLE_NONE);
	CHECK(v.fraction[EBS_THROTTLE_VOLUME_THROUGHPUT] > 0);
	d.volume_throughput_exceeded_us = 10;
	d.instance_iops_exceeded_us = 10;
	ebs_stats_throttle_judge(&d, 100, &v);
	CHECK(v.limiter == EBS_THROTTLE_VOLUME_THROUGHPUT);
	ebs_stats_throttle_judge(&d, 0, &v);
	CHECK(v.limiter == EBS_THROTTLE_NONE);
	CHECK_NEAR(v.fraction[EBS_THROTTLE_INSTANCE_IOPS], 0.0, 0);
}

static void test_ioctl_on_non_nvme(struct checks *checks)
{
	uint8_t page[EBS_STATS_PAGE_BYTES];
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (!CHECK(fd >= 0))
		return;
	int rc = ebs_stats_read(fd, page);
	CHECK(rc == -ENOTTY || rc == -EINVAL);
	close(fd);
}

CHECK_MAIN(test_ebs_page, test_instance_store_page, test_full_histograms_meet_exactly, test_not_ec2,
	   test_garbage, test_short, test_delta, test_delta_refuses_mismatch, test_throttle_verdict,
	   test_throttle_floor_and_ties, test_ioctl_on_non_nvme)
