/* cli_args.c - option parsing the subcommands share: one way to take an
 * option's value and one way to say a usage error. */
#include "cli/cli.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/internal.h"
#include "lib/lib.h"
#include "launch/launch.h"
#include "run/run.h"

int cli_usage_error(const char *command, const char *what, const char *arg)
{
	fprintf(stderr, "ebsbench %s: %s%s%s (try ebsbench %s --help)\n", command, what,
		arg ? " " : "", arg ? arg : "", command);
	return EXIT_USAGE;
}

/* --name VALUE or --name=VALUE at argv[*i] into *slot (*i moves past a
 * separate value): 0, 1 when argv[*i] is not --name, 2 when its value is
 * missing. */
static int take_value(int argc, char **argv, int *i, const char *name, const char **slot)
{
	size_t n = strlen(name);
	if (strncmp(argv[*i], name, n) || (argv[*i][n] && argv[*i][n] != '='))
		return 1;
	if (argv[*i][n] == '=') {
		*slot = argv[*i] + n + 1;
		return 0;
	}
	if (*i + 1 == argc)
		return 2;
	*slot = argv[++*i];
	return 0;
}

/* The row argv[*i] is, its value in *value (*i past a separate one): its
 * index, or cmd->count for none (*rc 1); *rc EXIT_USAGE (said) for a value
 * missing, or empty where the row says what it needs. */
static size_t match(const struct cli_command *cmd, int argc, char **argv, int *i,
		    const char **value, int *rc)
{
	size_t k = 0;
	for (*rc = 1; *rc == 1 && k < cmd->count; k++) {
		const struct cli_option *o = &cmd->options[k];
		*rc = o->arg ? take_value(argc, argv, i, o->name, value)
			     : (strcmp(argv[*i], o->name) ? 1 : 0);
	}
	if (*rc == 1)
		return cmd->count;
	const struct cli_option *o = &cmd->options[k - 1];
	if (o->needs && (*rc || !**value)) {
		char what[160];
		snprintf(what, sizeof(what), "%s needs %s", o->name, o->needs);
		*rc = cli_usage_error(cmd->name, what, NULL);
	} else if (*rc) {
		*rc = cli_usage_error(cmd->name, "missing value for", o->name);
	}
	return k - 1;
}

/* "--a, --b and --c are required": the required rows, in the table's order. */
static int required_error(const struct cli_command *cmd)
{
	char what[256] = "";
	size_t n = 0, total = 0, len;
	for (size_t k = 0; k < cmd->count; k++)
		total += cmd->options[k].required;
	for (size_t k = 0; k < cmd->count; k++) {
		if (!cmd->options[k].required)
			continue;
		len = strlen(what);
		snprintf(what + len, sizeof(what) - len, "%s%s",
			 n == 0		  ? ""
			 : n + 1 == total ? " and "
					  : ", ",
			 cmd->options[k].name);
		n++;
	}
	len = strlen(what);
	snprintf(what + len, sizeof(what) - len, " %s required", total == 1 ? "is" : "are");
	return cli_usage_error(cmd->name, what, NULL);
}

int cli_parse(const struct cli_command *cmd, int argc, char **argv, void *base)
{
	uint64_t seen = 0; /* by row: a required row not seen is an error */
	for (int i = 0; i < argc; i++) {
		const char *value = NULL;
		int rc;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(cmd->usage, stdout);
			return -1;
		}
		size_t k = match(cmd, argc, argv, &i, &value, &rc);
		const struct cli_option *o = k < cmd->count ? &cmd->options[k] : NULL;
		if (rc == 1)
			rc = cmd->operand ? cmd->operand(base, argv[i])
					  : cli_usage_error(cmd->name, "unknown option", argv[i]);
		else if (!rc && o->take)
			rc = o->take(base, value);
		else if (!rc && o->arg)
			*(const char **)(void *)((char *)base + o->offset) = value;
		else if (!rc)
			*(bool *)(void *)((char *)base + o->offset) = true;
		if (rc)
			return rc;
		if (o)
			seen |= 1ull << k;
	}
	for (size_t k = 0; k < cmd->count; k++)
		if (cmd->options[k].required && !(seen >> k & 1))
			return required_error(cmd);
	return cmd->check ? cmd->check(base) : 0;
}

int cli_count(const char *command, const char *option, const char *text, const char *what,
	      unsigned max, unsigned *out)
{
	char *end;
	unsigned long n = strtoul(text, &end, 10);
	if (text[0] < '1' || text[0] > '9' || *end || n > max) {
		fprintf(stderr, "ebsbench %s: %s '%s': want a number of %s, 1 to %u\n", command,
			option, text, what, max);
		return EXIT_USAGE;
	}
	*out = (unsigned)n;
	return 0;
}

const char *cli_region(const char *given, const char *profile, char *buf, size_t cap)
{
	static const char *const vars[] = { "AWS_REGION", "AWS_DEFAULT_REGION" };
	for (size_t i = 0; (!given || !*given) && i < ARRAY_SIZE(vars); i++)
		given = getenv(vars[i]);
	if (given && *given)
		return given;
	return aws_config_region(profile, buf, cap) ? NULL : buf;
}

int cli_need_region(const char *command, const char **region, const char *profile, char *buf,
		    size_t cap)
{
	*region = cli_region(*region, profile, buf, cap);
	return *region ? 0 : cli_usage_error(command, CLI_NO_REGION, NULL);
}

/* " NAME VALUE" (" VALUE" for an empty NAME) at the end of buf, VALUE in
 * single quotes when the shell would read it otherwise (a space, a '$', a
 * quote, ...); nothing for a NULL value. */
static void append_arg(char *buf, size_t cap, const char *name, const char *value)
{
	static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789_./:@%+=,-";
	size_t n = strlen(buf);
	if (!value || n + 1 >= cap)
		return;
	n += (size_t)snprintf(buf + n, cap - n, " %s%s", name, *name ? " " : "");
	if (value[0] && strspn(value, plain) == strlen(value)) {
		if (n < cap)
			snprintf(buf + n, cap - n, "%s", value);
		return;
	}
	/* 'it'\''s': a quote closes, an escaped one, and it opens again. */
	if (n + 2 >= cap)
		return;
	buf[n++] = '\'';
	for (const char *c = value; *c && n + 6 < cap; c++) {
		if (*c == '\'') {
			memcpy(buf + n, "'\\''", 4);
			n += 4;
		} else {
			buf[n++] = *c;
		}
	}
	buf[n++] = '\'';
	buf[n] = '\0';
}

void cli_fetch_hint(char *buf, size_t cap, const struct cli_fetch_hint *h)
{
	char url[1200], fleet[16];
	snprintf(url, sizeof(url), "s3://%s/%s", h->bucket, h->prefix);
	snprintf(fleet, sizeof(fleet), "%u", h->fleet);
	snprintf(buf, cap, "ebsbench fetch --wait");
	append_arg(buf, cap, "", url);
	append_arg(buf, cap, "--fleet", h->fleet ? fleet : NULL);
	append_arg(buf, cap, "--region", h->region);
	append_arg(buf, cap, "--profile", h->profile);
	append_arg(buf, cap, "--endpoint", h->endpoint);
	append_arg(buf, cap, "--ca-file", h->ca_file);
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
