/* test_cli_args.c - the argv parser the subcommands share: a table's value
 * options (--name VALUE and --name=VALUE), flags, options that parse their
 * value, operands, and the exit statuses of what it refuses. */
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cli/cli.h"
#include "cli/internal.h"
#include "lib/lib.h"

struct args {
	const char *name, *other;
	bool flag;
	unsigned count;
	const char *operands[2];
	size_t noperands;
};

static int take_count(void *base, const char *text)
{
	return cli_count("test", "--count", text, "things", 8, &((struct args *)base)->count);
}

static int take_operand(void *base, const char *arg)
{
	struct args *a = base;
	if (a->noperands == 2)
		return cli_usage_error("test", "two at most, not also", arg);
	a->operands[a->noperands++] = arg;
	return 0;
}

static const struct cli_option options[] = {
	CLI_VALUE("--name", "NAME", struct args, name),
	CLI_VALUE("--name-other", "X", struct args, other),
	CLI_FLAG("--flag", struct args, flag),
	CLI_TAKE("--count", "N", take_count),
};
static const struct cli_command with_operands = { "test",	"usage: test\n",
						  options,	ARRAY_SIZE(options),
						  take_operand, NULL };
static const struct cli_command no_operands = { "test",	 "usage: test\n",
						options, ARRAY_SIZE(options),
						NULL,	 NULL };

/* argv given as one string of space-separated words. */
static int parse(const struct cli_command *cmd, const char *line, struct args *a)
{
	static char buf[256];
	char *argv[16];
	int argc = 0;
	snprintf(buf, sizeof(buf), "%s", line);
	for (char *w = strtok(buf, " "); w && argc < 16; w = strtok(NULL, " "))
		argv[argc++] = w;
	memset(a, 0, sizeof(*a));
	return cli_parse(cmd, argc, argv, a);
}

/* Each kind of row sets what it says, in either spelling of a value. */
static void test_rows(struct checks *checks)
{
	struct args a;
	CHECK(parse(&with_operands, "--name x --flag --name-other=y --count 3 A", &a) == 0);
	CHECK(a.name && !strcmp(a.name, "x"));
	CHECK(a.other && !strcmp(a.other, "y"));
	CHECK(a.flag);
	CHECK_EQ_U64(a.count, 3);
	CHECK(a.noperands == 1 && !strcmp(a.operands[0], "A"));
	/* A later value replaces an earlier; "--name=" is an empty value. */
	CHECK(parse(&with_operands, "--name=a --name b", &a) == 0 && !strcmp(a.name, "b"));
	CHECK(parse(&with_operands, "--name=", &a) == 0 && a.name && !a.name[0]);
	/* A name is matched whole: --name-other is not --name with a tail. */
	CHECK(parse(&with_operands, "--name-other z", &a) == 0 && !a.name && !strcmp(a.other, "z"));
}

/* What it refuses: exit 2 (the usage status), or -1 for --help. */
static void test_refusals(struct checks *checks)
{
	struct args a;
	CHECK(parse(&with_operands, "--flag --help --bogus", &a) == -1);
	CHECK(parse(&with_operands, "-h", &a) == -1);
	CHECK(parse(&with_operands, "--name", &a) == 2); /* missing value */
	CHECK(parse(&no_operands, "--bogus", &a) == 2);	 /* unknown */
	CHECK(parse(&no_operands, "A", &a) == 2);	 /* no operands */
	CHECK(parse(&no_operands, "--flag=1", &a) == 2); /* a flag is only itself */
	CHECK(parse(&with_operands, "A B C", &a) == 2);	 /* the operand's own refusal */
	CHECK(parse(&with_operands, "--count 0", &a) == 2 && a.count == 0);
	CHECK(parse(&with_operands, "--count 9", &a) == 2);
	CHECK(parse(&with_operands, "--count 08", &a) == 2);
	CHECK(parse(&with_operands, "--count 8x", &a) == 2);
	CHECK(parse(&with_operands, "--count=8", &a) == 0 && a.count == 8);
}

/* parse, with what it said on stderr in said[cap]. */
static int parse_said(const struct cli_command *cmd, const char *line, struct args *a, char *said,
		      size_t cap)
{
	FILE *f = tmpfile();
	int saved = dup(2), rc;
	size_t n = 0;
	fflush(stderr);
	if (f && saved >= 0 && dup2(fileno(f), 2) >= 0) {
		rc = parse(cmd, line, a);
		fflush(stderr);
		dup2(saved, 2);
		rewind(f);
		n = fread(said, 1, cap - 1, f);
	} else {
		rc = -2;
	}
	said[n] = '\0';
	if (f)
		fclose(f);
	if (saved >= 0)
		close(saved);
	return rc;
}

static const struct cli_option needs_rows[] = {
	CLI_NEED_VALUE("--name", "NAME", struct args, name),
	CLI_VALUE("--name-other", "X", struct args, other),
	CLI_FLAG("--flag", struct args, flag),
	CLI_NEED_TAKE("--count", "N", take_count),
};
static const struct cli_command needs = { "test",     "usage: test\n",
					  needs_rows, ARRAY_SIZE(needs_rows),
					  NULL,	      NULL };
static const struct cli_command needs_one = { "test", "usage: test\n", needs_rows, 2, NULL, NULL };

/* A required row not given: one line naming every required row, exit 2;
 * --help still answers first. */
static void test_required(struct checks *checks)
{
	struct args a;
	char said[256];
	CHECK(parse_said(&needs, "--name x --count 2", &a, said, sizeof(said)) == 0);
	CHECK(parse_said(&needs, "--help", &a, said, sizeof(said)) == -1);
	CHECK(parse_said(&needs, "--name x --flag", &a, said, sizeof(said)) == 2);
	CHECK(!strcmp(said, "ebsbench test: --name and --count are required (try ebsbench test "
			    "--help)\n"));
	CHECK(parse_said(&needs_one, "--name-other y", &a, said, sizeof(said)) == 2);
	CHECK(!strcmp(said, "ebsbench test: --name is required (try ebsbench test --help)\n"));
	CHECK(parse_said(&needs, "--count 2 --name=", &a, said, sizeof(said)) == 0 && !said[0]);
}

/* Two operands, or exit 2 with one line. */
static int two_operands(void *base)
{
	return ((struct args *)base)->noperands == 2 ? 0 : cli_usage_error("test", "two", NULL);
}

static const struct cli_option said_rows[] = {
	CLI_VALUE_NEEDS("--out", "DIR", struct args, name, "a directory"),
	CLI_TAKE_NEEDS("--count", "N", take_count, "a count"),
};
static const struct cli_command checked = { "test",	  "usage: test\n",
					    said_rows,	  ARRAY_SIZE(said_rows),
					    take_operand, two_operands };

/* A row that says what it needs says so for a value missing or empty; the
 * check runs once all is taken, never after --help. */
static void test_needs_and_check(struct checks *checks)
{
	struct args a;
	char said[256];
	CHECK(parse_said(&checked, "A B --out", &a, said, sizeof(said)) == 2);
	CHECK(!strcmp(said, "ebsbench test: --out needs a directory (try ebsbench test --help)\n"));
	CHECK(parse_said(&checked, "A B --out= --count 2", &a, said, sizeof(said)) == 2);
	CHECK(!strcmp(said, "ebsbench test: --out needs a directory (try ebsbench test --help)\n"));
	CHECK(parse_said(&checked, "A B --count=", &a, said, sizeof(said)) == 2);
	CHECK(!strcmp(said, "ebsbench test: --count needs a count (try ebsbench test --help)\n"));
	CHECK(parse_said(&checked, "A --out d", &a, said, sizeof(said)) == 2);
	CHECK(!strcmp(said, "ebsbench test: two (try ebsbench test --help)\n"));
	CHECK(parse_said(&checked, "A --help", &a, said, sizeof(said)) == -1 && !said[0]);
	CHECK(parse_said(&checked, "A --out d B", &a, said, sizeof(said)) == 0 && !said[0]);
	CHECK(a.name && !strcmp(a.name, "d"));
}

CHECK_MAIN(test_rows, test_refusals, test_required, test_needs_and_check)
