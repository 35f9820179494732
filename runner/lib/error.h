/* error.h - the one way a function reports why it failed: the reason goes
 * to the caller's buffer as one line, the function returns -1, so a check
 * reads `return error_set(err, errlen, "...", ...);`. */
#ifndef EBSBENCH_ERROR_H
#define EBSBENCH_ERROR_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* A command's exit status when what it was given (an argument, a file it
 * names) is unusable: main's and every subcommand's. */
#define EXIT_USAGE 2

/* `ebsbench run`'s (and `fio`'s) status when a SIGTERM or SIGINT (a drain,
 * an eviction, a deadline) stopped it before its end: results.json says
 * stopped_early, and `run --resume` continues it.  Not 0, so whoever runs
 * it (a Job, a script) knows the run is not whole and may resume it. */
#define EXIT_STOPPED 5

__attribute__((format(printf, 3, 4))) static inline int error_set(char *err, size_t errlen,
								  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

#endif
