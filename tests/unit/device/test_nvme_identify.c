/* test_nvme_identify.c - Identify Controller pages as EBS, instance store,
 * QEMU and broken firmware write them. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "device/nvme_identify.h"
#include "device/internal.h"

/* Space-padded as the NVMe spec has it. */
static void put_field(uint8_t *page, size_t off, size_t len, const char *text)
{
	memset(page + off, ' ', len);
	memcpy(page + off, text, strlen(text));
}

static void make_page(uint8_t *page, uint16_t vid, const char *serial, const char *model,
		      const char *bdev)
{
	memset(page, 0, NVME_IDENTIFY_PAGE_BYTES);
	page[0] = (uint8_t)(vid & 0xff);
	page[1] = (uint8_t)(vid >> 8);
	put_field(page, 4, 20, serial);
	put_field(page, 24, 40, model);
	put_field(page, 64, 8, "1.0");
	if (bdev)
		put_field(page, 3072, 32, bdev);
}

static void test_ebs_volume(struct checks *checks)
{
	uint8_t page[NVME_IDENTIFY_PAGE_BYTES];
	struct nvme_controller_id id;
	make_page(page, 0x1D0F, "vol0abc1234567890def", "Amazon Elastic Block Store", "sdf");
	CHECK_EQ_U64(nvme_identify_parse(page, sizeof(page), &id), NVME_IDENTIFY_OK);
	CHECK_EQ_U64(id.vid, 0x1D0F);
	CHECK(id.kind == NVME_CTRL_EBS);
	CHECK(strcmp(id.serial, "vol0abc1234567890def") == 0);
	CHECK(strcmp(id.model, "Amazon Elastic Block Store") == 0);
	CHECK(strcmp(id.firmware, "1.0") == 0);
	CHECK(strcmp(id.volume_id, "vol-0abc1234567890def") == 0);
	CHECK(strcmp(id.bdev_name, "/dev/sdf") == 0);

	/* Newer instances write the full path; keep it as is. */
	make_page(page, 0x1D0F, "vol0abc1234567890def", "Amazon Elastic Block Store", "/dev/xvdba");
	CHECK_EQ_U64(nvme_identify_parse(page, sizeof(page), &id), NVME_IDENTIFY_OK);
	CHECK(strcmp(id.bdev_name, "/dev/xvdba") == 0);
}

static void test_ebs_odd_vendor_area(struct checks *checks)
{
	uint8_t page[NVME_IDENTIFY_PAGE_BYTES];
	struct nvme_controller_id id;
	/* No mapping, then bytes that are no device name: the page still
	 * parses, only the mapping is dropped. */
	make_page(page, 0x1D0F, "vol0abc1234567890def", "Amazon Elastic Block Store", NULL);
	CHECK_EQ_U64(nvme_identify_parse(page, sizeof(page), &id), NVME_IDENTIFY_OK);
	CHECK(strcmp(id.bdev_name, "") == 0);
	make_page(page, 0x1D0F, "vol0abc1234567890def", "Amazon Elastic Block Store", "sd\x01");
	CHECK_EQ_U64(nvme_identify_parse(page, sizeof(page), &id), NVME_IDENTIFY_OK);
	CHECK(strcmp(id.bdev_name, "") == 0);
	CHECK(strcmp(id.volume_id, "vol-0abc1234567890def") == 0);
}

static void test_instance_store(struct checks *checks)
{
	uint8_t page[NVME_IDENTIFY_PAGE_BYTES];
	struct nvme_controller_id id;
	make_page(page, 0x1D0F, "AWS22F1A2B3C4D5E6F7", "Amazon EC2 NVMe Instance Storage", "sdb");
	CHECK_EQ_U64(nvme_identify_parse(page, sizeof(page), &id), NVME_IDENTIFY_OK);
	CHECK(id.kind == NVME_CTRL_INSTANCE_STORE);
	CHECK(strcmp(id.volume_id, "") == 0);
	CHECK(strcmp(id.bdev_name, "") == 0); /* only EBS's vendor area is read */
}

static void test_qemu_like(struct checks *checks)
{
	uint8_t page[NVME_IDENTIFY_PAGE_BYTES];
	struct nvme_controller_id id;
	make_page(page, 0x1B36, "vol0123456789abcdef0", "QEMU NVMe Ctrl", NULL);
	CHECK_EQ_U64(nvme_identify_parse(page, sizeof(page), &id), NVME_IDENTIFY_OK);
	CHECK(id.kind == NVME_CTRL_OTHER);
	CHECK(strcmp(id.model, "QEMU NVMe Ctrl") == 0);
	CHECK(strcmp(id.serial, "vol0123456789abcdef0") == 0);
	CHECK(strcmp(id.volume_id, "") == 0); /* discover's accept_model decides */
	/* Claiming Amazon's model without Amazon's vendor id is not EBS. */
	make_page(page, 0x1B36, "vol0123456789abcdef0", "Amazon Elastic Block Store", "sdf");
	CHECK_EQ_U64(nvme_identify_parse(page, sizeof(page), &id), NVME_IDENTIFY_OK);
	CHECK(id.kind == NVME_CTRL_OTHER);
	CHECK(strcmp(id.bdev_name, "") == 0);
}

static void test_nul_padding_and_leading_spaces(struct checks *checks)
{
	uint8_t page[NVME_IDENTIFY_PAGE_BYTES];
	struct nvme_controller_id id;
	make_page(page, 0x144D, "", "", NULL);
	memset(page + 4, 0, 20);
	memcpy(page + 4, "  S4EWNX0R", 10);
	memset(page + 24, 0, 40);
	memcpy(page + 24, "Samsung SSD 980", 15);
	CHECK_EQ_U64(nvme_identify_parse(page, sizeof(page), &id), NVME_IDENTIFY_OK);
	CHECK(strcmp(id.serial, "S4EWNX0R") == 0);
	CHECK(strcmp(id.model, "Samsung SSD 980") == 0);
}

static void test_garbage(struct checks *checks)
{
	uint8_t page[NVME_IDENTIFY_PAGE_BYTES];
	struct nvme_controller_id id;
	memset(page, 0, sizeof(page));
	CHECK_EQ_U64(nvme_identify_parse(page, sizeof(page), &id), (uint64_t)NVME_IDENTIFY_GARBAGE);
	CHECK_EQ_U64(id.vid, 0);
	for (size_t i = 0; i < sizeof(page); i++)
		page[i] = (uint8_t)(i * 131 + 7);
	CHECK_EQ_U64(nvme_identify_parse(page, sizeof(page), &id), (uint64_t)NVME_IDENTIFY_GARBAGE);
	CHECK(id.model[0] == '\0');
	/* A NUL inside the text, not as padding. */
	make_page(page, 0x1D0F, "vol0abc1234567890def", "Amazon Elastic Block Store", "sdf");
	page[24 + 6] = 0;
	CHECK_EQ_U64(nvme_identify_parse(page, sizeof(page), &id), (uint64_t)NVME_IDENTIFY_GARBAGE);
}

static void test_short(struct checks *checks)
{
	uint8_t page[NVME_IDENTIFY_PAGE_BYTES];
	struct nvme_controller_id id;
	make_page(page, 0x1D0F, "vol0abc1234567890def", "Amazon Elastic Block Store", "sdf");
	CHECK_EQ_U64(nvme_identify_parse(page, sizeof(page) - 1, &id),
		     (uint64_t)NVME_IDENTIFY_SHORT);
	CHECK_EQ_U64(nvme_identify_parse(page, 0, &id), (uint64_t)NVME_IDENTIFY_SHORT);
	CHECK_EQ_U64(nvme_identify_parse(NULL, 4096, &id), (uint64_t)NVME_IDENTIFY_SHORT);
	CHECK(id.kind == NVME_CTRL_OTHER && id.serial[0] == '\0');
}

static void test_volume_id_from_serial(struct checks *checks)
{
	char out[24];
	CHECK_EQ_U64(nvme_identify_volume_id_from_serial("vol0123456789abcdef0", out, sizeof(out)),
		     0);
	CHECK(strcmp(out, "vol-0123456789abcdef0") == 0);
	CHECK_EQ_U64(nvme_identify_volume_id_from_serial("vol-0123456789abcdef0", out, sizeof(out)),
		     0);
	CHECK(strcmp(out, "vol-0123456789abcdef0") == 0);
	CHECK_EQ_U64(nvme_identify_volume_id_from_serial("vol12345678", out, sizeof(out)), 0);
	CHECK(strcmp(out, "vol-12345678") == 0); /* the old 8-digit ids */
	CHECK(nvme_identify_volume_id_from_serial("volume-1", out, sizeof(out)) != 0);
	CHECK(out[0] == '\0');
	CHECK(nvme_identify_volume_id_from_serial("vol0ABCDEF12345678", out, sizeof(out)) != 0);
	CHECK(nvme_identify_volume_id_from_serial("vol123", out, sizeof(out)) != 0);
	CHECK(nvme_identify_volume_id_from_serial("", out, sizeof(out)) != 0);
	CHECK(nvme_identify_volume_id_from_serial("vol0123456789abcdef0", out, 10) != 0);
	CHECK(out[0] == '\0');
}

static void test_ioctl_on_non_nvme(struct checks *checks)
{
	uint8_t page[NVME_IDENTIFY_PAGE_BYTES];
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (!CHECK(fd >= 0))
		return;
	int rc = nvme_identify_controller(fd, page);
	CHECK(rc == -ENOTTY || rc == -EINVAL);
	close(fd);
	CHECK_EQ_U64(nvme_identify_controller(-1, page), (uint64_t)-EBADF);
}

CHECK_MAIN(test_ebs_volume, test_ebs_odd_vendor_area, test_instance_store, test_qemu_like,
	   test_nul_padding_and_leading_spaces, test_garbage, test_short,
	   test_volume_id_from_serial, test_ioctl_on_non_nvme)
