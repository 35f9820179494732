/* cmd_fio.c - `ebsbench fio`: job files and options -> job list -> jobs
 * -> output (output/output_jobs.c), the way fio runs them, and the exit
 * status. */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

#include "engine/engine.h"
#include "lib/lib.h"
#include "job/job.h"
#include "output/output.h"
#include "stats/stats.h"

/* The usage, in two parts around the engine names the registry gives. */
static const char usage_head[] =
	"usage: ebsbench fio [JOBFILE...] [--name=NAME [--filename=DEV|FILE] [options]]...\n"
	"Runs jobs the way fio would, from fio job files and fio's option names:\n"
	"  --size --offset --rw=read|write|trim|randread|randwrite|randtrim|rw|randrw|\n"
	"  trimwrite|randtrimwrite --rwmixread --bs --fsync=N|--fdatasync=N\n"
	"  --iodepth --iodepth_batch_submit=N|--iodepth_batch=N (4; 0: iodepth)\n"
	"  --runtime --time_based --ramp_time --ioengine=";
static const char usage_tail[] =
	"\n"
	"  --direct --norandommap --randrepeat --randseed --group_reporting\n"
	"  --allow_destroy=1 (not fio's: a job writing a block device first reads all it\n"
	"  may overwrite and runs only on zeros or ebsbench's own data; this skips that)\n"
	"  --numjobs=N --stonewall|--wait_for_previous (options before the first --name\n"
	"  apply to every job; a job file's [global] to the jobs after it)\n"
	"  --output-format=normal|json|json+|terse[,...] --output=FILE --percentile_list=A:B:...\n"
	"  --slat_percentiles --clat_percentiles --lat_percentiles\n"
	"  --unified_rw_reporting=none|mixed|both --cmdprio_percentage --cmdprio_class\n"
	"  --cmdprio --bssplit=BS/PCT:... --cmdprio_bssplit=BS/PCT[/CLASS/LEVEL]:...\n"
	"  --idle-prof=system|percpu --max-jobs --thread --verify=0\n"
	"  --write_iops_log=P --write_bw_log=P --write_lat_log=P --log_avg_msec=MS\n"
	"  --write_hist_log=P --log_hist_msec=MS --log_hist_coarseness=0-6\n"
	"  --io_size|--io_limit=BYTES --number_ios=N (end a job that is not time_based)\n"
	"  --ss=iops|iops_slope|bw|bw_slope:LIMIT[%] --ss_dur --ss_ramp --ss_interval\n"
	"  (end a job once steady, fio's steadystate)\n"
	"Results go to stdout (or --output); progress and errors to stderr.\n"
	"Exit: 0 ok, 1 a job failed, 2 usage, 3 refused to write a block device holding\n"
	"data (nothing written), 5 a signal cut it short.\n";

/* The exit status: 1 when a job failed, 5 when a signal cut the run short
 * (the results are partial), else 0; each failure said on stderr. */
static int run_status(const struct job_list *l, const struct jobs_result *res,
		      const volatile sig_atomic_t *stop)
{
	int code = 0;
	uint64_t longest = 0;
	for (unsigned i = 0; i < l->count; i++) {
		const struct job_outcome *out = &res->outcomes[i];
		if (out->err[0])
			fprintf(stderr, "ebsbench fio: %s%s%s\n",
				l->count > 1 ? l->jobs[i].o.name : "", l->count > 1 ? ": " : "",
				out->err);
		if (out->failed)
			code = 1;
		if (out->stats->runtime_ns > longest)
			longest = out->stats->runtime_ns;
	}
	if (code == 0 && stop && *stop) {
		fprintf(stderr,
			"ebsbench fio: stopped by a signal after %.1f s: the results are partial\n",
			(double)longest / 1e9);
		code = EXIT_STOPPED;
	}
	return code;
}

/* Runs the list; partial results of a failed or stopped run are still
 * results, printed when any job measured anything. */
static int run_jobs(const struct job_list *l, const volatile sig_atomic_t *stop)
{
	struct jobs_result res;
	char err[1024];
	int code = 1;
	if (jobs_read_first(l, stop, err, sizeof(err))) {
		fprintf(stderr, "ebsbench fio: %s\n", err);
		return stop && *stop ? 5 : 3;
	}
	if (jobs_run(&res, l, stop, err, sizeof(err))) {
		fprintf(stderr, "ebsbench fio: %s\n", err);
	} else {
		bool measured = false;
		for (unsigned i = 0; i < res.count; i++)
			measured |= res.outcomes[i].stats->runtime_ns > 0;
		code = run_status(l, &res, stop);
		if (measured && output_jobs_write(l, &res, err, sizeof(err))) {
			fprintf(stderr, "ebsbench fio: %s\n", err);
			code = 1;
		}
	}
	jobs_result_free(&res);
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
	struct job_list l;
	char err[1024];
	int code = 2;
	if (jobfile_parse_argv(&l, argc, argv, err, sizeof(err)))
		fprintf(stderr, "ebsbench fio: %s\n", err);
	else
		code = run_jobs(&l, stop);
	jobfile_free(&l);
	return code;
}
