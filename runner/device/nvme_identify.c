/* nvme_identify.c - Identify Controller page parsing and the admin ioctl. */
#include "device/nvme_identify.h"
#include "device/internal.h"
#include "lib/lib.h"

#include <errno.h>
#include <linux/nvme_ioctl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

/* Byte offsets in the Identify Controller data structure (NVMe base spec)
 * and in Amazon's vendor-specific area. */
#define ID_VID 0
#define ID_SERIAL 4
#define ID_SERIAL_LEN 20
#define ID_MODEL 24
#define ID_MODEL_LEN 40
#define ID_FIRMWARE 64
#define ID_FIRMWARE_LEN 8
#define ID_VS_BDEV 3072
#define ID_VS_BDEV_LEN 32

#define NVME_ADMIN_IDENTIFY 0x06
#define NVME_CNS_CONTROLLER 1

static bool is_printable(uint8_t c)
{
	return c >= 0x20 && c < 0x7f;
}

/* Copies a space-padded ASCII field into out (len+1 bytes), trimming
 * spaces on both ends: some controllers right-align their serials.  Trailing
 * NULs are accepted as padding too, as some firmware writes them; any other
 * unprintable byte makes the field, and so the page, garbage. */
static int copy_ascii_field(const uint8_t *field, size_t len, char *out)
{
	size_t end = len, start = 0;
	while (end > 0 && field[end - 1] == 0)
		end--;
	for (size_t i = 0; i < end; i++)
		if (!is_printable(field[i]))
			return -1;
	while (end > 0 && field[end - 1] == ' ')
		end--;
	while (start < end && field[start] == ' ')
		start++;
	memcpy(out, field + start, end - start);
	out[end - start] = '\0';
	return 0;
}

enum nvme_ctrl_kind nvme_identify_kind_from_model(const char *model)
{
	if (strcmp(model, NVME_MODEL_EBS) == 0)
		return NVME_CTRL_EBS;
	if (strcmp(model, NVME_MODEL_INSTANCE_STORE) == 0)
		return NVME_CTRL_INSTANCE_STORE;
	return NVME_CTRL_OTHER;
}

static bool is_lower_hex(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
			return false;
	return true;
}

int nvme_identify_volume_id_from_serial(const char *serial, char *out, size_t len)
{
	/* EBS drops the dash to fit 20 bytes: "vol0123456789abcdef0". */
	const char *hex = NULL;
	if (strncmp(serial, "vol-", 4) == 0)
		hex = serial + 4;
	else if (strncmp(serial, "vol", 3) == 0)
		hex = serial + 3;
	if (len)
		out[0] = '\0';
	if (!hex || !is_lower_hex(hex) || strlen(hex) < 8)
		return -1;
	if ((size_t)snprintf(out, len, "vol-%s", hex) >= len) {
		if (len)
			out[0] = '\0';
		return -1;
	}
	return 0;
}

/* The block-device mapping name ("sdf" or "/dev/sdf") ends at the first
 * space or NUL.  It is vendor-specific data: anything that does not look
 * like a device name is dropped rather than reported as an error. */
static void parse_bdev_name(const uint8_t *vs, char *out, size_t len)
{
	char name[ID_VS_BDEV_LEN + 1];
	size_t n = 0;
	out[0] = '\0';
	while (n < ID_VS_BDEV_LEN && vs[n] != ' ' && vs[n] != 0) {
		char c = (char)vs[n];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '/' || c == '_' || c == '-';
		if (!ok)
			return;
		name[n++] = c;
	}
	name[n] = '\0';
	if (n == 0)
		return;
	snprintf(out, len, "%s%s", name[0] == '/' ? "" : "/dev/", name);
}

int nvme_identify_parse(const uint8_t *page, size_t len, struct nvme_controller_id *out)
{
	memset(out, 0, sizeof(*out));
	if (!page || len < NVME_IDENTIFY_PAGE_BYTES)
		return NVME_IDENTIFY_SHORT;
	if (copy_ascii_field(page + ID_SERIAL, ID_SERIAL_LEN, out->serial) ||
	    copy_ascii_field(page + ID_MODEL, ID_MODEL_LEN, out->model) ||
	    copy_ascii_field(page + ID_FIRMWARE, ID_FIRMWARE_LEN, out->firmware) ||
	    !out->model[0]) {
		/* An all-zero page (a command that "succeeded" without data)
		 * lands here too: every controller has a model. */
		memset(out, 0, sizeof(*out));
		return NVME_IDENTIFY_GARBAGE;
	}
	out->vid = le16(page + ID_VID);
	/* The model alone is not enough: a QEMU or test controller could
	 * claim it, and only Amazon's vendor area means what we read. */
	out->kind = out->vid == NVME_VID_AMAZON ? nvme_identify_kind_from_model(out->model)
						: NVME_CTRL_OTHER;
	if (out->kind == NVME_CTRL_EBS) {
		nvme_identify_volume_id_from_serial(out->serial, out->volume_id,
						    sizeof(out->volume_id));
		parse_bdev_name(page + ID_VS_BDEV, out->bdev_name, sizeof(out->bdev_name));
	}
	return NVME_IDENTIFY_OK;
}

int nvme_identify_controller(int fd, uint8_t page[NVME_IDENTIFY_PAGE_BYTES])
{
	struct nvme_admin_cmd cmd;
	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = NVME_ADMIN_IDENTIFY;
	cmd.addr = (uint64_t)(uintptr_t)page;
	cmd.data_len = NVME_IDENTIFY_PAGE_BYTES;
	cmd.cdw10 = NVME_CNS_CONTROLLER;
	int rc = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &cmd);
	if (rc < 0)
		return -errno;
	/* A positive value is the NVMe status of a failed command. */
	return rc > 0 ? -EIO : 0;
}
