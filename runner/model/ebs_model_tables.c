/* ebs_model_tables.c - the dated tables the model reads: each EBS volume
 * type's rules and each instance type's EBS limits, with the AWS pages
 * they come from, and the lookups into them. */
#include "model/ebs_model.h"
#include "lib/lib.h"

#include <string.h>
#include <strings.h>

/* Volume types, checked 2026-12 against AWS's EBS User Guide and the EC2
 * API model documentation: each value's source, and what could not be
 * confirmed, are in docs/analysis.md, "The model's sources" (change both
 * together).  gp2 between 170 and 334 GiB: modelled as 128 MiB/s up to 170
 * GiB and 250 above, the 256 KiB accounting doing the rest (the page says
 * why). */
#define MERGE_MIN (32 * KIB)
static const struct ebs_type_rules type_table[EBS_TYPE_COUNT] = {
	[EBS_GP2] = {
		.type = EBS_GP2, .name = "gp2", .unit_bytes = 256 * KIB,
		.min_gib = 1, .max_gib = 16384,
		.max_mibs = 250, .small_mibs = 128, .small_max_gib = 170,
		.size_derived = true, .iops_reported = true,
		.baseline_per_gib = 3, .baseline_min = 100, .baseline_max = 16000,
		.burst_fixed = 3000, .burst_max = 3000,
		.bucket_fixed = 5.4e6, .merge_min_bytes = MERGE_MIN,
	},
	[EBS_GP3] = {
		.type = EBS_GP3, .name = "gp3", .unit_bytes = 256 * KIB,
		.min_gib = 1, .max_gib = 65536, .max_mibs = 2000,
		.iops_default = EBS_GP3_IOPS_INCLUDED, .iops_min = EBS_GP3_IOPS_INCLUDED,
		.iops_max = 80000,
		.iops_per_gib_max = 500,
		.mibs_provisioned = true,
		.mibs_default = EBS_GP3_MIBS_INCLUDED, .mibs_min = EBS_GP3_MIBS_INCLUDED,
		.mibs_per_iops = 0.25,
		.merge_min_bytes = MERGE_MIN,
	},
	[EBS_IO1] = {
		.type = EBS_IO1, .name = "io1", .unit_bytes = 256 * KIB,
		.min_gib = 4, .max_gib = 16384, .max_mibs = 1000,
		.iops_default = 3000, .iops_min = 100, .iops_max = 64000,
		.iops_per_gib_max = 50,
		.knee_iops = 32000, .knee_mibs = 500, .kib_per_iops_above_knee = 16,
		.merge_min_bytes = MERGE_MIN,
	},
	[EBS_IO2] = {
		.type = EBS_IO2, .name = "io2", .unit_bytes = 256 * KIB,
		.min_gib = 4, .max_gib = 65536, .max_mibs = 4000,
		.iops_default = 3000, .iops_min = 100, .iops_max = 256000,
		.iops_per_gib_max = 1000, .mibs_per_iops = 0.25,
		.merge_min_bytes = MERGE_MIN,
	},
	[EBS_ST1] = {
		.type = EBS_ST1, .name = "st1", .unit_bytes = MIB,
		.min_gib = 125, .max_gib = 16384, .max_mibs = 500,
		.size_derived = true,
		.baseline_per_gib = 40.0 / KIB, .baseline_max = 500,
		.burst_per_gib = 250.0 / KIB, .burst_max = 500,
		.bucket_per_gib = KIB,
	},
	[EBS_SC1] = {
		.type = EBS_SC1, .name = "sc1", .unit_bytes = MIB,
		.min_gib = 125, .max_gib = 16384, .max_mibs = 250,
		.size_derived = true,
		.baseline_per_gib = 12.0 / KIB, .baseline_max = 192,
		.burst_per_gib = 80.0 / KIB, .burst_max = 250,
		.bucket_per_gib = KIB,
	},
};

/* Instance EBS limits, checked 2026-12: the sources and what each row's
 * burst means are in docs/analysis.md, "The model's sources" (change both
 * together).  Rows whose maximum exceeds their baseline burst 1,800 s a
 * day; the rest sustain their maximum and have 0. */
static const struct instance_ebs_limits instance_table[] = {
	/* name, baseline IOPS, burst IOPS, baseline MB/s, burst MB/s, burst s/day */
	{ "m5.large", 3600, 18750, 81.25, 593.75, 1800 },
	{ "m5.xlarge", 6000, 18750, 143.75, 593.75, 1800 },
	{ "m5.2xlarge", 12000, 18750, 287.5, 593.75, 1800 },
	{ "m5.4xlarge", 18750, 18750, 593.75, 593.75, 0 },
	{ "m5.8xlarge", 30000, 30000, 850, 850, 0 },
	{ "m6i.large", 3600, 40000, 81.25, 1250, 1800 },
	{ "m6i.xlarge", 6000, 40000, 156.25, 1250, 1800 },
	{ "m6i.2xlarge", 12000, 40000, 312.5, 1250, 1800 },
	{ "m6i.4xlarge", 20000, 40000, 625, 1250, 1800 },
	{ "m6i.8xlarge", 40000, 40000, 1250, 1250, 0 },
	{ "m7i.large", 3600, 40000, 81.25, 1250, 1800 },
	{ "m7i.xlarge", 6000, 40000, 156.25, 1250, 1800 },
	{ "m7i.2xlarge", 12000, 40000, 312.5, 1250, 1800 },
	{ "m7i.4xlarge", 20000, 40000, 625, 1250, 1800 },
	{ "m7i.8xlarge", 40000, 40000, 1250, 1250, 0 },
	{ "c5.large", 4000, 20000, 81.25, 593.75, 1800 },
	{ "c5.xlarge", 6000, 20000, 143.75, 593.75, 1800 },
	{ "c5.2xlarge", 10000, 20000, 287.5, 593.75, 1800 },
	{ "c5.4xlarge", 20000, 20000, 593.75, 593.75, 0 },
	{ "c5.9xlarge", 40000, 40000, 1187.5, 1187.5, 0 },
	{ "r5.large", 3600, 18750, 81.25, 593.75, 1800 },
	{ "r5.xlarge", 6000, 18750, 143.75, 593.75, 1800 },
	{ "r5.2xlarge", 12000, 18750, 287.5, 593.75, 1800 },
	{ "r5.4xlarge", 18750, 18750, 593.75, 593.75, 0 },
	{ "r5.8xlarge", 30000, 30000, 850, 850, 0 },
};

const struct ebs_type_rules *ebs_type_rules(enum ebs_type type)
{
	if ((unsigned)type >= EBS_TYPE_COUNT)
		return NULL;
	return &type_table[type];
}

int ebs_type_parse(const char *name, enum ebs_type *out)
{
	for (unsigned i = 0; i < EBS_TYPE_COUNT; i++) {
		if (strcasecmp(name, type_table[i].name) == 0) {
			*out = type_table[i].type;
			return 0;
		}
	}
	return -1;
}

const char *ebs_type_name(enum ebs_type type)
{
	const struct ebs_type_rules *r = ebs_type_rules(type);
	return r ? r->name : "unknown";
}

bool ebs_type_throughput_bucket(enum ebs_type type)
{
	const struct ebs_type_rules *r = ebs_type_rules(type);
	return r && r->unit_bytes >= MIB;
}

const char *ebs_cliff_phase(enum ebs_type type)
{
	return ebs_type_throughput_bucket(type) ? "seqread" : "randread";
}

void ebs_volume_init(struct ebs_volume *v, enum ebs_type type, double size_gib)
{
	const struct ebs_type_rules *r = ebs_type_rules(type);

	*v = (struct ebs_volume){ .type = type, .size_gib = size_gib };
	if (!r || r->size_derived)
		return;
	v->iops = r->iops_default;
	v->iops_assumed = true;
	if (r->mibs_provisioned) {
		v->throughput_mibs = r->mibs_default;
		v->throughput_assumed = true;
	}
}

const struct instance_ebs_limits *ebs_instance_limits_find(const char *instance_type)
{
	for (size_t i = 0; i < ARRAY_SIZE(instance_table); i++)
		if (strcasecmp(instance_type, instance_table[i].name) == 0)
			return &instance_table[i];
	return NULL;
}

bool ebs_instance_has_burst(const struct instance_ebs_limits *inst)
{
	return inst && inst->burst_seconds_per_day > 0;
}
