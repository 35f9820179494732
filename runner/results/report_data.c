/* report_data.c - safe lookups into results.json and the report's number
 * formats. */
#include "results/report_data.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MIB (1024.0 * 1024.0)
#define GIB (1024.0 * MIB)

const json_t *report_path(const json_t *root, const char *const *keys)
{
	for (; root && *keys; keys++)
		root = json_object_get(root, *keys);
	return root;
}

double report_num(const json_t *value)
{
	return json_is_number(value) ? json_number_value(value) : NAN;
}

bool report_str_is(const json_t *value, const char *want)
{
	const char *s = json_string_value(value);
	return s && !strcmp(s, want);
}

const char *report_label(const json_t *device)
{
	const char *label = json_string_value(json_object_get(device, "label"));
	return label ? label : "?";
}

const json_t *report_phase(const json_t *run, const char *phase, const char *device)
{
	const json_t *p;
	size_t i;

	json_array_foreach(json_object_get(run, "phases"), i, p)
	{
		if (report_str_is(json_object_get(p, "phase"), phase) &&
		    report_str_is(json_object_get(p, "device"), device))
			return p;
	}
	return NULL;
}

const json_t *report_direction(const json_t *phase)
{
	const json_t *read = REPORT_GET(phase, "job", "read");
	const json_t *write = REPORT_GET(phase, "job", "write");
	double rb = report_num(json_object_get(read, "io_bytes"));
	double wb = report_num(json_object_get(write, "io_bytes"));
	const char *rw = json_string_value(json_object_get(phase, "rw"));

	if (!read || !write)
		return read ? read : write;
	if (rb > 0 || wb > 0)
		return wb > rb ? write : read;
	/* Nothing moved, or no counts: the planned pattern decides. */
	return rw && strstr(rw, "write") && !strstr(rw, "rw") ? write : read;
}

double report_clat_pct_ns(const json_t *direction, const char *pct)
{
	return report_num(REPORT_GET(direction, "clat_ns", "percentile", pct));
}

double report_window_s(const json_t *phase)
{
	double ms = report_num(json_object_get(phase, "window_ms"));
	return ms > 0 ? ms / 1e3 : 1.0;
}

const json_t *report_analysis_device(const json_t *run, const char *device)
{
	const json_t *d;
	size_t i;

	json_array_foreach(REPORT_GET(run, "analysis", "devices"), i, d)
	{
		if (report_str_is(json_object_get(d, "device"), device))
			return d;
	}
	return NULL;
}

const json_t *report_cliff_found(const json_t *run, const char *device)
{
	const json_t *cliff = json_object_get(report_analysis_device(run, device), "cliff");
	const json_t *status = json_object_get(cliff, "status");

	/* results.h says "found"; cliff_result_name() says "cliff". */
	if (!report_str_is(status, "found") && !report_str_is(status, "cliff"))
		return NULL;
	return json_is_number(json_object_get(cliff, "second")) ? cliff : NULL;
}

static bool has_label(const json_t *devices, const char *label)
{
	const json_t *d;
	size_t i;

	json_array_foreach(devices, i, d)
	{
		if (report_str_is(json_object_get(d, "label"), label))
			return true;
	}
	return false;
}

json_t *report_devices(const json_t *run)
{
	json_t *devices = json_object_get(run, "devices"), *made;
	const json_t *p;
	size_t i;

	if (json_array_size(devices))
		return json_incref(devices);
	made = json_array();
	json_array_foreach(json_object_get(run, "phases"), i, p)
	{
		const char *label = json_string_value(json_object_get(p, "device"));
		if (label && !has_label(made, label))
			json_array_append_new(made, json_pack("{s:s}", "label", label));
	}
	return made;
}

struct report_series report_series_stats(const json_t *series)
{
	struct report_series s = { json_array_size(series), 0, NAN, NAN, NAN };
	double sum = 0;
	size_t i;

	for (i = 1; i < s.samples; i++) {
		double v = report_num(json_array_get(series, i));
		if (!isfinite(v))
			continue;
		s.min = s.used && s.min <= v ? s.min : v;
		s.max = s.used && s.max >= v ? s.max : v;
		sum += v;
		s.used++;
	}
	if (s.used)
		s.mean = sum / (double)s.used;
	return s;
}

static const char *missing(char *buf, size_t len)
{
	snprintf(buf, len, "%s", REPORT_MISSING);
	return buf;
}

const char *report_count(char *buf, size_t len, double value)
{
	char digits[32];
	size_t n, i, o = 0;

	if (!isfinite(value) || fabs(value) >= 1e18 || len < 2)
		return missing(buf, len);
	snprintf(digits, sizeof(digits), "%.0f", fabs(value));
	n = strlen(digits);
	if (value <= -0.5)
		buf[o++] = '-';
	for (i = 0; i < n && o + 2 < len; i++) {
		buf[o++] = digits[i];
		if (i + 1 < n && (n - i - 1) % 3 == 0)
			buf[o++] = ',';
	}
	buf[o] = '\0';
	return buf;
}

const char *report_ms(char *buf, size_t len, double ns)
{
	double ms = ns / 1e6;

	if (!isfinite(ms) || ms < 0)
		return missing(buf, len);
	snprintf(buf, len, ms >= 10 ? "%.1f ms" : ms >= 1 ? "%.2f ms" : "%.3f ms", ms);
	return buf;
}

const char *report_mibs(char *buf, size_t len, double bytes_per_s)
{
	if (!isfinite(bytes_per_s))
		return missing(buf, len);
	snprintf(buf, len, "%.1f MiB/s", bytes_per_s / MIB);
	return buf;
}

const char *report_usd(char *buf, size_t len, double usd)
{
	if (!isfinite(usd))
		return missing(buf, len);
	snprintf(buf, len, "$%.2f", usd);
	return buf;
}

const char *report_device_title(char *buf, size_t len, const json_t *device)
{
	const char *type = json_string_value(REPORT_GET(device, "volume", "type"));
	double gib = report_num(REPORT_GET(device, "volume", "size_gib"));
	char size[REPORT_NUM_LEN];

	if (!type)
		type = json_string_value(json_object_get(device, "kind"));
	if (!isfinite(gib))
		gib = report_num(json_object_get(device, "size_bytes")) / GIB;
	report_count(size, sizeof(size), gib);
	snprintf(buf, len, "%s (%s, %s GiB)", report_label(device), type ? type : REPORT_MISSING,
		 size);
	return buf;
}
