/* init_probe.h - whether a volume is still loading from its snapshot, seen
 * from the device: a sample of blocks read once, then the same blocks read
 * again.
 *
 * A volume restored from an EBS snapshot fetches each block from S3 on its
 * first read (AWS's "Initialize Amazon EBS volumes"); until then those
 * reads are many times slower than a read of the same block afterwards.
 * An empty new volume, or one already read whole, reads both times alike.
 * The probe reads INIT_PROBE_BLOCKS blocks of 4 KiB at random offsets over
 * the whole device (a fixed seed: the same blocks every time), INIT_PROBE_DEPTH
 * in flight, O_DIRECT (no page cache between the two passes), then the same
 * blocks in the same order again, and compares the two passes' median
 * completion latencies.  Read-only; it costs 2 x 64 reads and, on a loading
 * volume, loads those 64 blocks. */
#ifndef EBSBENCH_INIT_PROBE_H
#define EBSBENCH_INIT_PROBE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct job_context;

#define INIT_PROBE_BLOCKS 64u
#define INIT_PROBE_DEPTH 4u
#define INIT_PROBE_BS 4096u
/* Fewer blocks read in each pass than this (a tiny device, a stop): "unknown". */
#define INIT_PROBE_MIN_BLOCKS 16u
/* "loading" when the first pass's median is at least this many times the
 * second's and at least INIT_PROBE_MIN_GAP_MS above it: a loading EBS block
 * costs tens of milliseconds against a loaded one's fraction of one, while
 * two passes over loaded blocks differ by noise (a few tens of percent). */
#define INIT_PROBE_RATIO 3.0
#define INIT_PROBE_MIN_GAP_MS 1.0

/* What the probe saw. */
struct init_probe {
	/* "loading", "not loading", "unknown"; or "not judged" (set by the run)
	 * on a device not recognised as EBS, which has no snapshot to load. */
	const char *state;
	uint64_t blocks;		      /* read in each pass (the lesser of the two) */
	double first_ms, second_ms;	      /* median completion latency of each pass */
	double first_mean_ms, second_mean_ms; /* and their means */
	double seconds;			      /* both passes */
};

/* Probes the block device path of size bytes (read-only).  ctx gives the
 * stop flag and the progress label.  0 with r filled, or -1 with err when
 * the device could not be read. */
int init_probe_device(struct init_probe *r, const char *path, uint64_t size,
		      const struct job_context *ctx, char *err, size_t errlen);

/* results.json's and discover's "initialization": {state, first_read_ms,
 * second_read_ms, first_read_mean_ms, second_read_mean_ms, blocks, seconds}. */
json_t *init_probe_json(const struct init_probe *r);

/* One line for a person: "still loading from its snapshot: the first read of
 * 64 blocks took 21.3 ms (median), the same blocks again 0.41 ms". */
void init_probe_describe(const struct init_probe *r, char *buf, size_t len);

#endif
