/* cmdline.c - key=value words of /proc/cmdline, and base64 for the config
 * carried there (a JSON document has spaces and quotes the kernel's
 * parser would split or strip). */
#include "cmdline.h"

#include <string.h>

int cmdline_value(const char *cmdline, const char *key, char *out, size_t len)
{
	size_t klen = strlen(key);
	int found = 0;
	if (len)
		out[0] = '\0';
	for (const char *p = cmdline; *p;) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		const char *end = p + strcspn(p, " \t\n");
		if (end - p > (long)klen && !strncmp(p, key, klen) && p[klen] == '=') {
			const char *v = p + klen + 1;
			size_t vlen = (size_t)(end - v);
			if (vlen >= len) {
				if (len)
					out[0] = '\0';
				found = -1;
			} else {
				memcpy(out, v, vlen);
				out[vlen] = '\0';
				found = 1;
			}
		}
		p = end;
	}
	return found;
}

static int base64_value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+' || c == '-')
		return 62;
	if (c == '/' || c == '_')
		return 63;
	return -1;
}

long base64_decode(const char *in, unsigned char *out, size_t len)
{
	unsigned long acc = 0;
	int bits = 0;
	size_t n = 0;
	for (; *in && *in != '='; in++) {
		int v = base64_value(*in);
		if (v < 0)
			return -1;
		acc = (acc << 6) | (unsigned)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (n == len)
				return -1;
			out[n++] = (unsigned char)(acc >> bits);
		}
	}
	while (*in == '=')
		in++;
	return *in ? -1 : (long)n;
}
