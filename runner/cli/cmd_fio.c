/* cmd_fio.c - options -> target -> job -> output, for one fio-style job. */
#include "cli/cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "job/job.h"
#include "output/output.h"
#include "stats/stats.h"

/* The usage, in two parts around the engine names the registry gives. */
static const char usage_head[] =
	"usage: ebsbench fio --name=NAME [--filename=DEV|FILE] [options]\n"
	"Runs one job the way fio would, with fio's option names:\n"
	"  --size --offset --rw=read|write|randread|randwrite|randrw|rw --rwmixread --bs\n"
	"  --iodepth --runtime --time_based --ramp_time --ioengine=";
static const char usage_tail[] =
	"\n"
	"  --direct --norandommap --randrepeat --randseed --group_reporting\n"
	"  --output-format=normal|json|json+|terse[,...] --output=FILE --percentile_list=A:B:...\n"
	"  --slat_percentiles --clat_percentiles --lat_percentiles\n"
	"  --unified_rw_reporting=none|mixed|both --cmdprio_percentage --cmdprio_class\n"
	"  --cmdprio --bssplit=BS/PCT:... --cmdprio_bssplit=BS/PCT[/CLASS/LEVEL]:...\n"
	"  --idle-prof=system|percpu --max-jobs --thread --verify=0\n"
	"  --write_iops_log=P --write_bw_log=P --write_lat_log=P --log_avg_msec=MS\n"
	"  --write_hist_log=P --log_hist_msec=MS --log_hist_coarseness=0-6\n"
	"Results go to stdout (or --output); progress and errors to stderr.\n";

static int write_output(const struct job_options *o, const struct job_stats *s)
{
	FILE *out = o->output[0] ? fopen(o->output, "w") : stdout;
	if (!out) {
		fprintf(stderr, "ebsbench fio: cannot create %s: %s\n", o->output, strerror(errno));
		return -1;
	}
	int ret = output_formats(out, o, s);
	if (fflush(out) || ferror(out))
		ret = -1;
	if (out != stdout && fclose(out))
		ret = -1;
	if (ret)
		fprintf(stderr, "ebsbench fio: writing the results failed\n");
	return ret;
}

static int run_job(const struct job_options *o, const volatile sig_atomic_t *stop)
{
	char err[512] = "";
	struct target t;
	struct iolog logs;
	struct iolog_paths paths;
	struct job_stats *s = malloc(sizeof(*s));
	int code = 1;
	if (!s) {
		fprintf(stderr, "ebsbench fio: out of memory\n");
		return 1;
	}
	stats_job_init(s);
	if (target_open(&t, o, err, sizeof(err)) == 0) {
		struct job_context ctx = { .stop = stop };
		iolog_paths_fio(&paths, o);
		if (iolog_open(&logs, o, &paths, err, sizeof(err)) == 0 &&
		    job_run(o, &t, &logs, s, &ctx, err, sizeof(err)) == 0)
			code = s->error ? 1 : 0;
		char log_err[256];
		if (iolog_close(&logs, log_err, sizeof(log_err)) && code == 0) {
			snprintf(err, sizeof(err), "%s", log_err);
			code = 1;
		}
		target_close(&t);
		/* Partial results of a failed or stopped job are still results. */
		if (s->runtime_ns && write_output(o, s))
			code = 1;
		if (code == 0 && stop && *stop) {
			snprintf(err, sizeof(err),
				 "stopped by a signal after %.1f s: the results "
				 "are partial",
				 (double)s->runtime_ns / 1e9);
			code = 5;
		}
	}
	if (err[0])
		fprintf(stderr, "ebsbench fio: %s\n", err);
	free(s);
	return code;
}

int cmd_fio(int argc, char **argv, const volatile sig_atomic_t *stop)
{
	if (argc == 1 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"))) {
		char engines[128];
		fputs(usage_head, stdout);
		fputs(engine_names(engines, sizeof(engines), "|", "|"), stdout);
		fputs(usage_tail, stdout);
		return 0;
	}
	struct job_options *o = malloc(sizeof(*o));
	char err[512];
	if (!o) {
		fprintf(stderr, "ebsbench fio: out of memory\n");
		return 1;
	}
	options_defaults(o);
	int code = 2;
	int parsed = options_parse_argv(o, argc, argv, err, sizeof(err));
	if (parsed == 0)
		options_default_filename(o, 0);
	if (parsed || options_validate(o, err, sizeof(err)))
		fprintf(stderr, "ebsbench fio: %s\n", err);
	else
		code = run_job(o, stop);
	free(o);
	return code;
}
