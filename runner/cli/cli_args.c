/* cli_args.c - option parsing the subcommands share: one way to take an
 * option's value and one way to say a usage error. */
#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lib.h"
#include "run/run.h"

#define EXIT_USAGE 2

int cli_usage_error(const char *command, const char *what, const char *arg)
{
	fprintf(stderr, "ebsbench %s: %s%s%s (try ebsbench %s --help)\n", command, what,
		arg ? " " : "", arg ? arg : "", command);
	return EXIT_USAGE;
}

int cli_take_value(const char *command, int argc, char **argv, int *i, const char *name,
		   const char **slot)
{
	size_t n = strlen(name);
	if (strncmp(argv[*i], name, n) || (argv[*i][n] && argv[*i][n] != '='))
		return 1;
	if (argv[*i][n] == '=') {
		*slot = argv[*i] + n + 1;
		return 0;
	}
	if (*i + 1 == argc)
		return cli_usage_error(command, "missing value for", name);
	*slot = argv[++*i];
	return 0;
}

const char *cli_region(const char *given)
{
	static const char *const vars[] = { "AWS_REGION", "AWS_DEFAULT_REGION" };
	for (size_t i = 0; (!given || !*given) && i < ARRAY_SIZE(vars); i++)
		given = getenv(vars[i]);
	return given && *given ? given : NULL;
}

int cli_add_volume(const char *command, const char *spec, struct ebs_volume *volumes, size_t *count)
{
	char err[256];
	if (*count == CONFIG_MAX_DEVICES) {
		fprintf(stderr, "ebsbench %s: more than %d --volume\n", command,
			CONFIG_MAX_DEVICES);
		return 2;
	}
	if (launch_parse_volume(spec, &volumes[*count], err, sizeof(err))) {
		fprintf(stderr, "ebsbench %s: %s\n", command, err);
		return 2;
	}
	(*count)++;
	return 0;
}
