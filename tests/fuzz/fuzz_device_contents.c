/* fuzz_device_contents.c - what a device holds, as the write guard reads
 * it: the bytes become a small in-memory device (memfd), libblkid probes
 * it, the scan looks for unrecognised data and ebsbench's mark, and the
 * verdict is put into words. */
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "device/blkdev_probe.h"
#include "device/internal.h"
#include "input.h"

/* One input: the whole content of a device (zeros beyond it up to a
 * sector's multiple are the device's too, as a loop device shows them). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-device", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		struct blkdev_contents c;
		if (blkdev_contents_probe(fd, &c) == 0) {
			char text[512];
			blkdev_contents_describe(&c, text, sizeof(text));
			blkdev_contents_short(&c, text, sizeof(text));
			(void)blkdev_contents_found(&c);
		}
		/* The same bytes as an area read at an arbitrary offset. */
		struct blkdev_contents s = { 0 };
		blkdev_scan_area(data, size, size > 8 ? (uint64_t)data[0] << 9 : 0, &s);
	}
	close(fd);
	return 0;
}
