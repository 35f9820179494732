/* options_fio.h - the setters options.c's table uses for the options in
 * options_fio.c.  Only job/options*.c include this; everyone else sees
 * options.h. */
#ifndef EBSBENCH_OPTIONS_FIO_H
#define EBSBENCH_OPTIONS_FIO_H

#include "job/options.h"

/* Each sets its option from value as fio reads it; 0, or -1 for a value
 * that is not one (options_set names the option and what it expects). */
int options_set_output_format(struct job_options *o, const char *v);
int options_set_unified_rw(struct job_options *o, const char *v);
int options_set_verify(struct job_options *o, const char *v);
int options_set_idle_prof(struct job_options *o, const char *v);
int options_set_max_jobs(struct job_options *o, const char *v);
int options_set_bssplit(struct job_options *o, const char *v);
int options_set_cmdprio_bssplit(struct job_options *o, const char *v);
int options_set_cmdprio_class(struct job_options *o, const char *v);
int options_set_profile_threads(struct job_options *o, const char *v);
int options_set_steadystate(struct job_options *o, const char *v);

/* fio's steady-state defaults: iops_slope:0.01%, checked each second (no
 * window: ss_dur 0 leaves detection off). */
void options_ss_defaults(struct ss_options *ss);

#endif
