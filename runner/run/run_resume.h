/* run_resume.h - `ebsbench run --resume`: what a run stopped before its
 * end (SIGTERM, eviction, a lost node, SIGKILL) left in its results.json,
 * checked against the run about to continue it, and merged into that
 * run's results (inner header of run/; run_exec.c drives it).
 *
 * A stopped run's results.json holds every step that finished whole (each
 * phase record names its plan step, "step"), and while a step runs a
 * "running" entry naming it: the step a SIGKILL cut.  A step cut mid-way,
 * whether its record is there ("cut": true, a SIGTERM) or not (SIGKILL),
 * runs again whole and only the new record is kept: nothing is counted
 * twice.  A together group runs again whole unless every one of its
 * steps finished: a step that ended before the stop measured its device
 * beside the others, and a rerun of the rest alone would sum series taken
 * at different times.  The gap, from the last moment the stopped run is
 * known to have been alive to the resume, goes in "resumes"; each
 * device's next phase counts it in its idle_before_s, over which the
 * credit ledger refills. */
#ifndef EBSBENCH_RUN_RESUME_H
#define EBSBENCH_RUN_RESUME_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run/config.h"
#include "run/plan.h"

struct run_resume {
	bool *done; /* by plan step: finished whole before the stop; owned */
	size_t steps, done_count;
	long cut; /* the step running at the stop (a group's first), run again whole; -1: none */
	int64_t cut_started_ms; /* when it began; 0: unknown */
	int64_t stopped_ms;	/* the last moment the stopped run is known alive */
	int64_t resumed_ms;
	/* Each device's last I/O before the stop, by device index; 0: none. */
	int64_t device_end_ms[CONFIG_MAX_DEVICES];
};

/* Reads prev, the stopped run's results.json, against fresh (this run's
 * results before its first phase: its "plan" and "devices") and plan.
 * They must be the same run: every key of "plan" equal, the same devices
 * in the same order (label, kind, volume id, serial, model and size; the
 * path may differ), and every phase record a step of this plan (its
 * phase, device and log).  out_dir (NULL: not looked at) holds the cut
 * step's IOPS log, whose last write dates the stop.  Returns 0 with r
 * filled (run_resume_free frees it), or -1 with one line naming what
 * differs or what is missing. */
int run_resume_read(const json_t *prev, const json_t *fresh, const struct plan *plan,
		    const char *out_dir, int64_t now_ms, struct run_resume *r, char *err,
		    size_t errlen);
/* fresh becomes the continued run's results: prev's start time, its
 * uploads and resumes, the phases of the steps done in the order they
 * ran, and a "resumes" entry for this gap. */
void run_resume_merge(json_t *fresh, const json_t *prev, const struct run_resume *r,
		      const struct plan *plan);
/* One line for stderr: how many steps are done, the cut one, the gap. */
void run_resume_describe(const struct run_resume *r, const struct plan *plan, const json_t *fresh,
			 char *buf, size_t len);
void run_resume_free(struct run_resume *r);
/* Whether prev records a run that ended whole (not stopped early). */
bool run_resume_finished(const json_t *prev);

/* What `run --resume=auto` found (run_resume_fetch.c). */
enum run_resume_found {
	RUN_RESUME_LOCAL,    /* DIR/results.json is there (fetched or not) */
	RUN_RESUME_NONE,     /* nothing to continue: the run starts from its start */
	RUN_RESUME_FINISHED, /* the run ended whole: nothing to do */
};
/* --resume=auto: when out_dir holds no results.json, the stopped run's
 * copy in S3 through u's resume_get (its pod's output directory is gone)
 * is written there, unless it records a run that finished.  line says
 * where it came from or why there is nothing to resume.  Returns the
 * finding, or -1 with one line in err (no URL) when S3 did not answer or
 * refused: a fresh run then would overwrite what S3 holds. */
int run_resume_fetch(const struct upload_config *u, const char *out_dir, char *line, size_t linelen,
		     char *err, size_t errlen);

#endif
