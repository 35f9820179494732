/* main.c - ebsbench: the command table, the usage printed from it, and the
 * one signal flag. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "lib/lib.h"

static volatile sig_atomic_t stop_requested;

static void on_stop_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void install_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a blocking wait returns EINTR and the loop sees the
	 * flag, finishes what is in flight and reports what it measured. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* Every command, once: the dispatch and the usage both read this table,
 * so a command cannot exist without being listed. */
static const struct command {
	const char *name;
	int (*fn)(int argc, char **argv, const volatile sig_atomic_t *stop);
	const char *help;
} commands[] = {
	{ "run", cmd_run,
	  "benchmark the volumes a config names (or finds), analyse, report, upload" },
	{ "discover", cmd_discover,
	  "list block devices, their EBS facts and whether they are safe to write" },
	{ "report", cmd_report, "rebuild summary.md and the charts from results directories" },
	{ "recommend", cmd_recommend,
	  "the cheapest volume per type for a load, and how to apply it" },
	{ "observe", cmd_observe,
	  "sample a device's demand read-only from the kernel's counters, as CSV" },
	{ "compare", cmd_compare,
	  "two runs phase by phase: the changes, their intervals, what is not comparable" },
	{ "presign", cmd_presign, "sign S3 upload URLs for a run, where the credentials are" },
	{ "k8s", cmd_k8s, "write the Kubernetes objects of one run, for kubectl apply -f -" },
	{ "ec2", cmd_ec2,
	  "write the aws ec2 run-instances input of one run (uploads this binary)" },
	{ "fetch", cmd_fetch, "download a run's results from S3 with your credentials" },
	{ "fio", cmd_fio, "run one job given with fio's options and output formats" },
	{ "version", cmd_version, "print the version" },
};

static void print_usage(FILE *f)
{
	fputs("usage: ebsbench COMMAND [options]   (ebsbench COMMAND --help for each)\n"
	      "commands:\n",
	      f);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].help);
}

int main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		print_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	const char *name = !strcmp(argv[1], "--version") ? "version" : argv[1];
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		if (strcmp(name, commands[i].name))
			continue;
		install_signals();
		return commands[i].fn(argc - 2, argv + 2, &stop_requested);
	}
	fprintf(stderr, "ebsbench: unknown command '%s' (try ebsbench --help)\n", argv[1]);
	return EXIT_USAGE;
}
