/* fuzz_sysfs_attr.c - a sysfs attribute as discovery reads it: the first
 * line through fgets into its buffer (32 bytes for numbers, 48 for model
 * and serial), trimmed, then read as a size, a MAJ:MIN or a device name. */
#include <stdio.h>
#include <stdlib.h>

#include "device/discover_text.h"
#include "input.h"

/* The first line of the attribute, as read_attr() gets it. */
static int first_line(const uint8_t *data, size_t size, char *buf, int len)
{
	FILE *f = fmemopen((void *)data, size, "r");
	char *got;

	if (!f)
		return -1;
	got = fgets(buf, len, f);
	fclose(f);
	if (!got)
		return -1;
	discover_sysfs_trim(buf);
	return 0;
}

/* One input: the contents of a sysfs attribute file. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char number[32], text[48];
	uint64_t v;
	unsigned major, minor;

	if (size == 0)
		return 0;
	if (first_line(data, size, number, sizeof(number)) == 0) {
		(void)discover_sysfs_parse_u64(number, &v);
		(void)discover_sysfs_parse_dev(number, &major, &minor);
	}
	if (first_line(data, size, text, sizeof(text)) == 0) {
		(void)discover_is_nvme_namespace(text);
		(void)discover_is_other_disk(text);
	}
	return 0;
}
