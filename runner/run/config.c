/* config.c - the run configuration, strictly parsed. */
#include "run/config.h"

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

static int device_member(struct device_config *d, const char *key, json_t *v, char *err,
			 size_t errlen)
{
	if (!strcmp(key, "path"))
		return copy_string(v, "devices[].path", d->path, sizeof(d->path), err, errlen);
	if (!strcmp(key, "volume_id"))
		return copy_string(v, "devices[].volume_id", d->volume_id, sizeof(d->volume_id),
				   err, errlen);
	if (!strcmp(key, "label"))
		return copy_string(v, "devices[].label", d->label, sizeof(d->label), err, errlen);
	if (!strcmp(key, "type")) {
		if (!json_is_string(v) || ebs_type_parse(json_string_value(v), &d->type)) {
			snprintf(err, errlen,
				 "config: devices[].type must be gp2, gp3, io1, io2, "
				 "st1 or sc1");
			return -1;
		}
		d->has_type = true;
		return 0;
	}
	if (!strcmp(key, "size_gib"))
		return get_positive(v, "devices[].size_gib", &d->size_gib, err, errlen);
	if (!strcmp(key, "iops"))
		return get_positive(v, "devices[].iops", &d->iops, err, errlen);
	if (!strcmp(key, "throughput_mibs"))
		return get_positive(v, "devices[].throughput_mibs", &d->throughput_mibs, err,
				    errlen);
	return error_set(err, errlen, "config: unknown key 'devices[].%s'", key);
}

/* ---- ranges ----
 * Every number a run config carries is checked against its range as it is
 * read, so no later arithmetic meets a value nobody means (a gp2 of 22
 * billion GiB overflowed presign's byte count).  A volume's size, IOPS and
 * throughput take the EBS model's own limits (ebs_model.c's type table):
 * its type's where it names one, else the widest any type allows; the
 * other ranges are stated here and in config.h. */
#define TIME_SCALE_MIN 1e-6 /* below it, a 900 s phase is under a millisecond */
#define TIME_SCALE_MAX 100.0
#define TIME_SCALE_RANGE "0.000001..100"
#define TEST_SIZE_MIN 4096ull
#define TEST_SIZE_MAX (64ull << 40) /* the largest EBS volume, io2's 64 TiB */
#define TEST_SIZE_RANGE "4 KiB..64 TiB"

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

static int parse_devices(struct run_config *c, json_t *list, char *err, size_t errlen)
{
	size_t i;
	json_t *item;
	if (!json_is_array(list) || json_array_size(list) > CONFIG_MAX_DEVICES)
		return error_set(err, errlen,
				 "config: 'devices' must be an array of at most %d objects",
				 CONFIG_MAX_DEVICES);
	json_array_foreach(list, i, item)
	{
		struct device_config *d = &c->devices[c->device_count++];
		const char *key;
		json_t *v;
		if (!json_is_object(item))
			return error_set(err, errlen, "config: devices[%zu] must be an object", i);
		json_object_foreach(item, key,
				    v) if (device_member(d, key, v, err, errlen)) return -1;
		if (device_ranges(d, i, err, errlen))
			return -1;
		if (!d->path[0] == !d->volume_id[0]) {
			snprintf(err, errlen,
				 "config: devices[%zu] needs exactly one of 'path' and "
				 "'volume_id'",
				 i);
			return -1;
		}
	}
	return 0;
}

static int parse_allow(struct run_config *c, json_t *list, char *err, size_t errlen)
{
	size_t i;
	json_t *item;
	if (!json_is_array(list) || json_array_size(list) > CONFIG_MAX_ALLOW) {
		snprintf(err, errlen,
			 "config: 'allow_destroy' must be an array of volume ids or "
			 "paths");
		return -1;
	}
	json_array_foreach(list, i, item) if (copy_string(item, "allow_destroy[]",
							  c->allow_destroy[c->allow_count++],
							  sizeof(c->allow_destroy[0]), err,
							  errlen)) return -1;
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

static int parse_prices(struct run_config *c, json_t *obj, char *err, size_t errlen)
{
	unsigned n;
	int rc = config_prices_apply(&c->prices, obj, &n, err, errlen);
	c->prices_overridden |= n > 0;
	return rc;
}

static int parse_environment(struct run_config *c, json_t *obj, char *err, size_t errlen)
{
	static const struct {
		const char *key;
		size_t offset, cap;
	} fields[] = {
		{ "instance_type", offsetof(struct run_config, instance_type), 32 },
		{ "instance_id", offsetof(struct run_config, instance_id), 32 },
		{ "zone", offsetof(struct run_config, zone), 32 },
		{ "image_digest", offsetof(struct run_config, image_digest), 96 },
	};
	const char *key;
	json_t *v;
	json_object_foreach(obj, key, v)
	{
		size_t i = 0;
		while (i < ARRAY_SIZE(fields) && strcmp(fields[i].key, key))
			i++;
		if (i == ARRAY_SIZE(fields))
			return error_set(err, errlen, "config: unknown key 'environment.%s'", key);
		if (copy_string(v, key, (char *)c + fields[i].offset, fields[i].cap, err, errlen))
			return -1;
	}
	return 0;
}

static int parse_scalar(struct run_config *c, const char *key, json_t *v, char *err, size_t errlen)
{
	if (!strcmp(key, "accept_model"))
		return copy_string(v, key, c->accept_model, sizeof(c->accept_model), err, errlen);
	if (!strcmp(key, "region"))
		return copy_string(v, key, c->region, sizeof(c->region), err, errlen);
	if (!strcmp(key, "ioengine"))
		return copy_string(v, key, c->ioengine, sizeof(c->ioengine), err, errlen);
	if (!strcmp(key, "output_dir"))
		return copy_string(v, key, c->output_dir, sizeof(c->output_dir), err, errlen);
	if (!strcmp(key, "time_scale")) {
		if (get_positive(v, key, &c->time_scale, err, errlen))
			return -1;
		if (c->time_scale >= TIME_SCALE_MIN && c->time_scale <= TIME_SCALE_MAX)
			return 0;
		return config_number_out_of_range(key, c->time_scale, TIME_SCALE_RANGE, err,
						  errlen);
	}
	if (!strcmp(key, "test_size")) {
		if (!json_is_string(v) || options_parse_size(json_string_value(v), &c->test_size) ||
		    c->test_size == 0) {
			return error_set(err, errlen,
					 "config: 'test_size' must be a size such as \"8G\"");
		}
		if (c->test_size >= TEST_SIZE_MIN && c->test_size <= TEST_SIZE_MAX)
			return 0;
		char value[32];
		snprintf(value, sizeof(value), "%" PRIu64 " bytes", c->test_size);
		return config_out_of_range(key, value, TEST_SIZE_RANGE, err, errlen);
	}
	if (!strcmp(key, "plan")) /* the one plan a config names; --plan names the others */
		return json_is_string(v) && !strcmp(json_string_value(v), "quick")
			       ? (c->quick = true, 0)
			       : error_set(err, errlen, "config: 'plan' must be \"quick\"");
	return error_set(err, errlen, "config: unknown key '%s'", key);
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
	const char *key;
	json_t *v;
	if (!json_is_object(root))
		return error_set(err, errlen, "config: the document must be a JSON object");
	if (region_prices(c, root, err, errlen))
		return -1;
	json_object_foreach(root, key, v)
	{
		int rc;
		if (!strcmp(key, "devices"))
			rc = parse_devices(c, v, err, errlen);
		else if (!strcmp(key, "allow_destroy"))
			rc = parse_allow(c, v, err, errlen);
		else if (!strcmp(key, "prices"))
			rc = parse_prices(c, v, err, errlen);
		else if (!strcmp(key, "environment"))
			rc = json_is_object(v) ? parse_environment(c, v, err, errlen) : -1;
		else if (!strcmp(key, "upload"))
			rc = upload_config_parse(&c->upload, v, err, errlen);
		else if (!strcmp(key, "phases"))
			rc = json_is_array(v) && json_array_size(v)
				     ? (c->phases = json_incref(v), 0)
				     : -1;
		else
			rc = parse_scalar(c, key, v, err, errlen);
		if (rc)
			return err[0] ? -1
				      : error_set(err, errlen, "config: '%s' has the wrong type",
						  key);
	}
	return 0;
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
