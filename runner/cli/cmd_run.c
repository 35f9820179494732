/* cmd_run.c - `ebsbench run`'s arguments into a run request; the run
 * itself (config -> devices -> plan -> steps -> results.json -> report)
 * is run/run_exec.c's. */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

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
	"Exit: 0 ok (a SIGTERM or SIGINT that ended it early included), 1 a phase failed (the\n"
	"rest still ran), a result file could not be written or the devices could not be\n"
	"listed, 2 usage or config, before any I/O (a device that is not there, none to test,\n"
	"an output_dir that cannot be made, expiring URLs included), 3 refused to write to a\n"
	"device, 4 an upload failed (every file is kept in DIR); 1 wins over 4.\n";

/* --plan NAME: another plan than the config's; --resume [DIR]: DIR is
 * the output directory (an argument not starting with '-');
 * --resume=auto: from S3 if need be, else afresh. */
static int parse_args(int argc, char **argv, struct run_request *a)
{
	const char *resume_dir = NULL;
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--config") && i + 1 < argc)
			a->config = argv[++i];
		else if (!strcmp(argv[i], "--plan") && i + 1 < argc)
			a->plan = argv[++i];
		else if (!strcmp(argv[i], "--out") && i + 1 < argc)
			a->out = argv[++i];
		else if (!strcmp(argv[i], "--dry-run"))
			a->dry_run = true;
		else if (!strcmp(argv[i], "--resume=auto"))
			a->resume = a->resume_auto = true;
		else if (!strcmp(argv[i], "--resume")) {
			a->resume = true;
			if (i + 1 < argc && argv[i + 1][0] != '-')
				resume_dir = argv[++i];
		} else {
			fprintf(stderr, "ebsbench run: unknown or incomplete argument '%s'\n",
				argv[i]);
			return -1;
		}
	}
	if (!a->config) {
		fprintf(stderr, "ebsbench run: --config FILE is required (- reads stdin)\n");
		return -1;
	}
	if (a->resume && a->dry_run) {
		fprintf(stderr, "ebsbench run: --resume runs; --dry-run shows a plan: give one\n");
		return -1;
	}
	if (resume_dir && a->out && strcmp(resume_dir, a->out)) {
		fprintf(stderr, "ebsbench run: --resume %s and --out %s name two directories\n",
			resume_dir, a->out);
		return -1;
	}
	if (resume_dir)
		a->out = resume_dir;
	return 0;
}

int cmd_run(int argc, char **argv, const volatile sig_atomic_t *stop)
{
	static const struct run_reporter report = { .render = report_render,
						    .print_tldr = report_print_tldr };
	struct run_request req = { 0 };
	if (argc == 1 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"))) {
		fputs(usage, stdout);
		return 0;
	}
	if (parse_args(argc, argv, &req))
		return 2;
	return run_execute(&req, &report, stop);
}
