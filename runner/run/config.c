/* config.c - the run configuration, strictly parsed. */
#include "run/config.h"
#include "run/internal.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine/engine.h"
#include "job/job.h"
#include "lib/lib.h"

void config_defaults(struct run_config *c)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->region, sizeof(c->region), "ap-northeast-2");
	snprintf(c->ioengine, sizeof(c->ioengine), "%s", engine_default()->name);
	snprintf(c->output_dir, sizeof(c->output_dir), "results");
	c->time_scale = 1.0;
	c->test_size = 8ull << 30; /* the reference benchmark's 8 GiB test region */
	c->prices = ebs_prices_default();
}

static int copy_string(json_t *value, const char *key, char *dst, size_t cap, char *err,
		       size_t errlen)
{
	const char *s = json_string_value(value);
	if (!s || !s[0] || strlen(s) >= cap)
		return error_set(err, errlen,
				 "config: '%s' must be a non-empty string (under %zu bytes)", key,
				 cap);
	memcpy(dst, s, strlen(s) + 1);
	return 0;
}

static int get_positive(json_t *value, const char *key, double *out, char *err, size_t errlen)
{
	if (!json_is_number(value) || json_number_value(value) <= 0)
		return error_set(err, errlen, "config: '%s' must be a positive number", key);
	*out = json_number_value(value);
	return 0;
}

/* ---- ranges ----
 * Every number a run config carries is checked against its range as it is
 * read, so no later arithmetic meets a value nobody means (a gp2 of 22
 * billion GiB overflowed presign's byte count).  A volume's size, IOPS and
 * throughput take the EBS model's own limits (ebs_model.c's type table):
 * its type's where it names one, else the widest any type allows; the
 * other ranges are the key table's (below). */

int config_out_of_range(const char *key, const char *value, const char *range, char *err,
			size_t errlen)
{
	return error_set(err, errlen, "config: '%s' is %s, outside %s", key, value, range);
}

int config_number_out_of_range(const char *key, double value, const char *range, char *err,
			       size_t errlen)
{
	char text[32];
	snprintf(text, sizeof(text), "%.15g", value);
	return config_out_of_range(key, text, range, err, errlen);
}

/* A volume's numbers, each with its limits in a row of the type table. */
static void rule_limits(const struct ebs_type_rules *r, enum volume_number n, double *lo,
			double *hi)
{
	*lo = *hi = 0;
	switch (n) {
	case VOLUME_SIZE_GIB:
		*lo = r->min_gib;
		*hi = r->max_gib;
		break;
	case VOLUME_IOPS: /* a floor only where they are provisioned */
		*lo = r->size_derived ? 0 : r->iops_min;
		*hi = r->iops_max;
		break;
	case VOLUME_MIBS:
		*lo = r->mibs_provisioned ? r->mibs_min : 0;
		*hi = r->max_mibs;
		break;
	}
}

/* n's range for d: its type's row, else from 0 to the widest any row allows. */
static void volume_range(const struct device_config *d, enum volume_number n, double *lo,
			 double *hi)
{
	double row_lo = 0, row_hi = 0;
	*lo = *hi = 0;
	for (int t = 0; t < EBS_TYPE_COUNT; t++) {
		const struct ebs_type_rules *r = ebs_type_rules((enum ebs_type)t);
		if (d->has_type && r->type != d->type)
			continue;
		rule_limits(r, n, &row_lo, &row_hi);
		if (d->has_type)
			*lo = row_lo;
		*hi = fmax(*hi, row_hi);
	}
}

double config_volume_max(enum volume_number n)
{
	struct device_config any = { .has_type = false };
	double lo, hi;
	volume_range(&any, n, &lo, &hi);
	return hi;
}

/* A size-derived type's iops (gp2, st1, sc1): gp2's is what its size gives,
 * the figure `aws ec2 describe-volumes` reports, so that figure with its
 * size is taken and any other refused naming it; st1 and sc1 report none. */
static int derived_iops(const struct device_config *d, size_t i, char *err, size_t errlen)
{
	const struct ebs_type_rules *r = ebs_type_rules(d->type);
	double iops = ebs_size_derived_iops(d->type, d->size_gib);

	if (!r->iops_reported)
		return error_set(
			err, errlen,
			"config: 'devices[%zu].iops' is %g: %s's rate follows from its size "
			"(in MiB/s) and AWS documents no IOPS for it: leave 'iops' out",
			i, d->iops, r->name);
	if (!(d->size_gib > 0))
		return error_set(
			err, errlen,
			"config: 'devices[%zu].iops' is %g: a %s's IOPS follow from its size: "
			"give 'size_gib' with it, or leave 'iops' out",
			i, d->iops, r->name);
	if (fabs(d->iops - iops) < 0.5)
		return 0;
	return error_set(
		err, errlen,
		"config: 'devices[%zu].iops' is %g: a %s of %g GiB has %g IOPS (%g per GiB, "
		"%g..%g), what aws ec2 describe-volumes reports: give that or leave 'iops' "
		"out",
		i, d->iops, r->name, d->size_gib, iops, r->baseline_per_gib, r->baseline_min,
		r->baseline_max);
}

static int device_ranges(const struct device_config *d, size_t i, char *err, size_t errlen)
{
	const struct {
		const char *name, *unit;
		double v;
		enum volume_number n;
	} n[] = {
		{ "size_gib", "GiB", d->size_gib, VOLUME_SIZE_GIB },
		{ "iops", "IOPS", d->iops, VOLUME_IOPS },
		{ "throughput_mibs", "MiB/s", d->throughput_mibs, VOLUME_MIBS },
	};
	for (size_t k = 0; k < ARRAY_SIZE(n); k++) {
		double lo = 0, hi = 0;
		char key[48], range[64];
		if (n[k].v == 0) /* not given: the device's size, the type's default */
			continue;
		if (n[k].n == VOLUME_IOPS && d->has_type && ebs_type_rules(d->type)->size_derived) {
			if (derived_iops(d, i, err, errlen))
				return -1;
			continue;
		}
		volume_range(d, n[k].n, &lo, &hi);
		if (n[k].v >= lo && n[k].v <= hi)
			continue;
		snprintf(key, sizeof(key), "devices[%zu].%s", i, n[k].name);
		snprintf(range, sizeof(range), "%g..%g %s for %s", lo, hi, n[k].unit,
			 d->has_type ? ebs_type_rules(d->type)->name : "any EBS type");
		return config_number_out_of_range(key, n[k].v, range, err, errlen);
	}
	return 0;
}

/* ---- the key table ----
 * Every key a run config may hold is one row below: its name, what it
 * takes, its range, a line of docs and the setter that reads and checks
 * it.  The parser looks keys up here and nowhere else, and docs/run.md's
 * key table is tested against it (tests/unit/run/test_config.c). */
#define STR_(x) #x
#define STR(x) STR_(x)
#define FIELD(type, field) offsetof(type, field), sizeof(((type *)0)->field)

static int parse_object(const char *prefix, void *base, json_t *obj, char *err, size_t errlen);

static char *field_of(const struct config_key *k, void *base)
{
	return (char *)base + k->offset;
}

static int set_string(const struct config_key *k, void *base, json_t *v, char *err, size_t errlen)
{
	return copy_string(v, k->name, field_of(k, base), k->cap, err, errlen);
}

/* set_string, its message naming the key without "environment.", as it
 * always has. */
static int set_leaf_string(const struct config_key *k, void *base, json_t *v, char *err,
			   size_t errlen)
{
	return copy_string(v, strchr(k->name, '.') + 1, field_of(k, base), k->cap, err, errlen);
}

/* A positive number, within [lo, hi] where the row gives hi (a volume's
 * numbers are checked against their type once the device is read). */
static int set_positive(const struct config_key *k, void *base, json_t *v, char *err, size_t errlen)
{
	double *out = (double *)(void *)field_of(k, base);
	if (get_positive(v, k->name, out, err, errlen))
		return -1;
	if (!(k->hi > 0) || (*out >= k->lo && *out <= k->hi))
		return 0;
	return config_number_out_of_range(k->name, *out, k->range, err, errlen);
}

static int set_size(const struct config_key *k, void *base, json_t *v, char *err, size_t errlen)
{
	uint64_t *out = (uint64_t *)(void *)field_of(k, base);
	if (!json_is_string(v) || options_parse_size(json_string_value(v), out) || *out == 0)
		return error_set(err, errlen, "config: '%s' must be a size such as \"8G\"",
				 k->name);
	if ((double)*out >= k->lo && (double)*out <= k->hi)
		return 0;
	char value[32];
	snprintf(value, sizeof(value), "%" PRIu64 " bytes", *out);
	return config_out_of_range(k->name, value, k->range, err, errlen);
}

static int set_type(const struct config_key *k, void *base, json_t *v, char *err, size_t errlen)
{
	struct device_config *d = base;
	(void)k;
	if (!json_is_string(v) || ebs_type_parse(json_string_value(v), &d->type))
		return error_set(err, errlen,
				 "config: devices[].type must be gp2, gp3, io1, io2, st1 or sc1");
	d->has_type = true;
	return 0;
}

static int set_devices(const struct config_key *k, void *base, json_t *list, char *err,
		       size_t errlen)
{
	struct run_config *c = base;
	size_t i;
	json_t *item;
	(void)k;
	if (!json_is_array(list) || json_array_size(list) > CONFIG_MAX_DEVICES)
		return error_set(err, errlen,
				 "config: 'devices' must be an array of at most %d objects",
				 CONFIG_MAX_DEVICES);
	json_array_foreach(list, i, item)
	{
		struct device_config *d = &c->devices[c->device_count++];
		if (!json_is_object(item))
			return error_set(err, errlen, "config: devices[%zu] must be an object", i);
		if (parse_object("devices[].", d, item, err, errlen) ||
		    device_ranges(d, i, err, errlen))
			return -1;
		if (!d->path[0] == !d->volume_id[0])
			return error_set(err, errlen,
					 "config: devices[%zu] needs exactly one of 'path' and "
					 "'volume_id'",
					 i);
	}
	return 0;
}

static int set_allow(const struct config_key *k, void *base, json_t *list, char *err, size_t errlen)
{
	struct run_config *c = base;
	size_t i;
	json_t *item;
	(void)k;
	if (!json_is_array(list) || json_array_size(list) > CONFIG_MAX_ALLOW)
		return error_set(err, errlen,
				 "config: 'allow_destroy' must be an array of volume ids or "
				 "paths");
	json_array_foreach(list, i, item)
	{
		if (copy_string(item, "allow_destroy[]", c->allow_destroy[c->allow_count++],
				sizeof(c->allow_destroy[0]), err, errlen))
			return -1;
	}
	return 0;
}

int config_prices_apply(struct ebs_prices *p, json_t *obj, unsigned *count, char *err,
			size_t errlen)
{
	const char *key;
	json_t *v;
	*count = 0;
	if (!json_is_object(obj))
		return error_set(err, errlen, "config: 'prices' must be an object of name: USD");
	json_object_foreach(obj, key, v)
	{
		double usd = json_number_value(v); /* or an included amount */
		if (!json_is_number(v) || ebs_prices_set(p, key, usd))
			return error_set(err, errlen, "config: unknown price '%s' or not a number",
					 key);
		bool included = strstr(key, "_included") != NULL;
		double max = included ? config_volume_max(VOLUME_IOPS) : CONFIG_PRICE_MAX_USD;
		if (!(usd >= 0 && usd <= max)) {
			char name[80], range[32];
			snprintf(name, sizeof(name), "prices.%s", key);
			snprintf(range, sizeof(range), "0..%g%s", max, included ? "" : " USD");
			return config_number_out_of_range(name, usd, range, err, errlen);
		}
		(*count)++;
	}
	return 0;
}

static int set_prices(const struct config_key *k, void *base, json_t *obj, char *err, size_t errlen)
{
	struct run_config *c = base;
	unsigned n;
	(void)k;
	int rc = config_prices_apply(&c->prices, obj, &n, err, errlen);
	c->prices_overridden |= n > 0;
	return rc;
}

/* The wrong type (not an object) is said by the caller. */
static int set_environment(const struct config_key *k, void *base, json_t *obj, char *err,
			   size_t errlen)
{
	(void)k;
	return json_is_object(obj) ? parse_object("environment.", base, obj, err, errlen) : -1;
}

static int set_upload(const struct config_key *k, void *base, json_t *v, char *err, size_t errlen)
{
	(void)k;
	return upload_config_parse(&((struct run_config *)base)->upload, v, err, errlen);
}

/* Not an array, or an empty one: the wrong type, said by the caller. */
static int set_phases(const struct config_key *k, void *base, json_t *v, char *err, size_t errlen)
{
	struct run_config *c = base;
	(void)k, (void)err, (void)errlen;
	if (!json_is_array(v) || !json_array_size(v))
		return -1;
	c->phases = json_incref(v);
	return 0;
}

/* The one plan a config names ("quick", run/plan_quick.h); `--plan` names
 * the others. */
static int set_plan(const struct config_key *k, void *base, json_t *v, char *err, size_t errlen)
{
	(void)k;
	if (!json_is_string(v) || strcmp(json_string_value(v), "quick"))
		return error_set(err, errlen, "config: 'plan' must be \"quick\"");
	((struct run_config *)base)->quick = true;
	return 0;
}

#define RUN(field) FIELD(struct run_config, field)
#define DEV(field) FIELD(struct device_config, field)
static const struct config_key keys[] = {
	{ "devices", "array of objects", "at most " STR(CONFIG_MAX_DEVICES), 0, 0, 0, 0,
	  set_devices, "the devices to test, in this order; else every blank EBS volume" },
	{ "devices[].path", "string", NULL, 0, 0, DEV(path), set_string,
	  "the block device; exactly one of `path` and `volume_id`" },
	{ "devices[].volume_id", "string", NULL, 0, 0, DEV(volume_id), set_string,
	  "the EBS volume, found by its NVMe serial" },
	{ "devices[].label", "string", NULL, 0, 0, DEV(label), set_string,
	  "its name in logs and reports; else from its type or name" },
	{ "devices[].type", "string", "gp2, gp3, io1, io2, st1, sc1", 0, 0, 0, 0, set_type,
	  "its EBS type; else gp3, marked `assumed`" },
	{ "devices[].size_gib", "number", "the type's EBS limits", 0, 0, DEV(size_gib),
	  set_positive, "its size in GiB; else the device's" },
	{ "devices[].iops", "number", "the type's EBS limits; gp2: what its size gives", 0, 0,
	  DEV(iops), set_positive, "its provisioned IOPS; else the type's default" },
	{ "devices[].throughput_mibs", "number", "the type's EBS limits", 0, 0,
	  DEV(throughput_mibs), set_positive, "its provisioned MiB/s; else the type's default" },
	{ "allow_destroy", "array of strings", "at most " STR(CONFIG_MAX_ALLOW), 0, 0, 0, 0,
	  set_allow, "volume ids or paths a writing plan may overwrite though they hold data" },
	{ "accept_model", "string", NULL, 0, 0, RUN(accept_model), set_string,
	  "another NVMe model taken as EBS (QEMU's: \"QEMU NVMe Ctrl\")" },
	{ "region", "string", NULL, 0, 0, RUN(region), set_string,
	  "the AWS region, for its prices; default ap-northeast-2" },
	{ "time_scale", "number", "0.000001..100", 1e-6 /* under it, 900 s is under 1 ms */, 100.0,
	  RUN(time_scale), set_positive, "scales every duration and log window; default 1" },
	{ "test_size", "size", "4 KiB..64 TiB", 4096.0,
	  (double)(64ull << 40) /* the largest EBS volume, io2's 64 TiB */, RUN(test_size),
	  set_size, "the region the phases work in, as \"8G\"; default 8 GiB" },
	{ "ioengine", "string", NULL, 0, 0, RUN(ioengine), set_string,
	  "the I/O engine, as fio's; default io_uring" },
	{ "output_dir", "string", NULL, 0, 0, RUN(output_dir), set_string,
	  "where the results are written; default results" },
	{ "phases", "array", "not empty", 0, 0, 0, 0, set_phases,
	  "replaces the default plan: phase names, or objects of fio options" },
	{ "plan", "string", "quick", 0, 0, 0, 0, set_plan,
	  "\"quick\": every phase ended when steady, in minutes (`--plan quick`)" },
	{ "prices", "object", "0..1000 USD; an `_included` amount 0..256000", 0, 0, 0, 0,
	  set_prices, "price overrides, USD per unit-month (\"gp3.iops_month\": 0.0057)" },
	{ "environment", "object", NULL, 0, 0, 0, 0, set_environment,
	  "where it runs, for the model and results.json" },
	{ "environment.instance_type", "string", NULL, 0, 0, RUN(instance_type), set_leaf_string,
	  "the instance type, for its EBS limits (m5.xlarge)" },
	{ "environment.instance_id", "string", NULL, 0, 0, RUN(instance_id), set_leaf_string,
	  "the instance's id" },
	{ "environment.zone", "string", NULL, 0, 0, RUN(zone), set_leaf_string,
	  "the availability zone" },
	{ "environment.image_digest", "string", NULL, 0, 0, RUN(image_digest), set_leaf_string,
	  "the image that ran; else EBSBENCH_IMAGE_DIGEST" },
	{ "upload", "object", NULL, 0, 0, 0, 0, set_upload,
	  "where the results go: presigned URLs or a POST policy (upload.md)" },
};

const struct config_key *config_key_at(size_t i)
{
	return i < ARRAY_SIZE(keys) ? &keys[i] : NULL;
}

/* The row of key in obj, the object at prefix ("" for the document,
 * "devices[]." for a device): its own keys only, not its members'. */
static const struct config_key *find_key(const char *prefix, const char *key)
{
	size_t n = strlen(prefix);
	if (strpbrk(key, ".["))
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (!strncmp(keys[i].name, prefix, n) && !strcmp(keys[i].name + n, key))
			return &keys[i];
	return NULL;
}

/* obj's keys into base (the run_config, or a device_config). */
static int parse_object(const char *prefix, void *base, json_t *obj, char *err, size_t errlen)
{
	const char *key;
	json_t *v;
	json_object_foreach(obj, key, v)
	{
		const struct config_key *k = find_key(prefix, key);
		if (!k)
			return error_set(err, errlen, "config: unknown key '%s%s'", prefix, key);
		if (k->set(k, base, v, err, errlen))
			return err[0] ? -1
				      : error_set(err, errlen, "config: '%s' has the wrong type",
						  key);
	}
	return 0;
}

/* The region's built-in prices, before any "prices" key overrides them
 * whatever the order of the keys; a region without any gets unknown
 * prices (see ebs_prices_for_region), never another region's. */
static int region_prices(struct run_config *c, json_t *root, char *err, size_t errlen)
{
	json_t *region = json_object_get(root, "region");

	if (!region)
		return 0;
	if (copy_string(region, "region", c->region, sizeof(c->region), err, errlen))
		return -1;
	ebs_prices_for_region(c->region, &c->prices);
	return 0;
}

int config_from_json(struct run_config *c, json_t *root, char *err, size_t errlen)
{
	if (!json_is_object(root))
		return error_set(err, errlen, "config: the document must be a JSON object");
	if (region_prices(c, root, err, errlen))
		return -1;
	return parse_object("", c, root, err, errlen);
}

int config_load_file(struct run_config *c, const char *path, char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *root =
		strcmp(path, "-") ? json_load_file(path, 0, &jerr) : json_loadf(stdin, 0, &jerr);
	if (!root)
		return error_set(err, errlen, "config %s: %s (line %d)", path, jerr.text,
				 jerr.line);
	err[0] = '\0';
	int rc = config_from_json(c, root, err, errlen);
	json_decref(root);
	return rc;
}

size_t config_allow_list(const struct run_config *c, const char *list[CONFIG_MAX_ALLOW])
{
	for (size_t i = 0; i < c->allow_count; i++)
		list[i] = c->allow_destroy[i];
	return c->allow_count;
}

void config_free(struct run_config *c)
{
	json_decref(c->phases);
	c->phases = NULL;
	upload_config_free(&c->upload);
}
