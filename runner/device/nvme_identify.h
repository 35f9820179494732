/* nvme_identify.h - what an NVMe Identify Controller page says about the
 * device behind it: an EBS volume (and which one, mapped where), an EC2
 * instance store, or anything else.  Parsing is a pure function on the page,
 * so tests feed it crafted pages; the ioctl is a separate thin wrapper. */
#ifndef EBSBENCH_NVME_IDENTIFY_H
#define EBSBENCH_NVME_IDENTIFY_H

#include <stddef.h>
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

/* Parse results; negative so they never collide with a field count. */
enum nvme_identify_status {
	NVME_IDENTIFY_OK = 0,
	NVME_IDENTIFY_SHORT = -1,   /* fewer than NVME_IDENTIFY_PAGE_BYTES */
	NVME_IDENTIFY_GARBAGE = -2, /* serial/model/firmware are not padded ASCII */
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

/* Fills out from an Identify Controller page of len bytes.  Returns
 * NVME_IDENTIFY_OK or a negative nvme_identify_status; out is zeroed on
 * error, never half filled. */
int nvme_identify_parse(const uint8_t *page, size_t len, struct nvme_controller_id *out);

/* The kind a model string names (padding already stripped). */
enum nvme_ctrl_kind nvme_identify_kind_from_model(const char *model);

/* "vol0abc..." or "vol-0abc..." -> "vol-0abc...".  Returns 0, or -1 (and
 * out = "") when serial is not an EBS volume id. */
int nvme_identify_volume_id_from_serial(const char *serial, char *out, size_t len);

/* Issues Identify Controller (admin opcode 0x06, CNS 1) on fd, an NVMe
 * namespace or controller node.  Returns 0, -errno from the ioctl, or -EIO
 * when the controller completed the command with an error status.  Needs
 * CAP_SYS_ADMIN. */
int nvme_identify_controller(int fd, uint8_t page[NVME_IDENTIFY_PAGE_BYTES]);

#endif
