/* internal.h - what the subcommands share among themselves and nothing
 * outside cli/ calls: the argv parser, and the usage, volume, region and
 * fetch-hint helpers the launchers have in common. */
#ifndef EBSBENCH_CLI_INTERNAL_H
#define EBSBENCH_CLI_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

struct ebs_volume;

/* cli_args.c: the parser's table and the helpers every command shares. */
/* "ebsbench COMMAND: WHAT ARG (try ebsbench COMMAND --help)" on stderr
 * (arg may be NULL); returns 2, the usage exit status. */
int cli_usage_error(const char *command, const char *what, const char *arg);
/* --volume TYPE:SIZE[:IOPS[:MIBPS]] (launch_parse_volume) appended to
 * volumes[*count] (at most CONFIG_MAX_DEVICES); 0, or 2 said on stderr. */
int cli_add_volume(const char *command, const char *spec, struct ebs_volume *volumes,
		   size_t *count);
/* The region: given (--region), else AWS_REGION, else AWS_DEFAULT_REGION,
 * else the profile's region in the config file (profile: --profile, NULL
 * for AWS_PROFILE or default, read into buf[cap]), as AWS's tools take it;
 * NULL when none is set. */
const char *cli_region(const char *given, const char *profile, char *buf, size_t cap);
/* What every command says when cli_region finds none. */
#define CLI_NO_REGION                                                                              \
	"no region: give --region, or set AWS_REGION, or a region in the profile's config file"
/* *region = cli_region(*region, ...): 0, or EXIT_USAGE after CLI_NO_REGION. */
int cli_need_region(const char *command, const char **region, const char *profile, char *buf,
		    size_t cap);
/* The `ebsbench fetch --wait` line a launcher prints: the run's prefix,
 * the fleet's size (0: one run), and the region, profile and endpoint it
 * was launched with (NULL: not given), so it works as printed. */
struct cli_fetch_hint {
	const char *bucket, *prefix, *region, *profile, *endpoint, *ca_file;
	unsigned fleet;
};
void cli_fetch_hint(char *buf, size_t cap, const struct cli_fetch_hint *h);

/* One option of a subcommand, a row of its table: its name, the name of
 * its value in --help (NULL: a flag, taken only as itself), and what it
 * sets in the command's argument struct (base): the value's text, a const
 * char * at base + offset, or true in a bool there; or, where take is
 * given, take's work (a value parsed, or collected into a list): 0, or an
 * exit status after one line on stderr.  A value is given as --name VALUE
 * or --name=VALUE; a later one replaces an earlier.  A required row not
 * given is "--a, --b and --c are required", every required row named.  A
 * value missing is "missing value for --name", unless the row says what
 * it needs (needs: "--out needs a directory"): then an empty value is
 * refused the same way. */
struct cli_option {
	const char *name;
	const char *arg;
	size_t offset;
	int (*take)(void *base, const char *value);
	bool required;
	const char *needs;
};
#define CLI_VALUE(name, arg, type, field)                                                          \
	{                                                                                          \
		name, arg, offsetof(type, field), NULL, false, NULL                                \
	}
#define CLI_FLAG(name, type, field)                                                                \
	{                                                                                          \
		name, NULL, offsetof(type, field), NULL, false, NULL                               \
	}
#define CLI_TAKE(name, arg, take)                                                                  \
	{                                                                                          \
		name, arg, 0, take, false, NULL                                                    \
	}
#define CLI_NEED_VALUE(name, arg, type, field)                                                     \
	{                                                                                          \
		name, arg, offsetof(type, field), NULL, true, NULL                                 \
	}
#define CLI_NEED_TAKE(name, arg, take)                                                             \
	{                                                                                          \
		name, arg, 0, take, true, NULL                                                     \
	}
/* A value that must be there and not empty: "NAME needs NEEDS" otherwise. */
#define CLI_VALUE_NEEDS(name, arg, type, field, needs)                                             \
	{                                                                                          \
		name, arg, offsetof(type, field), NULL, false, needs                               \
	}
#define CLI_TAKE_NEEDS(name, arg, take, needs)                                                     \
	{                                                                                          \
		name, arg, 0, take, false, needs                                                   \
	}

/* A subcommand's argv: its name, --help's text, its options, and what an
 * argument that is none of them is: operand's to take (0, or an exit
 * status said), or with no operand an unknown option; check (NULL: none)
 * says what the arguments mean together once all are taken (0, or an exit
 * status said: "needs two results"). */
struct cli_command {
	const char *name;
	const char *usage;
	const struct cli_option *options;
	size_t count;
	int (*operand)(void *base, const char *arg);
	int (*check)(void *base);
};
/* argv into base by cmd's table, left to right (at most 64 rows), then
 * cmd's check: 0; -1 after --help or -h (the usage on stdout); else the
 * exit status, said on stderr in one line ("missing value for --s3",
 * "unknown option --x", "--volume and --s3 are required"). */
int cli_parse(const struct cli_command *cmd, int argc, char **argv, void *base);
/* --fleet-like counts: text as a whole number 1 to max into *out; else
 * EXIT_USAGE after "ebsbench COMMAND: OPTION 'TEXT': want a number of
 * WHAT, 1 to MAX". */
int cli_count(const char *command, const char *option, const char *text, const char *what,
	      unsigned max, unsigned *out);

#endif
