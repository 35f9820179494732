/* discover_text.c - the text discovery reads: mountinfo lines, sysfs
 * attribute values and block device names, as pure functions on strings,
 * apart from the files that hold them, so they can be tested and fuzzed
 * alone (what `ebsbench discover` prints: discover_show.c). */
#include "device/discover_text.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void discover_sysfs_trim(char *buf)
{
	size_t end = strlen(buf);
	while (end > 0 && isspace((unsigned char)buf[end - 1]))
		buf[--end] = '\0';
	size_t start = 0;
	while (buf[start] == ' ')
		start++;
	memmove(buf, buf + start, end - start + 1);
}

int discover_sysfs_parse_u64(const char *text, uint64_t *out)
{
	return sscanf(text, "%" SCNu64, out) == 1 ? 0 : -1;
}

int discover_sysfs_parse_dev(const char *text, unsigned *major, unsigned *minor)
{
	return sscanf(text, "%u:%u", major, minor) == 2 ? 0 : -1;
}

/* ---- names ---- */

static bool digits_from(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

static bool letters_from(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!islower((unsigned char)*s))
			return false;
	return true;
}

bool discover_is_nvme_namespace(const char *name)
{
	if (strncmp(name, "nvme", 4) != 0 || !isdigit((unsigned char)name[4]))
		return false;
	const char *n = name + 4;
	while (isdigit((unsigned char)*n))
		n++;
	return *n == 'n' && digits_from(n + 1);
}

bool discover_is_other_disk(const char *name)
{
	if (strncmp(name, "loop", 4) == 0)
		return digits_from(name + 4);
	if (strncmp(name, "xvd", 3) == 0)
		return letters_from(name + 3);
	if (strncmp(name, "vd", 2) == 0 || strncmp(name, "sd", 2) == 0)
		return letters_from(name + 2);
	return false;
}

/* ---- mountinfo ---- */

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape_octal(char *s)
{
	char *out = s;
	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

int discover_mountinfo_parse_line(const char *line, struct mount_entry *m)
{
	char point[sizeof(m->point)], source[sizeof(m->source)] = "";
	if (sscanf(line, "%*s %*s %u:%u %*s %255s", &m->major, &m->minor, point) != 3)
		return -1;
	const char *sep = strstr(line, " - ");
	if (sep && sscanf(sep + 3, "%*s %63s", source) != 1)
		source[0] = '\0';
	unescape_octal(point);
	memcpy(m->point, point, sizeof(point));
	memcpy(m->source, source, sizeof(source));
	return 0;
}
