/* fuzz_nvme_identify.c - the Identify Controller page a device answers
 * (vendor, serial, model, firmware, the EBS block-device mapping), and a
 * serial alone as the volume id it may name. */
#include <stdlib.h>

#include "input.h"
#include "device/nvme_identify.h"
#include "device/internal.h"

/* One input: an Identify Controller page (and, when short, a serial). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nvme_controller_id id;

	if (nvme_identify_parse(data, size, &id) == NVME_IDENTIFY_OK) {
		(void)nvme_identify_kind_from_model(id.model);
	}
	if (size <= 64) {
		char *serial = fuzz_cstring(data, size), volume_id[24];
		(void)nvme_identify_volume_id_from_serial(serial, volume_id, sizeof(volume_id));
		free(serial);
	}
	return 0;
}
