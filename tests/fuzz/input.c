/* input.c - the byte-buffer helpers shared by every fuzz target. */
#include "input.h"

#include <stdlib.h>
#include <string.h>

char *fuzz_cstring(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		abort();
	if (size)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

size_t fuzz_split(char *text, char sep, char **fields, size_t max)
{
	size_t n = 0;
	fields[n++] = text;
	for (char *p = text; n < max && (p = strchr(p, sep)) != NULL; p++) {
		*p = '\0';
		fields[n++] = p + 1;
	}
	return n;
}
