/* options.c - fio's option names, parsed into a struct job_options.
 *
 * One table maps each name to a setter, so the command line and JSON plans
 * cannot drift apart.  Anything not in the table is an error: a benchmark
 * that silently ignores `--numjobs=4` reports the wrong thing. */
#include "job/options.h"
#include "job/internal.h"
#include "job/options_fio.h"
#include "lib/lib.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const double default_percentiles[] = { 1,  5,  10, 20, 30,   40,	  50,	 60,   70,
					      80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99 };

void options_defaults(struct job_options *o)
{
	memset(o, 0, sizeof(*o));
	o->rw = RW_READ;
	o->rwmixread = 50;
	o->bs = 4096;
	o->iodepth = 1;
	/* fio's default is 1.  Submitting 4 at a time keeps a device that
	 * completes from another CPU (a loop worker, an interrupt) busy with
	 * fewer of our sleeps to wake; docs/development.md (`make bench`) has the figures. */
	o->iodepth_batch = 4;
	o->numjobs = 1;
	o->ioengine = engine_default();
	o->randrepeat = true;
	o->randseed = 0x89abcdefu;
	o->output_format = OUTPUT_NORMAL;
	o->clat_percentiles = true;
	o->cmdprio_class = OPTIONS_CMDPRIO_CLASS_RT;
	o->percentile_count = ARRAY_SIZE(default_percentiles);
	options_ss_defaults(&o->ss);
	memcpy(o->percentiles, default_percentiles, sizeof(default_percentiles));
}

static int parse_bool(const char *value, bool *out)
{
	if (!value || !strcmp(value, "1") || !strcasecmp(value, "true") || !strcasecmp(value, "on"))
		*out = true;
	else if (!strcmp(value, "0") || !strcasecmp(value, "false") || !strcasecmp(value, "off"))
		*out = false;
	else
		return -1;
	return 0;
}

static int copy_text(char *dst, size_t cap, const char *value)
{
	size_t len = strlen(value);
	if (len == 0 || len >= cap)
		return -1;
	memcpy(dst, value, len + 1);
	return 0;
}

static int set_engine(struct job_options *o, const char *v)
{
	const struct engine_ops *ops = engine_find(v);
	if (!ops)
		return -1;
	o->ioengine = ops;
	return 0;
}

/* "99:99.9:99.99", as fio's percentile_list. */
static int set_percentiles(struct job_options *o, const char *v)
{
	unsigned count = 0;
	const char *p = v;
	while (*p) {
		char *end;
		double pct = strtod(p, &end);
		if (end == p || pct <= 0 || pct > 100 || count == OPTIONS_MAX_PERCENTILES)
			return -1;
		o->percentiles[count++] = pct;
		if (*end == ':')
			end++;
		else if (*end)
			return -1;
		p = end;
	}
	if (count == 0)
		return -1;
	o->percentile_count = count;
	return 0;
}

/* One direction's part of rate_iops, len bytes at part: empty or 0 is
 * unrated. */
static int parse_rate_part(const char *part, size_t len, uint32_t *out)
{
	char text[16];
	unsigned n = 0;
	if (len >= sizeof(text))
		return -1;
	memcpy(text, part, len);
	text[len] = '\0';
	if (len && options_parse_uint(text, OPTIONS_MAX_RATE_IOPS, &n))
		return -1;
	*out = n;
	return 0;
}

/* fio's rate_iops: "R" caps both directions, "R,W" each, "R," reads only,
 * ",W" writes only.  A third value would be fio's trim rate: no trims here. */
static int set_rate_iops(struct job_options *o, const char *v)
{
	const char *comma = strchr(v, ',');
	uint32_t rate[DDIR_COUNT] = { 0 };
	if (!*v || !strcmp(v, ","))
		return -1;
	if (!comma) {
		if (parse_rate_part(v, strlen(v), &rate[DDIR_READ]))
			return -1;
		rate[DDIR_WRITE] = rate[DDIR_READ];
	} else if (strchr(comma + 1, ',') ||
		   parse_rate_part(v, (size_t)(comma - v), &rate[DDIR_READ]) ||
		   parse_rate_part(comma + 1, strlen(comma + 1), &rate[DDIR_WRITE])) {
		return -1;
	}
	memcpy(o->rate_iops, rate, sizeof(rate));
	return 0;
}

static int set_rate_process(struct job_options *o, const char *v)
{
	if (!strcmp(v, "linear"))
		o->rate_process = RATE_LINEAR;
	else if (!strcmp(v, "poisson"))
		o->rate_process = RATE_POISSON;
	else
		return -1;
	return 0;
}

enum value_kind { VALUE_TEXT, VALUE_SIZE, VALUE_DURATION, VALUE_BOOL, VALUE_UINT, VALUE_CUSTOM };

struct option_spec {
	const char *name;
	enum value_kind kind;
	size_t field; /* offsetof into struct job_options */
	uint64_t cap; /* VALUE_TEXT: buffer size; VALUE_UINT, _SIZE, _DURATION: maximum
		       * (0 for a size: any 64-bit number) */
	int (*custom)(struct job_options *o, const char *value);
	const char *expects; /* for the error message; NULL: the engine names */
};

#define FIELD(f) offsetof(struct job_options, f)
#define TEXT(n, f)                                                                                 \
	{                                                                                          \
		n, VALUE_TEXT, FIELD(f), sizeof(((struct job_options *)0)->f), NULL,               \
			"a path or name"                                                           \
	}

static const struct option_spec option_table[] = {
	TEXT("name", name),
	TEXT("filename", filename),
	{ "size", VALUE_SIZE, FIELD(size), OPTIONS_MAX_SIZE, NULL,
	  "a size such as 8G, at most 1E" },
	{ "offset", VALUE_SIZE, FIELD(offset), OPTIONS_MAX_SIZE, NULL,
	  "a size such as 1M, at most 1E" },
	{ "rw", VALUE_CUSTOM, 0, 0, options_set_rw,
	  "read, write, trim, randread, randwrite, randtrim, rw, randrw, trimwrite or "
	  "randtrimwrite" },
	{ "rwmixread", VALUE_UINT, FIELD(rwmixread), 100, NULL, "a percentage 0-100" },
	{ "bs", VALUE_SIZE, FIELD(bs), 0, NULL, "a block size such as 4k" },
	{ "iodepth", VALUE_UINT, FIELD(iodepth), 4096, NULL, "a queue depth 1-4096" },
	{ "iodepth_batch_submit", VALUE_UINT, FIELD(iodepth_batch), 4096, NULL,
	  "a number of I/Os per submit 0-4096 (0: iodepth)" },
	{ "runtime", VALUE_DURATION, FIELD(runtime_ns), OPTIONS_MAX_DURATION_NS, NULL,
	  "a duration such as 60 or 10m, at most 3650d" },
	{ "ramp_time", VALUE_DURATION, FIELD(ramp_ns), OPTIONS_MAX_DURATION_NS, NULL,
	  "a duration such as 5 or 500ms, at most 3650d" },
	{ "time_based", VALUE_BOOL, FIELD(time_based), 0, NULL, "0 or 1" },
	{ "ioengine", VALUE_CUSTOM, 0, 0, set_engine, NULL }, /* the registry names them */
	{ "direct", VALUE_BOOL, FIELD(direct), 0, NULL, "0 or 1" },
	{ "allow_destroy", VALUE_BOOL, FIELD(allow_destroy), 0, NULL, "0 or 1" },
	{ "group_reporting", VALUE_BOOL, FIELD(group_reporting), 0, NULL, "0 or 1" },
	{ "stonewall", VALUE_BOOL, FIELD(stonewall), 0, NULL, "0 or 1" },
	{ "numjobs", VALUE_UINT, FIELD(numjobs), OPTIONS_MAX_NUMJOBS, NULL,
	  "a number of jobs 1-256" },
	{ "norandommap", VALUE_BOOL, FIELD(norandommap), 0, NULL, "0 or 1" },
	{ "randrepeat", VALUE_BOOL, FIELD(randrepeat), 0, NULL, "0 or 1" },
	{ "randseed", VALUE_SIZE, FIELD(randseed), 0, NULL, "a number" },
	{ "output-format", VALUE_CUSTOM, 0, 0, options_set_output_format,
	  "normal, json, json+ or terse, or several joined by commas" },
	TEXT("output", output),
	TEXT("write_iops_log", iops_log),
	TEXT("write_bw_log", bw_log),
	TEXT("write_lat_log", lat_log),
	{ "log_avg_msec", VALUE_UINT, FIELD(log_avg_msec), 86400000, NULL, "milliseconds" },
	TEXT("write_hist_log", hist_log),
	{ "log_hist_msec", VALUE_UINT, FIELD(log_hist_msec), 86400000, NULL, "milliseconds" },
	{ "log_hist_coarseness", VALUE_UINT, FIELD(log_hist_coarseness), 6, NULL,
	  "an integer 0-6" },
	{ "percentile_list", VALUE_CUSTOM, 0, 0, set_percentiles,
	  "percentiles such as 50:99:99.9" },
	{ "rate_iops", VALUE_CUSTOM, 0, 0, set_rate_iops,
	  "IOPS such as 1500 (reads and writes) or 1500,500 (R,W), each 0-10000000" },
	{ "rate_process", VALUE_CUSTOM, 0, 0, set_rate_process, "linear or poisson" },
	{ "slat_percentiles", VALUE_BOOL, FIELD(slat_percentiles), 0, NULL, "0 or 1" },
	{ "clat_percentiles", VALUE_BOOL, FIELD(clat_percentiles), 0, NULL, "0 or 1" },
	{ "lat_percentiles", VALUE_BOOL, FIELD(lat_percentiles), 0, NULL, "0 or 1" },
	{ "unified_rw_reporting", VALUE_CUSTOM, 0, 0, options_set_unified_rw,
	  "none, mixed or both (0, 1 or 2)" },
	{ "fsync", VALUE_UINT, FIELD(fsync_blocks), 1000000000, NULL,
	  "a number of writes between syncs (0: none)" },
	{ "fdatasync", VALUE_UINT, FIELD(fdatasync_blocks), 1000000000, NULL,
	  "a number of writes between syncs (0: none)" },
	{ "max-jobs", VALUE_CUSTOM, 0, 0, options_set_max_jobs, "a number of jobs 1-4096" },
	{ "thread", VALUE_BOOL, FIELD(thread), 0, NULL, "0 or 1" },
	{ "verify", VALUE_CUSTOM, 0, 0, options_set_verify,
	  "0 or none (verification is not supported)" },
	{ "cmdprio_percentage", VALUE_UINT, FIELD(cmdprio_percentage), 100, NULL,
	  "a percentage 0-100" },
	{ "cmdprio_class", VALUE_CUSTOM, 0, 0, options_set_cmdprio_class,
	  "1 (realtime), 2 (best effort) or 3 (idle)" },
	{ "cmdprio", VALUE_UINT, FIELD(cmdprio), 7, NULL, "a priority level 0-7" },
	{ "bssplit", VALUE_CUSTOM, 0, 0, options_set_bssplit,
	  "sizes and shares making 100 %, such as 64k/40:1024k/60" },
	{ "cmdprio_bssplit", VALUE_CUSTOM, 0, 0, options_set_cmdprio_bssplit,
	  "SIZE/PERCENT[/CLASS/LEVEL] entries joined by ':', at most 100 % per size" },
	{ "idle-prof", VALUE_CUSTOM, 0, 0, options_set_idle_prof,
	  "system or percpu (fio's calibrate is not supported)" },
	{ "steadystate", VALUE_CUSTOM, 0, 0, options_set_steadystate,
	  "iops, iops_slope, bw or bw_slope, a colon and a limit, such as iops:10% or "
	  "bw_slope:1%; or snia_iops, snia_bw or snia_p99 alone" },
	{ "steadystate_duration", VALUE_DURATION, FIELD(ss.dur_ns), OPTIONS_MAX_DURATION_NS, NULL,
	  "a duration such as 30 or 5m" },
	{ "steadystate_ramp_time", VALUE_DURATION, FIELD(ss.ramp_ns), OPTIONS_MAX_DURATION_NS, NULL,
	  "a duration such as 10 or 500ms" },
	{ "steadystate_check_interval", VALUE_DURATION, FIELD(ss.interval_ns),
	  OPTIONS_MAX_DURATION_NS, NULL, "a duration such as 1 or 30s" },
	{ "steadystate_floor", VALUE_DURATION, FIELD(ss.floor_ns), OPTIONS_MAX_DURATION_NS, NULL,
	  "a duration such as 10 or 500ms" },
	{ "io_size", VALUE_SIZE, FIELD(io_size), OPTIONS_MAX_SIZE, NULL,
	  "a size such as 8G, at most 1E" },
	{ "number_ios", VALUE_SIZE, FIELD(number_ios), 0, NULL, "a number of I/Os" },
	{ "new_group", VALUE_BOOL, FIELD(new_group), 0, NULL, "0 or 1" },
	{ "threads", VALUE_CUSTOM, 0, 0, options_set_profile_threads,
	  "a number (fio's tiobench profile's; no effect without it)" },
};

/* fio's aliases (its options table's .alias): the same option under a
 * second name, listed in "job options" under the first, as fio does. */
static const struct {
	const char *alias;
	const char *name;
} option_aliases[] = {
	{ "readwrite", "rw" },
	{ "blocksize", "bs" },
	{ "fileoffset", "offset" },
	{ "timeout", "runtime" },
	{ "wait_for_previous", "stonewall" },
	{ "iodepth_batch", "iodepth_batch_submit" },
	{ "ss", "steadystate" },
	{ "ss_dur", "steadystate_duration" },
	{ "ss_ramp", "steadystate_ramp_time" },
	{ "ss_interval", "steadystate_check_interval" },
	{ "ss_floor", "steadystate_floor" },
	{ "io_limit", "io_size" },
};

static const char *canonical_name(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(option_aliases); i++)
		if (!strcmp(option_aliases[i].alias, name))
			return option_aliases[i].name;
	return name;
}

static const struct option_spec *find_option(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(option_table); i++)
		if (!strcmp(option_table[i].name, name))
			return &option_table[i];
	return NULL;
}

static int apply_value(struct job_options *o, const struct option_spec *spec, const char *value)
{
	char *field = (char *)o + spec->field;
	uint64_t n;
	switch (spec->kind) {
	case VALUE_TEXT:
		return value ? copy_text(field, (size_t)spec->cap, value) : -1;
	case VALUE_SIZE:
		if (!value || options_parse_size(value, &n) || (spec->cap && n > spec->cap))
			return -1;
		if (spec->field == FIELD(bs)) {
			if (n == 0 || n > (64u << 20))
				return -1;
			o->bs = (uint32_t)n;
		} else {
			memcpy(field, &n, sizeof(n));
		}
		return 0;
	case VALUE_DURATION:
		if (!value || options_parse_duration_ns(value, &n) || n > spec->cap)
			return -1;
		memcpy(field, &n, sizeof(n));
		return 0;
	case VALUE_BOOL:
		return parse_bool(value, (bool *)field);
	case VALUE_UINT:
		return value ? options_parse_uint(value, (unsigned)spec->cap, (unsigned *)field)
			     : -1;
	case VALUE_CUSTOM:
		return value ? spec->custom(o, value) : -1;
	}
	return -1;
}

static void remember_given(struct job_options *o, const char *name, const char *value)
{
	if (o->given_count == OPTIONS_MAX_GIVEN)
		return;
	struct given_option *g = &o->given[o->given_count++];
	snprintf(g->name, sizeof(g->name), "%s", name);
	snprintf(g->value, sizeof(g->value), "%s", value ? value : "");
}

int options_set(struct job_options *o, const char *name, const char *value, char *err,
		size_t errlen)
{
	const struct option_spec *spec = find_option(canonical_name(name));
	if (!spec)
		return error_set(err, errlen, "unknown or unsupported option '%s'", name);
	if (apply_value(o, spec, value)) {
		char engines[128];
		return error_set(err, errlen, "option '%s': invalid value '%s' (expected %s)", name,
				 value ? value : "",
				 spec->expects
					 ? spec->expects
					 : engine_names(engines, sizeof(engines), ", ", " or "));
	}
	remember_given(o, spec->name, value);
	return 0;
}

int options_set_number(struct job_options *o, const char *name, uint64_t value, char *err,
		       size_t errlen)
{
	char text[32];
	snprintf(text, sizeof(text), "%" PRIu64, value);
	return options_set(o, name, text, err, errlen);
}

int options_parse_argv(struct job_options *o, int argc, char **argv, char *err, size_t errlen)
{
	bool named = false;
	for (int i = 0; i < argc; i++) {
		const char *word = argv[i];
		if (strncmp(word, "--", 2) != 0 || word[2] == '\0') {
			snprintf(err, errlen,
				 "unexpected argument '%s' (job files are not supported; "
				 "give options as --name=value)",
				 word);
			return -1;
		}
		char name[64];
		const char *eq = strchr(word + 2, '=');
		size_t len = eq ? (size_t)(eq - word - 2) : strlen(word + 2);
		if (len >= sizeof(name))
			return error_set(err, errlen, "unknown or unsupported option '%s'", word);
		memcpy(name, word + 2, len);
		name[len] = '\0';
		if (!strcmp(name, "name")) {
			if (named) {
				snprintf(err, errlen,
					 "a second --name starts a second job; "
					 "run one job per command");
				return -1;
			}
			named = true;
		}
		if (options_set(o, name, eq ? eq + 1 : NULL, err, errlen))
			return -1;
	}
	return 0;
}

void options_default_filename(struct job_options *o, unsigned jobnum)
{
	if (!o->filename[0] && o->name[0])
		snprintf(o->filename, sizeof(o->filename), "%.*s.%u.0",
			 (int)(sizeof(o->filename) - 16), o->name, jobnum);
}

const char *options_rate_process_name(enum rate_process p)
{
	return p == RATE_POISSON ? "poisson" : "linear";
}
