/* launch_line.c - the progress line (see launch_line.h). */
#include "launch/launch_line.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

void launch_line_init(struct launch_line *l)
{
	l->shown[0] = '\0';
	l->live = isatty(STDERR_FILENO);
	l->drawn = false;
}

void launch_line_show(struct launch_line *l, const char *text)
{
	if (!strcmp(text, l->shown))
		return;
	snprintf(l->shown, sizeof(l->shown), "%s", text);
	fprintf(stderr, l->live ? "\r\033[K%s" : "%s\n", text);
	fflush(stderr);
	l->drawn = l->live;
}

void launch_line_end(struct launch_line *l)
{
	if (l->drawn)
		fputc('\n', stderr);
	l->drawn = false;
}
