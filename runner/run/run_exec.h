/* run_exec.h - `ebsbench run` from its arguments to its exit status:
 * prepare (config, devices, plan, checks), read first, the steps in plan
 * order, finish (analysis, report, uploads).  The report is a floor above
 * run/: the caller passes its writers in. */
#ifndef EBSBENCH_RUN_EXEC_H
#define EBSBENCH_RUN_EXEC_H

#include <jansson.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

/* What `ebsbench run` was asked: the config's path ("-": stdin), --out
 * (NULL: the config's output_dir), --plan (NULL: the config's phases),
 * --dry-run and --resume (continue the stopped run whose results.json is
 * in the output directory: run_resume.h; resume_auto, --resume=auto: fetch
 * it from S3 when not there, and start afresh when there is none). */
struct run_request {
	const char *config, *out, *plan;
	bool dry_run, resume, resume_auto;
};

/* The report written at the end (report/'s report_render and
 * report_print_tldr); either may be NULL (no report: the unit tests). */
struct run_reporter {
	int (*render)(json_t *const *runs, size_t nruns, const char *dir, char *err, size_t errlen);
	void (*print_tldr)(FILE *out, json_t *const *runs, size_t nruns);
};

/* The whole run, errors on stderr.  Returns the exit status cmd_run's
 * usage states: 0 ok (stopped early by stop included), 1 a phase failed
 * or a file could not be written, 2 config, 3 refused to write, 4 an
 * upload failed. */
int run_execute(const struct run_request *req, const struct run_reporter *report,
		const volatile sig_atomic_t *stop);

#endif
