/* main.c - ebsbench: subcommand dispatch and the one signal flag. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli/cmd_discover.h"
#include "cli/cmd_fio.h"
#include "cli/cmd_presign.h"
#include "cli/cmd_report.h"
#include "cli/cmd_run.h"

#include "lib/version.h"

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

static const char usage[] =
	"usage: ebsbench COMMAND [options]\n"
	"commands:\n"
	"  fio       run one job given with fio's options (ebsbench fio --help)\n"
	"  presign   sign S3 upload URLs for a run (ebsbench presign --help)\n"
	"  version   print the version\n";

int main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		fputs(usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	install_signals();
	if (!strcmp(argv[1], "fio"))
		return cmd_fio(argc - 2, argv + 2, &stop_requested);
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 2, argv + 2, &stop_requested);
	if (!strcmp(argv[1], "discover"))
		return cmd_discover(argc - 2, argv + 2);
	if (!strcmp(argv[1], "report"))
		return cmd_report(argc - 2, argv + 2);
	if (!strcmp(argv[1], "presign"))
		return cmd_presign(argc - 2, argv + 2);
	if (!strcmp(argv[1], "version") || !strcmp(argv[1], "--version")) {
		printf("ebsbench %s\n", EBSBENCH_VERSION);
		return 0;
	}
	fprintf(stderr, "ebsbench: unknown command '%s' (try ebsbench --help)\n", argv[1]);
	return 2;
}
