/* config.h - what `ebsbench run` is asked to do, from one JSON document:
 *
 *   { "devices": [ { "path": "/dev/nvme1n1" | "volume_id": "vol-...", "label": "gp2",
 *                    "type": "gp2", "size_gib": 100, "iops": 3000, "throughput_mibs": 125 } ],
 *     "allow_destroy": ["vol-...", "/dev/loop3"], "accept_model": "QEMU NVMe Ctrl",
 *     "region": "ap-northeast-2", "time_scale": 1, "test_size": "8G", "ioengine": "io_uring",
 *     "output_dir": "results", "phases": [ { "phase": "randread", "runtime": 900 }, ... ],
 *     "prices": { "gp3.iops_month": 0.0057 },
 *     "environment": { "instance_type": "m5.xlarge", "instance_id": "i-...", "zone": "...",
 *                      "image_digest": "sha256:..." },
 *     "upload": { "put": { "results.json": "https://...", ... } | "post": { ... },
 *                 "ca_file": "/etc/ebsbench/ca.pem", "max_retry_s": 120 } }   (see upload.h)
 *
 * Every key is optional; an unknown key is an error, as for fio options, and
 * so is a number outside its range (config.c's key table states them; a
 * volume's come from the EBS model's type table). */
#ifndef EBSBENCH_CONFIG_H
#define EBSBENCH_CONFIG_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "upload/upload.h"

#define CONFIG_MAX_DEVICES 16
#define CONFIG_MAX_ALLOW 32

struct device_config {
	char path[160]; /* one of path and volume_id names the device */
	char volume_id[24];
	char label[32]; /* "" = derived from the volume type or name */
	bool has_type;
	enum ebs_type type;
	double size_gib;	/* 0 = the device's size */
	double iops;		/* 0 = the type's default */
	double throughput_mibs; /* 0 = the type's default */
};

struct run_config {
	struct device_config devices[CONFIG_MAX_DEVICES];
	size_t device_count;
	char allow_destroy[CONFIG_MAX_ALLOW][160];
	size_t allow_count;
	char accept_model[48];
	char region[32];
	double time_scale;
	uint64_t test_size;
	char ioengine[16];
	char output_dir[1024];
	json_t *phases; /* array of phase objects replacing the default plan, or NULL */
	bool quick;	/* "plan": "quick" or --plan quick (run/plan_quick.h) */
	struct ebs_prices prices;
	bool prices_overridden;
	char instance_type[32];
	char instance_id[32];
	char zone[32];
	char image_digest[96];
	struct upload_config upload; /* mode UPLOAD_NONE: no "upload" key */
};

/* A phase's "runtime", in the benchmark's seconds (before time_scale): at
 * most a week, so no planned duration overflows a nanosecond count. */
#define CONFIG_RUNTIME_MAX_S 604800.0
#define CONFIG_RUNTIME_RANGE "0..604800 s (a week)"
/* A price override, USD per unit-month (AWS's are cents and fractions),
 * or what a price includes ("gp3.iops_included": 3000), in IOPS or MiB/s:
 * at most the most IOPS any EBS type allows. */
#define CONFIG_PRICE_MAX_USD 1000.0

/* A volume's numbers; config_volume_max is the most any EBS type allows
 * for one (ebs_model.c's type table): what `recommend` may be asked for. */
enum volume_number { VOLUME_SIZE_GIB, VOLUME_IOPS, VOLUME_MIBS };
double config_volume_max(enum volume_number n);
/* recommend's --p99-ms: at most a minute. */
#define CONFIG_P99_MS_MAX 60000.0

void config_defaults(struct run_config *c);
int config_from_json(struct run_config *c, json_t *root, char *err, size_t errlen);
int config_load_file(struct run_config *c, const char *path, char *err, size_t errlen);
void config_free(struct run_config *c);
/* Applies a config's "prices" object ({"gp3.iops_month": 0.0057, ...}) on
 * top of p; *count gets how many it set.  -1 with a one-line reason naming
 * the first unknown or non-numeric price. */
int config_prices_apply(struct ebs_prices *p, json_t *obj, unsigned *count, char *err,
			size_t errlen);

#endif
