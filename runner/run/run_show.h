/* run_show.h - what a run says before its first I/O: the plan's notes,
 * and --dry-run's plan (inner header of run/). */
#ifndef EBSBENCH_RUN_SHOW_H
#define EBSBENCH_RUN_SHOW_H

#include <stdio.h>

#include "run/run_state.h"

/* The plan's notes (what it left out), each line on stderr as ebsbench
 * run's. */
void run_show_notes(const struct run_state *st);
/* --dry-run: the devices, the planned time, whether it writes, what it
 * reads first (also a line each on stderr) and every step with its
 * options, as JSON on out. */
void run_show_plan(FILE *out, const struct run_state *st);

#endif
