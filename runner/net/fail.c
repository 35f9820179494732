/* fail.c - the first failure of a request, kept with its reason. */
#include "net/fail.h"
#include "net/internal.h"

#include <stdarg.h>
#include <stdio.h>

void net_fail_set(struct net_fail *f, enum http_failure kind, const char *fmt, ...)
{
	va_list ap;

	if (f->kind != HTTP_OK)
		return;
	f->kind = kind;
	if (!f->len)
		return;
	va_start(ap, fmt);
	vsnprintf(f->msg, f->len, fmt, ap);
	va_end(ap);
}
