/* cli.h - the subcommands: argv in, exit status out.  main.c's command
 * table points at these; each parses its own options and calls the floors
 * below.  Exit statuses are shared: 0 done, 1 the work failed, 2 bad usage
 * or config. */
#ifndef EBSBENCH_CLI_H
#define EBSBENCH_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

struct ebs_volume;

/* `ebsbench run`: discover, guard, run the plan, analyse, report.  Also 3:
 * refused to write to a device that holds data. */
int cmd_run(int argc, char **argv, const volatile sig_atomic_t *stop);

/* `ebsbench fio`: one job from fio-style options.  Also 5: stopped early by
 * SIGINT/SIGTERM (the partial results were written). */
int cmd_fio(int argc, char **argv, const volatile sig_atomic_t *stop);

/* `ebsbench discover`: what is attached, and what is safe. */
int cmd_discover(int argc, char **argv, const volatile sig_atomic_t *stop);

/* `ebsbench report [--out DIR] [--print | --json] DIR...`: summary.md and
 * the SVG charts, rebuilt from results directories (one run, or a fleet
 * side by side); --json prints each record with its new analysis.  1: a
 * results.json missing or invalid, or an output write failed. */
int cmd_report(int argc, char **argv, const volatile sig_atomic_t *stop);

/* `ebsbench recommend RESULTS [--iops N] [--mibs M] [--p99-ms X] [--gib G]
 * [--region R] [--json] [--out DIR]`: the cheapest gp3, io2 and gp2 per
 * measured volume, and the files that apply it.  2: usage, or a results
 * file missing, unreadable or of a newer schema. */
int cmd_recommend(int argc, char **argv, const volatile sig_atomic_t *stop);

/* `ebsbench compare A B [--json] [--out DIR]`: two runs phase by phase,
 * each change with its interval, and what makes them not comparable.  2:
 * usage, or a results file missing, unreadable or of a newer schema. */
int cmd_compare(int argc, char **argv, const volatile sig_atomic_t *stop);

/* `ebsbench presign`: sign the upload URLs (or a POST policy) for one run,
 * on the operator's machine, where the credentials are. */
int cmd_presign(int argc, char **argv, const volatile sig_atomic_t *stop);

/* `ebsbench fetch s3://BUCKET/PREFIX/ [DIR]`: a run's results back from S3
 * with the user's credentials.  1: S3 refused, a local file differs, or
 * nothing is under the prefix. */
int cmd_fetch(int argc, char **argv, const volatile sig_atomic_t *stop);

/* `ebsbench k8s`: one run on Block-mode PVCs as one List of Kubernetes
 * objects on stdout (its POST policy signed as presign signs), for
 * `kubectl apply -f -`.  2: usage, a bad volume, image or S3 destination,
 * missing credentials.  --apply runs it end to end through the user's
 * kubectl (launch/k8s_apply.h: its exit statuses K8S_APPLY_*, 0 to 7). */
int cmd_k8s(int argc, char **argv, const volatile sig_atomic_t *stop);

/* `ebsbench ec2`: one run on a stock Amazon Linux 2023 instance as the
 * input of `aws ec2 run-instances --cli-input-json` on stdout, after
 * uploading this binary under the run's prefix.  2: usage, a bad volume,
 * config or S3 destination, missing credentials; 1: S3 refused the
 * binary.  --launch runs it end to end through the user's aws CLI
 * (launch/ec2_launch.h: its exit statuses EC2_LAUNCH_*, 0 to 7). */
int cmd_ec2(int argc, char **argv, const volatile sig_atomic_t *stop);

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
/* --name VALUE or --name=VALUE at argv[*i] into *slot (*i moves past a
 * separate value): 0, 1 when argv[*i] is not --name, 2 (said on stderr)
 * when its value is missing. */
int cli_take_value(const char *command, int argc, char **argv, int *i, const char *name,
		   const char **slot);

/* One option of a subcommand, a row of its table: its name, the name of
 * its value in --help (NULL: a flag, taken only as itself), and what it
 * sets in the command's argument struct (base): the value's text, a const
 * char * at base + offset, or true in a bool there; or, where take is
 * given, take's work (a value parsed, or collected into a list): 0, or an
 * exit status after one line on stderr.  A value is given as --name VALUE
 * or --name=VALUE; a later one replaces an earlier.  A required row not
 * given is "--a, --b and --c are required", every required row named. */
struct cli_option {
	const char *name;
	const char *arg;
	size_t offset;
	int (*take)(void *base, const char *value);
	bool required;
};
#define CLI_VALUE(name, arg, type, field)                                                          \
	{                                                                                          \
		name, arg, offsetof(type, field), NULL, false                                      \
	}
#define CLI_FLAG(name, type, field)                                                                \
	{                                                                                          \
		name, NULL, offsetof(type, field), NULL, false                                     \
	}
#define CLI_TAKE(name, arg, take)                                                                  \
	{                                                                                          \
		name, arg, 0, take, false                                                          \
	}
#define CLI_NEED_VALUE(name, arg, type, field)                                                     \
	{                                                                                          \
		name, arg, offsetof(type, field), NULL, true                                       \
	}
#define CLI_NEED_TAKE(name, arg, take)                                                             \
	{                                                                                          \
		name, arg, 0, take, true                                                           \
	}

/* A subcommand's argv: its name, --help's text, its options, and what an
 * argument that is none of them is: operand's to take (0, or an exit
 * status said), or with no operand an unknown option. */
struct cli_command {
	const char *name;
	const char *usage;
	const struct cli_option *options;
	size_t count;
	int (*operand)(void *base, const char *arg);
};
/* argv into base by cmd's table, left to right (at most 64 rows): 0; -1
 * after --help or -h (the usage on stdout); else the exit status, said on
 * stderr in one line ("missing value for --s3", "unknown option --x",
 * "--volume and --s3 are required"). */
int cli_parse(const struct cli_command *cmd, int argc, char **argv, void *base);
/* --fleet-like counts: text as a whole number 1 to max into *out; else
 * EXIT_USAGE after "ebsbench COMMAND: OPTION 'TEXT': want a number of
 * WHAT, 1 to MAX". */
int cli_count(const char *command, const char *option, const char *text, const char *what,
	      unsigned max, unsigned *out);

/* `ebsbench observe DEVICE... [--interval 1s] [--duration D] [--out FILE]`:
 * the devices' demand from the kernel's counters, read-only, as the CSV
 * recommend --demand reads.  1: a device went away or the output failed;
 * 2: usage, or not a block device. */
int cmd_observe(int argc, char **argv, const volatile sig_atomic_t *stop);

/* `ebsbench version`. */
int cmd_version(int argc, char **argv, const volatile sig_atomic_t *stop);

#endif
