/* nvme_identify.h - what an NVMe Identify Controller page says about the
 * device behind it: an EBS volume (and which one, mapped where), an EC2
 * instance store, or anything else.  Parsing is a pure function on the page,
 * so tests feed it crafted pages; the ioctl is a separate thin wrapper.
 * Both are discovery's own (device/internal.h); this header holds what
 * they fill in, which a discovered device carries. */
#ifndef EBSBENCH_NVME_IDENTIFY_H
#define EBSBENCH_NVME_IDENTIFY_H

#include <stdint.h>

#define NVME_IDENTIFY_PAGE_BYTES 4096
#define NVME_VID_AMAZON 0x1D0F
#define NVME_MODEL_EBS "Amazon Elastic Block Store"
#define NVME_MODEL_INSTANCE_STORE "Amazon EC2 NVMe Instance Storage"

enum nvme_ctrl_kind {
	NVME_CTRL_OTHER,
	NVME_CTRL_EBS,
	NVME_CTRL_INSTANCE_STORE,
};

struct nvme_controller_id {
	uint16_t vid;
	enum nvme_ctrl_kind kind;
	char serial[21];    /* padding stripped */
	char model[41];	    /* padding stripped */
	char firmware[9];   /* padding stripped */
	char volume_id[24]; /* "vol-0abc..." for an EBS volume, else "" */
	char bdev_name[40]; /* block-device mapping, "/dev/sdf"; "" if none */
};

#endif
