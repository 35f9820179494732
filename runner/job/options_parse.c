/* options_parse.c - option values as fio reads them: sizes ("4k", "1MiB"),
 * durations ("30", "5m") and small counts.  The leaf of job/options*: the
 * table's setters, the JSON plan reader and the run config all parse here. */
#include "job/options.h"
#include "job/internal.h"
#include "lib/lib.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The decimal number a size or duration starts with; *end is what follows
 * (its unit).  No sign, no blank, no overflow. */
static int leading_number(const char *text, unsigned long long *n, char **end)
{
	errno = 0;
	if (!isdigit((unsigned char)text[0]))
		return -1;
	*n = strtoull(text, end, 10);
	return errno ? -1 : 0;
}

/* Sizes as fio reads them with its default kb_base=1024: "4k", "8G",
 * "1MiB", "512" (bytes). */
int options_parse_size(const char *text, uint64_t *out)
{
	char *end;
	unsigned long long n;
	if (leading_number(text, &n, &end))
		return -1;
	unsigned shift = 0;
	const char *units = "kmgtp";
	const char *u = *end ? strchr(units, tolower((unsigned char)*end)) : NULL;
	if (u) {
		shift = 10 * (unsigned)(u - units + 1);
		end++;
		if (*end == 'i' || *end == 'I')
			end++;
		if (*end == 'b' || *end == 'B')
			end++;
	} else if (*end == 'b' || *end == 'B') {
		end++;
	}
	if (*end)
		return -1;
	if (shift && n > (UINT64_MAX >> shift))
		return -1;
	*out = (uint64_t)n << shift;
	return 0;
}

/* Durations: a bare number is seconds, as for fio's runtime and ramp_time. */
int options_parse_duration_ns(const char *text, uint64_t *out)
{
	static const struct {
		const char *suffix;
		uint64_t ns;
	} units[] = { { "", 1000000000ull },	     { "s", 1000000000ull },
		      { "ms", 1000000ull },	     { "us", 1000ull },
		      { "m", 60 * 1000000000ull },   { "h", 3600 * 1000000000ull },
		      { "d", 86400 * 1000000000ull } };
	char *end;
	unsigned long long n;
	if (leading_number(text, &n, &end))
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcasecmp(end, units[i].suffix) == 0) {
			if (n > UINT64_MAX / units[i].ns)
				return -1;
			*out = n * units[i].ns;
			return 0;
		}
	}
	return -1;
}

int options_parse_uint(const char *value, unsigned max, unsigned *out)
{
	char *end;
	errno = 0;
	if (!isdigit((unsigned char)value[0]))
		return -1;
	unsigned long n = strtoul(value, &end, 10);
	if (errno || *end || n > max)
		return -1;
	*out = (unsigned)n;
	return 0;
}
