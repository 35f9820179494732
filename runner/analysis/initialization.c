/* initialization.c - the probe's verdict on a volume restored from a
 * snapshot, and which phases read blocks it had not yet loaded. */
#include "analysis/initialization.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/finding.h"
#include "model/model.h"
#include "results/results.h"

/* The spans of the device known loaded, merged; a few suffice (regions
 * start at the device's start in every plan ebsbench writes). */
#define SPANS 16
struct loaded {
	uint64_t from[SPANS], to[SPANS];
	size_t n;
};

static void loaded_add(struct loaded *l, uint64_t from, uint64_t to)
{
	for (size_t i = 0; i < l->n; i++) {
		if (from <= l->to[i] && to >= l->from[i]) { /* overlaps: grow it */
			from = from < l->from[i] ? from : l->from[i];
			to = to > l->to[i] ? to : l->to[i];
			l->from[i] = l->from[--l->n];
			l->to[i] = l->to[l->n];
			loaded_add(l, from, to);
			return;
		}
	}
	if (l->n < SPANS && to > from) {
		l->from[l->n] = from;
		l->to[l->n++] = to;
	}
}

static bool loaded_covers(const struct loaded *l, uint64_t from, uint64_t to)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->from[i] <= from && to <= l->to[i])
			return true;
	return false;
}

/* A fio size as the job options record it ("67108864", "8G"); 0 if none. */
static uint64_t bytes_of(const json_t *value)
{
	const char *s = json_string_value(value);
	char *end;
	if (!s)
		return json_is_integer(value) ? (uint64_t)json_integer_value(value) : 0;
	unsigned long long n = strtoull(s, &end, 10);
	const char *units = "kmgtp";
	const char *u = *end ? strchr(units, tolower((unsigned char)*end)) : NULL;
	for (ptrdiff_t k = u ? u - units + 1 : 0; k > 0; k--)
		n <<= 10;
	return (uint64_t)n;
}

static bool rw_reads(const char *rw)
{
	return rw && (strstr(rw, "read") || !strcmp(rw, "rw") || !strcmp(rw, "randrw"));
}

json_t *initialization_unloaded(const json_t *results, const char *label)
{
	const json_t *dev = results_device(results, label), *phase;
	const json_t *first = json_object_get(dev, "read_first");
	struct loaded l = { .n = 0 };
	size_t i;

	if (!results_str_is(RESULTS_GET(dev, "initialization", "state"), "loading"))
		return NULL;
	uint64_t size = (uint64_t)results_num_or(dev, "size_bytes", 0);
	/* A record without its job's size (an old one): the plan's test_size. */
	uint64_t plan_size =
		(uint64_t)results_num_or(json_object_get(results, "plan"), "test_size", 0);
	uint64_t at = (uint64_t)results_num_or(first, "offset", 0);
	loaded_add(&l, at, at + (uint64_t)results_num_or(first, "bytes_read", 0));
	json_t *marks = json_array();
	json_array_foreach(json_object_get(results, "phases"), i, phase)
	{
		const json_t *opts = RESULTS_GET(phase, "job", "job options");
		const char *rw = json_string_value(json_object_get(phase, "rw"));
		bool mine = results_str_is(json_object_get(phase, "device"), label);
		uint64_t from = bytes_of(json_object_get(opts, "offset"));
		uint64_t len = bytes_of(json_object_get(opts, "size"));
		len = len ? len : plan_size;
		uint64_t to = len && from + len < size ? from + len : size;
		json_array_append_new(
			marks, json_boolean(mine && rw_reads(rw) && !loaded_covers(&l, from, to)));
		double done = results_num_or(RESULTS_GET(phase, "job", "read"), "io_bytes", 0) +
			      results_num_or(RESULTS_GET(phase, "job", "write"), "io_bytes", 0);
		/* A sequential pass over the whole region loads (or writes) it all. */
		if (mine && rw && !strstr(rw, "rand") && done >= (double)(to - from))
			loaded_add(&l, from, to);
	}
	return marks;
}

/* "randread 1709 IOPS (predicted 3000), seqread 92 MiB/s (predicted 125)"
 * for the device's phases judged still loading; returns how many. */
static size_t short_phases(const json_t *verdicts, char *buf, size_t len)
{
	const json_t *p;
	size_t i, n = 0, used = 0;
	buf[0] = '\0';
	json_array_foreach(verdicts, i, p)
	{
		if (!results_str_is(json_object_get(p, "verdict"), ebs_verdict_name(EBS_LOADING)))
			continue;
		if (n++ < 4 && used < len)
			used += (size_t)snprintf(buf + used, len - used,
						 "%s%s %.0f %s (predicted %.0f)", used ? ", " : "",
						 json_string_value(json_object_get(p, "phase")),
						 results_num(json_object_get(p, "measured")),
						 json_string_value(json_object_get(p, "unit")),
						 results_num(json_object_get(p, "predicted")));
	}
	return n;
}

/* Names of the device's phases marked in unloaded, "randread, lat". */
static void unloaded_names(const json_t *results, const json_t *unloaded, char *buf, size_t len)
{
	const json_t *p;
	size_t i, used = 0;
	buf[0] = '\0';
	json_array_foreach(json_object_get(results, "phases"), i, p)
	{
		const char *name = json_string_value(json_object_get(p, "phase"));
		if (json_is_true(json_array_get(unloaded, i)) && name && !strstr(buf, name) &&
		    used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
						 name);
	}
}

/* How far the run initialized the device: INIT_NONE, INIT_DONE when its
 * initialize phase read its whole span (the volume is loaded by the run's
 * end), INIT_MEASURED when a phase of the device also ran after it: those
 * read loaded blocks, so what the volume delivers once loaded was measured. */
enum init_done { INIT_NONE, INIT_DONE, INIT_MEASURED };

static enum init_done initialize_done(const json_t *results, const char *label)
{
	const json_t *p;
	size_t i;
	bool initialized = false;
	json_array_foreach(json_object_get(results, "phases"), i, p)
	{
		if (!results_str_is(json_object_get(p, "device"), label))
			continue;
		if (initialized)
			return INIT_MEASURED;
		uint64_t span = bytes_of(RESULTS_GET(p, "job", "job options", "size"));
		initialized = results_str_is(json_object_get(p, "phase"), "initialize") && span &&
			      results_num_or(RESULTS_GET(p, "job", "read"), "io_bytes", 0) >=
				      (double)span;
	}
	return initialized ? INIT_DONE : INIT_NONE;
}

json_t *initialization_judge(const json_t *results, const char *label, const json_t *verdicts,
			     const json_t *unloaded, json_t *findings)
{
	const json_t *rec = json_object_get(results_device(results, label), "initialization");
	const char *state = json_string_value(json_object_get(rec, "state"));
	char probe[256], shortfall[400], names[200], line[2048];
	enum init_done done = initialize_done(results, label);

	if (!state)
		return json_null();
	snprintf(probe, sizeof(probe),
		 "its probe at the run's start read %.0f blocks in %.3g ms at the median, the "
		 "same blocks again in %.3g ms",
		 results_num_or(rec, "blocks", 0), results_num_or(rec, "first_read_ms", 0),
		 results_num_or(rec, "second_read_ms", 0));
	size_t short_n = short_phases(verdicts, shortfall, sizeof(shortfall));
	unloaded_names(results, unloaded, names, sizeof(names));
	if (strcmp(state, "loading")) {
		const char *what = "initialization not judged";
		if (!strcmp(state, "not loading"))
			what = "not loading from a snapshot";
		else if (!strcmp(state, "not judged"))
			what = "initialization not judged (not recognised as EBS: no snapshot)";
		snprintf(line, sizeof(line), "%s: %s: %s.", label, what, probe);
		finding_add(findings, FINDING_DETAIL, line);
	} else if (short_n) {
		snprintf(line, sizeof(line),
			 "%s %s from its snapshot (%s): %s read blocks not yet "
			 "loaded, each fetched from the snapshot on its first read, so the "
			 "shortfall is the snapshot's, not the volume's level. %s",
			 label, done ? "was loading" : "is still loading", probe, shortfall,
			 done == INIT_MEASURED
				 ? "Its initialize phase then read every block once: the phases "
				   "after it read loaded blocks, judged by the model as any other."
			 : done ? "Its initialize phase then read every block once, last: what it "
				  "delivers once loaded is not measured here."
				: "What it delivers once loaded is not measured here: read every "
				  "block once first (the initialize phase).");
		finding_add(findings, FINDING_DELIVERED, line);
	} else {
		snprintf(line, sizeof(line),
			 "%s was still loading from its snapshot at the run's start (%s); %s%s.",
			 label, probe,
			 names[0] ? "none of the phases that read blocks not yet loaded fell "
				    "short of the model: "
				  : "the phases read only blocks the run had loaded first",
			 names);
		finding_add(findings, FINDING_START_STATE, line);
	}
	return json_pack("{s:s,s:b,s:O?,s:O?,s:O?,s:s,s:s}", "state", state, "initialized",
			 done != INIT_NONE, "first_read_ms", json_object_get(rec, "first_read_ms"),
			 "second_read_ms", json_object_get(rec, "second_read_ms"), "blocks",
			 json_object_get(rec, "blocks"), "unloaded_phases", names, "sentence",
			 line);
}

json_t *initialization_pass(const json_t *results, const char *label, json_t *findings)
{
	const json_t *p = results_phase(results, "initialize", label);
	const json_t *read = RESULTS_GET(p, "job", "read");
	double bytes = results_num_or(read, "io_bytes", 0);
	double seconds = results_num_or(RESULTS_GET(p, "job"), "job_runtime", 0) / 1000.0;
	char line[320];

	if (!p || !(bytes > 0) || !(seconds > 0))
		return json_null();
	double mibs = bytes / seconds / 1048576.0;
	snprintf(
		line, sizeof(line),
		"%s: the initialize phase read %.1f GiB once, sequentially, in %.1f s: %.0f MiB/s.",
		label, bytes / 1073741824.0, seconds, mibs);
	finding_add(findings, FINDING_MEASUREMENT, line);
	return json_pack("{s:f,s:f,s:f,s:s}", "bytes", bytes, "seconds", seconds, "mibs", mibs,
			 "sentence", line);
}
