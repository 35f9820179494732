/* demand_build.c - the readers' common half: samples merged into traces,
 * the metric and the volume a name stands for, and time stamps. */
#include "demand/demand_build.h"

#include <ctype.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "demand/internal.h"
#include "lib/lib.h"

/* Two time stamps closer than this (seconds) are the same interval. */
#define SAME_T 1e-3
#define DEFAULT_INTERVAL_S 60.0
/* 10000-01-01: later times are not times (and overflow a time_t's printing). */
#define TIME_MAX_S 253402300800.0

long demand_volume_index(struct demand_set *set, const char *name)
{
	for (size_t i = 0; i < set->n; i++)
		if (!strcmp(set->v[i].volume, name))
			return (long)i;
	if (set->n == set->cap) {
		size_t cap = set->cap ? set->cap * 2 : 4;
		struct demand_trace *v = realloc(set->v, cap * sizeof(*v));
		if (!v)
			return -1;
		set->v = v;
		set->cap = cap;
	}
	struct demand_trace *tr = &set->v[set->n];
	memset(tr, 0, sizeof(*tr));
	tr->balance_first_pct = tr->balance_first_t = NAN;
	tr->balance_min_pct = tr->balance_min_t = NAN;
	snprintf(tr->volume, sizeof(tr->volume), "%s", name);
	return (long)set->n++;
}

int demand_builder_reserve(struct demand_builder *b, size_t n)
{
	if (b->cap - b->n >= n)
		return 0;
	if (n > SIZE_MAX / sizeof(*b->s) - b->n)
		return -1;
	struct demand_sample *s = realloc(b->s, (b->n + n) * sizeof(*s));
	if (!s)
		return -1;
	b->s = s;
	b->cap = b->n + n;
	return 0;
}

int demand_builder_add(struct demand_builder *b, size_t vol, unsigned metric, double t,
		       double value)
{
	if (b->n == b->cap && demand_builder_reserve(b, b->cap ? b->cap : 256))
		return -1;
	b->s[b->n++] =
		(struct demand_sample){ .t = t, .value = value, .vol = vol, .metric = metric };
	return 0;
}

void demand_builder_free(struct demand_builder *b)
{
	free(b->s);
	b->s = NULL;
	b->n = b->cap = 0;
}

static int by_volume_then_time(const void *a, const void *b)
{
	const struct demand_sample *x = a, *y = b;
	if (x->vol != y->vol)
		return x->vol < y->vol ? -1 : 1;
	return x->t < y->t ? -1 : x->t > y->t;
}

/* Adds a sample's value to its point's field. */
static void add_to(struct demand_point *p, const struct demand_sample *s)
{
	switch (s->metric) {
	case DEMAND_M_READ_OPS:
		p->read_ops += s->value;
		break;
	case DEMAND_M_WRITE_OPS:
		p->write_ops += s->value;
		break;
	case DEMAND_M_READ_BYTES:
		p->read_bytes += s->value;
		break;
	default:
		p->write_bytes += s->value;
		break;
	}
}

/* A BurstBalance sample: the trace's first and lowest, no point. */
static void note_balance(struct demand_trace *tr, const struct demand_sample *s)
{
	tr->has_balance = true;
	if (isnan(tr->balance_first_t) || s->t < tr->balance_first_t) {
		tr->balance_first_t = s->t;
		tr->balance_first_pct = s->value;
	}
	if (isnan(tr->balance_min_pct) || s->value < tr->balance_min_pct) {
		tr->balance_min_pct = s->value;
		tr->balance_min_t = s->t;
	}
}

/* The trace's existing points back into samples, so a second file's
 * metrics merge with them. */
static int points_to_samples(struct demand_builder *b, size_t vol)
{
	struct demand_trace *tr = &b->set->v[vol];
	if (tr->n && (tr->n > SIZE_MAX / 4 || demand_builder_reserve(b, 4 * tr->n)))
		return -1;
	for (size_t i = 0; i < tr->n; i++) {
		const struct demand_point *p = &tr->p[i];
		if (demand_builder_add(b, vol, DEMAND_M_READ_OPS, p->t, p->read_ops) ||
		    demand_builder_add(b, vol, DEMAND_M_WRITE_OPS, p->t, p->write_ops) ||
		    demand_builder_add(b, vol, DEMAND_M_READ_BYTES, p->t, p->read_bytes) ||
		    demand_builder_add(b, vol, DEMAND_M_WRITE_BYTES, p->t, p->write_bytes))
			return -1;
	}
	free(tr->p);
	tr->p = NULL;
	tr->n = tr->cap = 0;
	return 0;
}

/* Interval and gaps of a trace whose points are in order. */
static void settle(struct demand_trace *tr, double given_interval)
{
	double step = HUGE_VAL;

	for (size_t i = 1; i < tr->n; i++)
		step = fmin(step, tr->p[i].t - tr->p[i - 1].t);
	tr->interval_s = given_interval > 0   ? given_interval
			 : isfinite(step)     ? step
			 : tr->interval_s > 0 ? tr->interval_s
					      : DEFAULT_INTERVAL_S;
	tr->gaps = 0;
	for (size_t i = 1; i < tr->n; i++) {
		double missing = round((tr->p[i].t - tr->p[i - 1].t) / tr->interval_s) - 1;
		if (missing > 0)
			tr->gaps += (size_t)missing;
	}
}

int demand_builder_finish(struct demand_builder *b, double given_interval)
{
	size_t vols = b->set->n, i = 0;
	bool *touched = calloc(vols ? vols : 1, sizeof(*touched));

	if (!touched)
		return -1;
	for (size_t k = 0; k < b->n; k++)
		touched[b->s[k].vol] = true;
	for (size_t v = 0; v < vols; v++)
		if (touched[v] && points_to_samples(b, v)) {
			free(touched);
			return -1;
		}
	if (b->n)
		qsort(b->s, b->n, sizeof(*b->s), by_volume_then_time);
	while (i < b->n) {
		struct demand_trace *tr = &b->set->v[b->s[i].vol];
		size_t end = i;
		while (end < b->n && b->s[end].vol == b->s[i].vol)
			end++;
		/* At most one point a sample: the room once, not by doubling. */
		if (!tr->p && !(tr->p = malloc((end - i) * sizeof(*tr->p)))) {
			free(touched);
			return -1;
		}
		tr->cap = tr->p ? end - i : 0;
		for (; i < end; i++) {
			if (b->s[i].metric == DEMAND_M_BURST_BALANCE) {
				note_balance(tr, &b->s[i]);
				continue;
			}
			if (!tr->n || b->s[i].t - tr->p[tr->n - 1].t > SAME_T) {
				if (tr->n == tr->cap) {
					size_t cap = tr->cap ? tr->cap * 2 : 64;
					struct demand_point *p = realloc(tr->p, cap * sizeof(*p));
					if (!p) {
						free(touched);
						return -1;
					}
					tr->p = p;
					tr->cap = cap;
				}
				tr->p[tr->n++] = (struct demand_point){ .t = b->s[i].t };
			}
			add_to(&tr->p[tr->n - 1], &b->s[i]);
		}
	}
	for (size_t v = 0; v < vols; v++)
		if (touched[v])
			settle(&b->set->v[v], given_interval);
	free(touched);
	demand_builder_free(b);
	return 0;
}

void demand_set_free(struct demand_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		free(set->v[i].p);
	free(set->v);
	memset(set, 0, sizeof(*set));
}

/* Whether needle occurs in text, any case. */
static bool contains_nocase(const char *text, const char *needle)
{
	size_t n = strlen(needle);
	for (; *text; text++)
		if (!strncasecmp(text, needle, n))
			return true;
	return false;
}

unsigned demand_metric_in(const char *text)
{
	static const struct {
		const char *word;
		unsigned bit;
	} words[] = {
		{ "readops", DEMAND_M_READ_OPS },	    { "writeops", DEMAND_M_WRITE_OPS },
		{ "readbytes", DEMAND_M_READ_BYTES },	    { "writebytes", DEMAND_M_WRITE_BYTES },
		{ "burstbalance", DEMAND_M_BURST_BALANCE },
	};
	for (size_t k = 0; k < ARRAY_SIZE(words); k++)
		if (contains_nocase(text, words[k].word))
			return words[k].bit;
	return 0;
}

bool demand_volume_id_in(const char *text, char *out, size_t cap)
{
	for (const char *s = text; *s; s++) {
		size_t skip = !strncmp(s, "vol-", 4) ? 4 : !strncmp(s, "vol", 3) ? 3 : 0;
		size_t hex = 0;
		if (!skip || (s > text && isalnum((unsigned char)s[-1])))
			continue;
		while (isxdigit((unsigned char)s[skip + hex]))
			hex++;
		if (hex >= 8 && hex <= 32 && !isalnum((unsigned char)s[skip + hex])) {
			snprintf(out, cap, "vol-%.*s", (int)hex, s + skip);
			return true;
		}
	}
	return false;
}

/* n decimal digits at *s into *out, moving *s past them. */
static bool digits(const char **s, int n, int *out)
{
	int v = 0;
	for (int k = 0; k < n; k++) {
		if (!isdigit((unsigned char)(*s)[k]))
			return false;
		v = v * 10 + ((*s)[k] - '0');
	}
	*s += n;
	*out = v;
	return true;
}

/* One of the characters in any at *s, moving *s past it. */
static bool sep(const char **s, const char *any)
{
	if (!**s || !strchr(any, **s))
		return false;
	(*s)++;
	return true;
}

/* The zone part of an ISO 8601 time: "", "Z", "+HH:MM", "+HHMM", "+HH". */
static bool zone_offset(const char *s, double *offset_s)
{
	int hh = 0, mm = 0;
	*offset_s = 0;
	if (!*s || ((s[0] == 'Z' || s[0] == 'z') && !s[1]))
		return true;
	if (*s != '+' && *s != '-')
		return false;
	int sign = *s++ == '-' ? -1 : 1;
	if (!digits(&s, 2, &hh))
		return false;
	if (*s == ':')
		s++;
	if (*s && !digits(&s, 2, &mm))
		return false;
	if (*s || hh > 23 || mm > 59)
		return false;
	*offset_s = sign * (hh * 3600.0 + mm * 60.0);
	return true;
}

int demand_parse_time(const char *text, double *out)
{
	const char *s = text;
	struct tm tm = { 0 };
	int y, mo, d, h, mi, sec;
	double frac = 0, offset;
	char *end;

	if (isdigit((unsigned char)s[0]) && !strchr(s, '-') && !strchr(s, ':')) {
		double v = strtod(s, &end);
		if (end == s || *end || !(v >= 0 && v < TIME_MAX_S))
			return -1;
		*out = v;
		return 0;
	}
	if (!digits(&s, 4, &y) || !sep(&s, "-") || !digits(&s, 2, &mo) || !sep(&s, "-") ||
	    !digits(&s, 2, &d) || !sep(&s, "Tt ") || !digits(&s, 2, &h) || !sep(&s, ":") ||
	    !digits(&s, 2, &mi) || !sep(&s, ":") || !digits(&s, 2, &sec))
		return -1;
	if (*s == '.') {
		const char *f = s++;
		while (isdigit((unsigned char)*s))
			s++;
		if (s == f + 1)
			return -1;
		frac = strtod(f, NULL);
	}
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60 ||
	    !zone_offset(s, &offset))
		return -1;
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
	time_t t = timegm(&tm);
	if (t == (time_t)-1 || t < 0)
		return -1;
	*out = (double)t + frac - offset;
	return 0;
}
