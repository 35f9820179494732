/* launch_line.h - a launch's progress line on stderr: redrawn in place on
 * a terminal, else written again only when it changes (a log gets one line
 * per change, not one per poll). */
#ifndef EBSBENCH_LAUNCH_LINE_H
#define EBSBENCH_LAUNCH_LINE_H

#include <stdbool.h>

struct launch_line {
	char shown[640];
	bool live;  /* stderr is a terminal */
	bool drawn; /* a line is drawn in place and not ended yet */
};

/* Whether stderr is a terminal, nothing shown yet. */
void launch_line_init(struct launch_line *l);
/* text as the line, unless it is what is shown. */
void launch_line_show(struct launch_line *l, const char *text);
/* Ends a line drawn in place, before another line is said. */
void launch_line_end(struct launch_line *l);

#endif
