/* target.h - the block device or file a job runs against, opened and
 * checked before any I/O: size, alignment, permissions, exclusivity. */
#ifndef EBSBENCH_TARGET_H
#define EBSBENCH_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "job/options.h"

struct target {
	int fd;
	bool is_block;
	uint64_t size;		/* of the device or file, bytes */
	unsigned logical_block; /* alignment O_DIRECT needs */
	uint64_t region_offset;
	uint64_t region_size; /* whole blocks of bs only */
	dev_t disk;	      /* the disk whose /sys/block stats cover the I/O */
};

/* Opens o->filename for the job and settles the region.  A file that is
 * missing or short is created and laid out first, as fio does.
 * Returns 0, or -1 with a one-line reason in err. */
int target_open(struct target *t, const struct job_options *o, char *err, size_t errlen);
void target_close(struct target *t);

#endif
