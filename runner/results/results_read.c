/* results_read.c - safe lookups into results.json, and the run x device
 * flattening every reader of several runs starts from. */
#include "results/results_read.h"
#include "results/results.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const json_t *results_path(const json_t *root, const char *const *keys)
{
	for (; root && *keys; keys++)
		root = json_object_get(root, *keys);
	return root;
}

double results_num(const json_t *value)
{
	return json_is_number(value) ? json_number_value(value) : NAN;
}

double results_num_or(const json_t *obj, const char *key, double fallback)
{
	const json_t *v = json_object_get(obj, key);
	return json_is_number(v) ? json_number_value(v) : fallback;
}

bool results_str_is(const json_t *value, const char *want)
{
	const char *s = json_string_value(value);
	return s && !strcmp(s, want);
}

const char *results_label(const json_t *device)
{
	const char *label = json_string_value(json_object_get(device, "label"));
	return label ? label : "?";
}

const json_t *results_phase(const json_t *run, const char *phase, const char *device)
{
	const json_t *p;
	size_t i;

	json_array_foreach(json_object_get(run, RESULTS_KEY_PHASES), i, p)
	{
		if (results_str_is(json_object_get(p, "phase"), phase) &&
		    results_str_is(json_object_get(p, "device"), device))
			return p;
	}
	return NULL;
}

const json_t *results_direction(const json_t *phase)
{
	const json_t *read = RESULTS_GET(phase, "job", "read");
	const json_t *write = RESULTS_GET(phase, "job", "write");
	double rb = results_num(json_object_get(read, "io_bytes"));
	double wb = results_num(json_object_get(write, "io_bytes"));
	const char *rw = json_string_value(json_object_get(phase, "rw"));

	if (!read || !write)
		return read ? read : write;
	if (rb > 0 || wb > 0)
		return wb > rb ? write : read;
	/* Nothing moved, or no counts: the planned pattern decides. */
	return rw && strstr(rw, "write") && !strstr(rw, "rw") ? write : read;
}

double results_clat_pct_ns(const json_t *direction, const char *pct)
{
	return results_num(RESULTS_GET(direction, "clat_ns", "percentile", pct));
}

double results_lat_pct_ns(const json_t *direction, const char *pct)
{
	double ns = results_num(RESULTS_GET(direction, "lat_ns", "percentile", pct));
	return ns > 0 ? ns : results_clat_pct_ns(direction, pct);
}

double results_window_s(const json_t *phase)
{
	double ms = results_num(json_object_get(phase, "window_ms"));
	return ms > 0 ? ms / 1e3 : 1.0;
}

size_t results_second_windows(const json_t *phase, double *out, size_t cap)
{
	const json_t *series = json_object_get(phase, "iops_series");
	double window_s = results_window_s(phase);
	size_t per = (size_t)fmax(1.0, round(1.0 / window_s)), n = json_array_size(series) / per;
	size_t count = n > 0 ? n - 1 : 0;

	for (size_t g = 1; g < n && g - 1 < cap; g++) {
		double sum = 0;
		for (size_t k = g * per; k < (g + 1) * per; k++)
			sum += results_num(json_array_get(series, k));
		out[g - 1] = sum / (double)per;
	}
	return count;
}

const json_t *results_device(const json_t *run, const char *label)
{
	const json_t *d;
	size_t i;

	json_array_foreach(json_object_get(run, RESULTS_KEY_DEVICES), i, d)
	{
		if (results_str_is(json_object_get(d, "label"), label))
			return d;
	}
	return NULL;
}

const json_t *results_analysis_device(const json_t *run, const char *device)
{
	const json_t *d;
	size_t i;

	json_array_foreach(RESULTS_GET(run, RESULTS_KEY_ANALYSIS, "devices"), i, d)
	{
		if (results_str_is(json_object_get(d, "device"), device))
			return d;
	}
	return NULL;
}

const json_t *results_cliff_found(const json_t *run, const char *device)
{
	const json_t *cliff = json_object_get(results_analysis_device(run, device), "cliff");
	const json_t *status = json_object_get(cliff, "status");

	/* results.h says "found"; cliff_result_name() says "cliff". */
	if (!results_str_is(status, "found") && !results_str_is(status, "cliff"))
		return NULL;
	return json_is_number(json_object_get(cliff, "second")) ? cliff : NULL;
}

static bool has_label(const json_t *devices, const char *label)
{
	const json_t *d;
	size_t i;

	json_array_foreach(devices, i, d)
	{
		if (results_str_is(json_object_get(d, "label"), label))
			return true;
	}
	return false;
}

json_t *results_devices(const json_t *run)
{
	json_t *devices = json_object_get(run, RESULTS_KEY_DEVICES), *made;
	const json_t *p;
	size_t i;

	if (json_array_size(devices))
		return json_incref(devices);
	made = json_array();
	json_array_foreach(json_object_get(run, RESULTS_KEY_PHASES), i, p)
	{
		const char *label = json_string_value(json_object_get(p, "device"));
		if (label && !has_label(made, label))
			json_array_append_new(made, json_pack("{s:s}", "label", label));
	}
	return made;
}

struct results_series results_series_stats(const json_t *series)
{
	struct results_series s = { json_array_size(series), 0, NAN, NAN, NAN };
	double sum = 0;
	size_t i;

	for (i = 1; i < s.samples; i++) {
		double v = results_num(json_array_get(series, i));
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

void results_columns_free(struct results_columns *c)
{
	for (size_t r = 0; c->devices && r < c->nruns; r++)
		json_decref(c->devices[r]);
	free(c->devices);
	free(c->col);
	c->devices = NULL;
	c->col = NULL;
}

int results_columns_build(struct results_columns *c, json_t *const *runs, size_t nruns)
{
	size_t r, i, total = 0;

	c->count = 0;
	c->nruns = nruns;
	c->col = NULL;
	c->devices = calloc(nruns ? nruns : 1, sizeof(*c->devices));
	if (!c->devices)
		return -1;
	for (r = 0; r < nruns; r++) {
		c->devices[r] = results_devices(runs[r]);
		total += json_array_size(c->devices[r]);
	}
	c->col = calloc(total ? total : 1, sizeof(*c->col));
	if (!c->col)
		return -1;
	for (r = 0; r < nruns; r++) {
		for (i = 0; i < json_array_size(c->devices[r]); i++)
			c->col[c->count++] =
				(struct results_column){ runs[r], json_array_get(c->devices[r], i),
							 r + 1 };
	}
	return 0;
}

int64_t results_hist_window(const json_t *window, uint64_t *counts, unsigned bins)
{
	const char *p = json_string_value(window);
	char *end;
	int64_t sum = 0;

	if (!p || strchr(p, '-'))
		return -1;
	if (!*p)
		return 0;
	unsigned long bin = strtoul(p, &end, 10);
	if (end == p || *end != ':')
		return -1;
	for (p = end + 1; *p; p = end) {
		uint64_t n = strtoull(p, &end, 10);
		if (end == p || bin >= bins || (*end && *end != ' '))
			return -1;
		counts[bin++] += n;
		sum += (int64_t)n;
	}
	return sum;
}
