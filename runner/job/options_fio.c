/* options_fio.c - the values of the options fio's own scripts and users'
 * job files use beyond the basics: output formats, unified reporting,
 * I/O priorities (cmdprio_*), bssplit, idle profiling, the steady-state
 * criterion and the accepted no-ops.  options.c's table points at these setters. */
#include "job/options_fio.h"
#include "job/internal.h"
#include "lib/lib.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One word's bit of --output-format; 0 for a word that is none. */
static unsigned output_format_bit(const char *word, size_t len)
{
	static const struct {
		const char *name;
		unsigned bit;
	} formats[] = { { "normal", OUTPUT_NORMAL },
			{ "json", OUTPUT_JSON },
			{ "json+", OUTPUT_JSON_PLUS },
			{ "terse", OUTPUT_TERSE } };
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
		if (strlen(formats[i].name) == len && !strncmp(word, formats[i].name, len))
			return formats[i].bit;
	return 0;
}

/* fio's --output-format: one format or several joined by commas
 * ("terse,json+"), each printed once, in fio's order. */
int options_set_output_format(struct job_options *o, const char *v)
{
	unsigned bits = 0;
	for (const char *p = v;; p++) {
		size_t len = strcspn(p, ",");
		unsigned bit = output_format_bit(p, len);
		if (!bit)
			return -1;
		bits |= bit;
		p += len;
		if (!*p)
			break;
	}
	o->output_format = bits;
	return 0;
}

/* fio's unified_rw_reporting values, with its former booleans. */
int options_set_unified_rw(struct job_options *o, const char *v)
{
	if (!strcmp(v, "none") || !strcmp(v, "0"))
		o->unified_rw_reporting = UNIFIED_NONE;
	else if (!strcmp(v, "mixed") || !strcmp(v, "1"))
		o->unified_rw_reporting = UNIFIED_MIXED;
	else if (!strcmp(v, "both") || !strcmp(v, "2"))
		o->unified_rw_reporting = UNIFIED_BOTH;
	else
		return -1;
	return 0;
}

/* Only "no verification" runs here: verify=0 or verify=none. */
int options_set_verify(struct job_options *o, const char *v)
{
	(void)o;
	return !strcmp(v, "0") || !strcmp(v, "none") ? 0 : -1;
}

/* fio's threads: its tiobench profile's thread count, an option of every
 * job in fio's table that does nothing without --profile=tiobench (fio's
 * own examples/steadystate.fio sets it). */
int options_set_profile_threads(struct job_options *o, const char *v)
{
	unsigned n;
	(void)o;
	return options_parse_uint(v, 4096, &n);
}

/* fio's --idle-prof modes that report; "calibrate" (fio's loops alone)
 * has nothing to measure here. */
int options_set_idle_prof(struct job_options *o, const char *v)
{
	if (!strcmp(v, "system"))
		o->idle_prof = IDLE_PROF_SYSTEM;
	else if (!strcmp(v, "percpu"))
		o->idle_prof = IDLE_PROF_PERCPU;
	else
		return -1;
	return 0;
}

/* fio's --max-jobs: at least the one job a command runs, at most fio's
 * own limit. */
int options_set_max_jobs(struct job_options *o, const char *v)
{
	unsigned n;
	if (options_parse_uint(v, 4096, &n) || n == 0)
		return -1;
	o->max_jobs = n;
	return 0;
}

/* One "SIZE/PERCENT" or "SIZE/PERCENT/CLASS/LEVEL" (with_prio) entry of
 * len bytes at text. */
static int parse_bs_share(const char *text, size_t len, bool with_prio, struct bs_share *out)
{
	char entry[64], *fields[4];
	unsigned n = 0, v[3] = { 0, OPTIONS_CMDPRIO_CLASS_RT, 0 };
	const unsigned max[3] = { 100, 3, 7 };
	uint64_t bs;
	if (len == 0 || len >= sizeof(entry))
		return -1;
	memcpy(entry, text, len);
	entry[len] = '\0';
	for (char *save = NULL, *f = strtok_r(entry, "/", &save); f;
	     f = strtok_r(NULL, "/", &save)) {
		if (n == 4)
			return -1;
		fields[n++] = f;
	}
	if (n < 2 || (!with_prio && n != 2) || (with_prio && n == 3))
		return -1;
	if (options_parse_size(fields[0], &bs) || bs == 0 || bs > (64u << 20))
		return -1;
	for (unsigned i = 1; i < n; i++)
		if (options_parse_uint(fields[i], max[i - 1], &v[i - 1]) || (i == 2 && v[1] == 0))
			return -1;
	*out = (struct bs_share){ .bs = (uint32_t)bs,
				  .percent = v[0],
				  .own_prio = n == 4,
				  .ioprio = (uint16_t)(v[1] << 13 | v[2]) };
	return 0;
}

/* A list of bs_share entries joined by ':' into shares; its count. */
static int parse_bs_shares(const char *v, bool with_prio, struct bs_share *shares, unsigned *count)
{
	unsigned n = 0;
	for (const char *p = v;; p++) {
		size_t len = strcspn(p, ":");
		if (n == OPTIONS_MAX_BSSPLIT || parse_bs_share(p, len, with_prio, &shares[n++]))
			return -1;
		p += len;
		if (!*p)
			break;
	}
	*count = n;
	return 0;
}

/* fio's bssplit: the shares must make 100 %; one list for reads and
 * writes alike (fio's "R,W" form is refused). */
int options_set_bssplit(struct job_options *o, const char *v)
{
	unsigned n, total = 0;
	if (parse_bs_shares(v, false, o->bssplit, &n))
		return -1;
	for (unsigned i = 0; i < n; i++)
		total += o->bssplit[i].percent;
	if (total != 100)
		return -1;
	o->bssplit_count = n;
	return 0;
}

/* fio's cmdprio_bssplit: for each size, shares of its I/Os (at most 100 %
 * per size) with a class and level (cmdprio_class and cmdprio when left
 * out, options_share_ioprio); the rest of that size's I/Os keep the
 * default priority. */
int options_set_cmdprio_bssplit(struct job_options *o, const char *v)
{
	unsigned n;
	if (parse_bs_shares(v, true, o->cmdprio_bssplit, &n))
		return -1;
	for (unsigned i = 0; i < n; i++) {
		unsigned total = 0;
		for (unsigned j = 0; j < n; j++)
			total += o->cmdprio_bssplit[j].bs == o->cmdprio_bssplit[i].bs
					 ? o->cmdprio_bssplit[j].percent
					 : 0;
		if (total > 100)
			return -1;
	}
	o->cmdprio_bssplit_count = n;
	return 0;
}

/* fio's cmdprio_class: 1 (realtime), 2 (best effort) or 3 (idle). */
int options_set_cmdprio_class(struct job_options *o, const char *v)
{
	unsigned c;
	if (options_parse_uint(v, 3, &c) || c == 0)
		return -1;
	o->cmdprio_class = c;
	return 0;
}

void options_ss_defaults(struct ss_options *ss)
{
	*ss = (struct ss_options){ .interval_ns = 1000000000ull,
				   .limit = 0.01,
				   .iops = true,
				   .slope = true,
				   .pct = true };
}

/* A threshold number: digits with an optional fraction (".1" as fio's
 * str_to_float), finite and not negative, with nothing after it. */
static int parse_limit(const char *text, double *out)
{
	char *end;
	if (!*text || strchr("+-", *text))
		return -1;
	*out = strtod(text, &end);
	return *end || end == text || !isfinite(*out) ? -1 : 0;
}

/* ebsbench's SNIA criteria, which carry no limit (SNIA's are fixed). */
static int set_snia(struct ss_options *ss, const char *v)
{
	static const char *const names[] = { "snia_iops", "snia_bw", "snia_p99" };
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(v, names[i])) {
			ss->snia = true;
			ss->iops = i == 0;
			ss->p99 = i == 2;
			ss->slope = ss->pct = false;
			return 0;
		}
	return -1;
}

/* fio's steadystate (ss): CRITERION:LIMIT, the criterion iops, iops_slope,
 * bw or bw_slope; the limit a percentage of the window's mean ("10%"), or
 * for iops an IOPS figure ("2"), for bw bytes per second as a size ("1m").
 * Or one of ebsbench's SNIA criteria, alone. */
int options_set_steadystate(struct job_options *o, const char *v)
{
	static const struct {
		const char *name;
		bool iops, slope;
	} criteria[] = { { "iops", true, false },
			 { "iops_slope", true, true },
			 { "bw", false, false },
			 { "bw_slope", false, true } };
	const char *colon = strchr(v, ':');
	char limit[64];
	size_t len;
	struct ss_options ss = o->ss;
	if (!colon)
		return set_snia(&o->ss, v);
	if (strlen(colon + 1) >= sizeof(limit))
		return -1;
	len = (size_t)(colon - v);
	size_t i = 0;
	while (i < ARRAY_SIZE(criteria) &&
	       (strlen(criteria[i].name) != len || strncmp(criteria[i].name, v, len)))
		i++;
	if (i == ARRAY_SIZE(criteria))
		return -1;
	ss.iops = criteria[i].iops;
	ss.slope = criteria[i].slope;
	ss.snia = ss.p99 = false;
	snprintf(limit, sizeof(limit), "%s", colon + 1);
	len = strlen(limit);
	ss.pct = len && limit[len - 1] == '%';
	if (ss.pct) {
		limit[--len] = '\0';
		while (len && limit[len - 1] == ' ')
			limit[--len] = '\0';
	}
	if (ss.pct || ss.iops) {
		if (parse_limit(limit, &ss.limit))
			return -1;
	} else {
		uint64_t bytes;
		if (options_parse_size(limit, &bytes))
			return -1;
		ss.limit = (double)bytes;
	}
	o->ss = ss;
	return 0;
}

uint16_t options_cmdprio_ioprio(const struct job_options *o)
{
	return (uint16_t)(o->cmdprio_class << 13 | o->cmdprio);
}

bool options_cmdprio(const struct job_options *o)
{
	return o->cmdprio_percentage || o->cmdprio_bssplit_count;
}

uint16_t options_share_ioprio(const struct job_options *o, const struct bs_share *share)
{
	return share->own_prio ? share->ioprio : options_cmdprio_ioprio(o);
}

unsigned options_ioprios(const struct job_options *o, uint16_t *prios, unsigned max)
{
	uint16_t all[OPTIONS_MAX_BSSPLIT + 1] = { 0 };
	unsigned n = 0;
	for (unsigned i = 0; i <= o->cmdprio_bssplit_count; i++) {
		const struct bs_share *share = &o->cmdprio_bssplit[i];
		uint16_t p = i < o->cmdprio_bssplit_count
				     ? (share->percent ? options_share_ioprio(o, share) : 0)
				     : (o->cmdprio_percentage ? options_cmdprio_ioprio(o) : 0);
		bool seen = p == 0;
		for (unsigned j = 0; j < n && !seen; j++)
			seen = all[j] == p;
		if (!seen)
			all[n++] = p;
	}
	for (unsigned i = 0; i < n && i < max; i++)
		prios[i] = all[i];
	return n;
}

uint32_t options_max_bs(const struct job_options *o)
{
	uint32_t bs = o->bssplit_count ? 0 : o->bs;
	for (unsigned i = 0; i < o->bssplit_count; i++)
		if (o->bssplit[i].bs > bs)
			bs = o->bssplit[i].bs;
	return bs;
}

uint32_t options_min_bs(const struct job_options *o)
{
	uint32_t bs = o->bssplit_count ? UINT32_MAX : o->bs;
	for (unsigned i = 0; i < o->bssplit_count; i++)
		if (o->bssplit[i].bs < bs)
			bs = o->bssplit[i].bs;
	return bs;
}
