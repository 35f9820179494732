/* fuzz_run_config.c - `ebsbench run --config`: the JSON config (devices,
 * phases, prices, the upload block), then everything a run and `presign
 * --plan` derive from it before any I/O: device choice on a fixed pair of
 * volumes, the plan with its phases' fio options, the write guard, the
 * upload URLs' expiry check and the names presign would sign. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "run/config.h"
#include "device/discover.h"
#include "input.h"
#include "run/plan.h"
#include "launch/launch.h"
#include "launch/internal.h"
#include "run/run_devices.h"
#include "run/internal.h"
#include "upload/upload.h"

/* Two blank 100 GiB EBS volumes, as discovery would report them (the
 * volume ids the QEMU harness's configs in the corpus name). */
static void fake_volumes(struct discovered_device d[2])
{
	static const char *const ids[2] = { "vol-0123456789abcdef0", "vol-0fedcba9876543210" };

	memset(d, 0, 2 * sizeof(*d));
	for (int i = 0; i < 2; i++) {
		snprintf(d[i].name, sizeof(d[i].name), "nvme%dn1", i + 1);
		snprintf(d[i].dev_path, sizeof(d[i].dev_path), "/dev/nvme%dn1", i + 1);
		snprintf(d[i].volume_id, sizeof(d[i].volume_id), "%s", ids[i]);
		snprintf(d[i].model, sizeof(d[i].model), "%s", NVME_MODEL_EBS);
		d[i].major = 259;
		d[i].minor = (unsigned)i;
		d[i].size_bytes = 100ull << 30;
		d[i].logical_block_size = 512;
		d[i].nvme = d[i].ebs_like = true;
		d[i].kind = NVME_CTRL_EBS;
	}
}

/* What cmd_run does between loading the config and the first I/O. */
static void plan_run(const struct run_config *c)
{
	struct discovered_device found[2];
	struct discover_list list = { found, 2 };
	struct run_device devices[CONFIG_MAX_DEVICES];
	size_t count = 0;
	struct plan p;
	char err[512];

	fake_volumes(found);
	if (run_devices_resolve(c, &list, devices, &count, err, sizeof(err)))
		return;
	memset(&p, 0, sizeof(p));
	if (plan_build(&p, c, devices, count, err, sizeof(err)) == 0) {
		if (p.writes)
			(void)run_devices_check_writes(c, devices, count, err, sizeof(err));
		if (c->upload.mode != UPLOAD_NONE)
			(void)upload_config_check(&c->upload, 1788307200, (double)p.total_ns / 1e9,
						  err, sizeof(err));
	}
	plan_free(&p);
}

/* What `ebsbench presign --plan` reads from the same file. */
static void presign_plan(const struct run_config *c)
{
	struct presign_names n;
	double seconds;
	char err[512];

	memset(&n, 0, sizeof(n));
	(void)presign_names_from_config(&n, c, err, sizeof(err));
	presign_names_free(&n);
	(void)presign_plan_seconds(c, &seconds, err, sizeof(err));
}

/* One input: a run config document. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_error_t jerr;
	json_t *root = json_loadb((const char *)data, size, 0, &jerr);
	struct run_config c;
	char err[512];

	if (!root)
		return 0;
	config_defaults(&c);
	if (config_from_json(&c, root, err, sizeof(err)) == 0) {
		plan_run(&c);
		presign_plan(&c);
	}
	config_free(&c);
	json_decref(root);
	return 0;
}
