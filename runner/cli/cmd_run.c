/* cmd_run.c - `ebsbench run`'s arguments into a run request; the run
 * itself (config -> devices -> plan -> steps -> results.json -> report)
 * is run/run_exec.c's. */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

#include "cli/internal.h"
#include "lib/lib.h"
#include "report/report.h"
#include "run/run.h"

static const char usage[] =
	"usage: ebsbench run --config FILE|- [--out DIR] [--dry-run] [--plan sweep|quick]\n"
	"       ebsbench run --config FILE|- [--out DIR] --resume[=auto]\n"
	"Runs the EKS gp2/gp3 benchmark sequence on the configured (or discovered) EBS volumes,\n"
	"one device at a time, and writes results.json, fio-format IOPS logs, summary.md and\n"
	"SVG charts to DIR.  Before its first write it reads all it will overwrite, and writes\n"
	"only over zeros and ebsbench's own data.  --dry-run prints the plan (and how much is\n"
	"read first) and touches no device.\n"
	"--plan sweep runs the dd/hdparm block-size sweep (O_DIRECT writes of 16k..1M, then\n"
	"2M reads, one I/O at a time) in place of the config's phases.  --plan quick (or\n"
	"\"plan\": \"quick\" in the config) runs every phase on a 1 GiB region, each ended\n"
	"once steady (SNIA's test, after a floor; its ceiling 15 s), no burst bucket drained:\n"
	"minutes, with a gp2's cliff predicted, not measured (docs/run.md, The quick plan).\n"
	"--resume continues a run stopped before its end (SIGTERM, SIGKILL, eviction) whose\n"
	"results.json is in DIR (default: --out, else the config's output_dir): the same config\n"
	"and devices, refused with one line otherwise; it reads first again, skips the steps\n"
	"that finished, runs a step that was cut again whole, and records the gap.\n"
	"--resume=auto (a pod's): when DIR holds no results.json, it is fetched from S3\n"
	"through the upload block's resume_get URL; none there (404): the run starts from its\n"
	"start; a run that finished: nothing to do (exit 0).\n"
	"With an \"upload\" block in the config, each file also goes to S3 as soon as it is\n"
	"written (see docs/upload.md).\n"
	"Exit: 0 ok, 1 a phase failed (the rest still ran), a result file could not be\n"
	"written or the devices could not be listed, 2 usage or config, before any I/O (a\n"
	"device that is not there, none to test, an output_dir that cannot be made, expiring\n"
	"URLs included), 3 refused to write to a device, 4 an upload failed (every file is\n"
	"kept in DIR), 5 stopped before its end by SIGTERM or SIGINT (--resume continues it);\n"
	"1 wins over 4, 5 over both.\n";

/* The request, and where argv's --resume stood: the argument right after
 * it, when it does not start with '-', is the directory to resume. */
struct run_args {
	struct run_request req;
	char **argv;
	int argc;
	const char *resume_dir;
};

/* --resume=auto: from S3 if need be, else afresh. */
static int take_resume_auto(void *base, const char *value)
{
	struct run_args *a = base;
	(void)value;
	a->req.resume = a->req.resume_auto = true;
	return 0;
}

/* --resume DIR: DIR is the output directory. */
static int take_resume_dir(void *base, const char *arg)
{
	struct run_args *a = base;
	int k = 1;
	while (k < a->argc && a->argv[k] != arg)
		k++;
	if (k == a->argc || arg[0] == '-' || !a->req.resume || strcmp(a->argv[k - 1], "--resume"))
		return cli_usage_error("run", arg[0] == '-' ? "unknown option" : "unknown argument",
				       arg);
	a->resume_dir = arg;
	return 0;
}

/* --config given; --resume not with --dry-run, its DIR the --out if both
 * are given. */
static int check_args(void *base)
{
	struct run_args *args = base;
	struct run_request *a = &args->req;
	if (!a->config) {
		fprintf(stderr, "ebsbench run: --config FILE is required (- reads stdin)\n");
		return EXIT_USAGE;
	}
	if (a->resume && a->dry_run) {
		fprintf(stderr, "ebsbench run: --resume runs; --dry-run shows a plan: give one\n");
		return EXIT_USAGE;
	}
	if (args->resume_dir && a->out && strcmp(args->resume_dir, a->out)) {
		fprintf(stderr, "ebsbench run: --resume %s and --out %s name two directories\n",
			args->resume_dir, a->out);
		return EXIT_USAGE;
	}
	if (args->resume_dir)
		a->out = args->resume_dir;
	return 0;
}

static const struct cli_option options[] = {
	CLI_VALUE("--config", "FILE", struct run_args, req.config),
	CLI_VALUE("--plan", "NAME", struct run_args, req.plan),
	CLI_VALUE("--out", "DIR", struct run_args, req.out),
	CLI_FLAG("--dry-run", struct run_args, req.dry_run),
	CLI_TAKE("--resume=auto", NULL, take_resume_auto),
	CLI_FLAG("--resume", struct run_args, req.resume),
};
static const struct cli_command command = { "run",	     usage,
					    options,	     ARRAY_SIZE(options),
					    take_resume_dir, check_args };

int cmd_run(int argc, char **argv, const volatile sig_atomic_t *stop)
{
	static const struct run_reporter report = { .render = report_render,
						    .print_tldr = report_print_tldr };
	struct run_args a = { .argv = argv, .argc = argc };
	int rc = cli_parse(&command, argc, argv, &a);
	if (rc)
		return rc < 0 ? 0 : rc;
	return run_execute(&a.req, &report, stop);
}
