/* cmd_version.c - `ebsbench version`: the version, and nothing else. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "lib/lib.h"

int cmd_version(int argc, char **argv, const volatile sig_atomic_t *stop)
{
	(void)stop;
	if (argc == 1 && !strcmp(argv[0], "--help")) {
		puts("usage: ebsbench version\nPrints \"ebsbench VERSION\" on stdout.");
		return 0;
	}
	if (argc > 0) {
		fputs("ebsbench version: takes no arguments\n", stderr);
		return 2;
	}
	printf("ebsbench %s\n", EBSBENCH_VERSION);
	return 0;
}
