/* report_format.c - the report's number formats. */
#include "report/report_format.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/lib.h"
#include "results/results.h"

const char *report_missing(char *buf, size_t len)
{
	snprintf(buf, len, "%s", REPORT_MISSING);
	return buf;
}

const char *report_size(char *buf, size_t len, double bytes)
{
	if (!isfinite(bytes))
		report_missing(buf, len);
	else if (bytes >= MIB)
		snprintf(buf, len, "%g MiB", bytes / MIB);
	else if (bytes >= 1024)
		snprintf(buf, len, "%gk", bytes / 1024);
	else
		snprintf(buf, len, "%g B", bytes);
	return buf;
}

const char *report_count(char *buf, size_t len, double value)
{
	char digits[32];
	size_t n, i, o = 0;

	if (!isfinite(value) || fabs(value) >= 1e18 || len < 2)
		return report_missing(buf, len);
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
		return report_missing(buf, len);
	snprintf(buf, len, ms >= 10 ? "%.1f ms" : ms >= 1 ? "%.2f ms" : "%.3f ms", ms);
	return buf;
}

const char *report_mibs(char *buf, size_t len, double bytes_per_s)
{
	if (!isfinite(bytes_per_s))
		return report_missing(buf, len);
	snprintf(buf, len, "%.1f MiB/s", bytes_per_s / MIB);
	return buf;
}

const char *report_usd(char *buf, size_t len, double usd)
{
	if (!isfinite(usd))
		return report_missing(buf, len);
	snprintf(buf, len, "$%.2f", usd);
	return buf;
}

const char *report_device_title(char *buf, size_t len, const json_t *device)
{
	const char *type = json_string_value(RESULTS_GET(device, "volume", "type"));
	double gib = results_num(RESULTS_GET(device, "volume", "size_gib"));
	char size[REPORT_NUM_LEN];

	if (!type)
		type = json_string_value(json_object_get(device, "kind"));
	if (!isfinite(gib))
		gib = results_num(json_object_get(device, "size_bytes")) / GIB;
	report_count(size, sizeof(size), gib);
	snprintf(buf, len, "%s (%s, %s GiB)", results_label(device), type ? type : REPORT_MISSING,
		 size);
	return buf;
}
