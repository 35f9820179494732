/* options_check.c - whether a job's options, each valid alone, make a job
 * together: one line naming the option and what it conflicts with. */
#include "job/options.h"
#include "job/internal.h"
#include "lib/lib.h"

#include <stdio.h>

/* A rated job must rate every direction it does (an unrated direction of a
 * mixed job would have no schedule to share), and a process needs a rate. */
static int validate_rate(const struct job_options *o, char *err, size_t errlen)
{
	bool reads = options_rw_reads(o->rw), writes = options_rw_writes(o->rw);
	bool read_rated = o->rate_iops[DDIR_READ] != 0, write_rated = o->rate_iops[DDIR_WRITE] != 0;
	if (!options_rated(o)) {
		if (o->rate_process == RATE_LINEAR)
			return 0;
		snprintf(err, errlen, "option 'rate_process' needs --rate_iops");
	} else if (options_rw_trims(o->rw)) {
		snprintf(err, errlen, "option 'rate_iops': rw=%s is not rated here (no trim rate)",
			 options_rw_name(o->rw));
	} else if (o->fsync_blocks || o->fdatasync_blocks) {
		snprintf(err, errlen,
			 "option 'rate_iops': a rated job cannot also --fsync or "
			 "--fdatasync");
	} else if ((reads && !read_rated) || (writes && !write_rated)) {
		snprintf(err, errlen,
			 "option 'rate_iops': rw=%s does %s, but no rate is given for its %s "
			 "(R rates both directions, R,W each)",
			 options_rw_name(o->rw),
			 reads && writes ? "reads and writes"
			 : reads	 ? "only reads"
					 : "only writes",
			 reads && !read_rated ? "reads" : "writes");
	} else {
		return 0;
	}
	return -1;
}

/* --fsync and --fdatasync: one of them, and only where the job writes
 * (fio would silently never sync). */
static int validate_sync(const struct job_options *o, char *err, size_t errlen)
{
	const char *name = o->fsync_blocks ? "fsync" : "fdatasync";
	if (o->fsync_blocks && o->fdatasync_blocks)
		snprintf(err, errlen,
			 "options 'fsync' and 'fdatasync': give one of them, not both");
	else if ((o->fsync_blocks || o->fdatasync_blocks) && !options_rw_writes(o->rw))
		snprintf(err, errlen, "option '%s': rw=%s does not write, so nothing would sync",
			 name, options_rw_name(o->rw));
	else
		return 0;
	return -1;
}

/* The steady-state window by fio 3.35's rules (ss_interval at least 1 s,
 * ss_dur a multiple of it and longer), and one this job can hold. */
static int validate_ss(const struct job_options *o, char *err, size_t errlen)
{
	const struct ss_options *ss = &o->ss;
	if (!ss->dur_ns)
		return 0;
	/* SNIA's criteria are ebsbench's: a time-scaled plan's rounds may be
	 * shorter than fio's second. */
	if (ss->interval_ns < (ss->snia ? 1000000ull : 1000000000ull))
		snprintf(err, errlen, "option 'ss_interval': must be at least %s",
			 ss->snia ? "1 ms" : "1 s, as fio's");
	else if (ss->p99 && o->group_reporting)
		snprintf(err, errlen,
			 "option 'ss=snia_p99' judges one job's latencies: not with "
			 "group_reporting");
	else if (ss->dur_ns % ss->interval_ns || ss->dur_ns <= ss->interval_ns)
		snprintf(err, errlen,
			 "option 'ss_dur': must be a multiple of ss_interval (%.3f s) and longer",
			 (double)ss->interval_ns / 1e9);
	else if (ss->dur_ns / ss->interval_ns > OPTIONS_MAX_SS_SAMPLES)
		snprintf(err, errlen, "option 'ss_dur': more than %u samples of ss_interval",
			 (unsigned)OPTIONS_MAX_SS_SAMPLES);
	else
		return 0;
	return -1;
}

int options_validate(const struct job_options *o, char *err, size_t errlen)
{
	if (!o->name[0])
		snprintf(err, errlen, "missing --name (every job needs a name)");
	else if (!o->filename[0])
		snprintf(err, errlen, "missing --filename (a block device or file to test)");
	else if (o->iodepth == 0)
		snprintf(err, errlen, "option 'iodepth': must be at least 1");
	else if (o->numjobs != 1)
		snprintf(err, errlen,
			 o->numjobs ? "option 'numjobs': several jobs run only in `ebsbench fio`"
				    : "option 'numjobs': must be at least 1");
	else if (options_cmdprio(o) && !o->ioengine->ioprio)
		snprintf(err, errlen,
			 "option '%s': ioengine %s has no I/O priorities (io_uring and libaio do)",
			 o->cmdprio_bssplit_count ? "cmdprio_bssplit" : "cmdprio_percentage",
			 o->ioengine->name);
	else if (options_ioprios(o, NULL, 0) > OPTIONS_MAX_IOPRIOS)
		snprintf(err, errlen, "option 'cmdprio_bssplit': more than %u distinct priorities",
			 (unsigned)OPTIONS_MAX_IOPRIOS);
	else if (o->bssplit_count && !options_rw_is_random(o->rw))
		snprintf(err, errlen,
			 "option 'bssplit': only random patterns (randread, randwrite, randrw, "
			 "randtrim, randtrimwrite) are supported, not rw=%s",
			 options_rw_name(o->rw));
	else if (o->time_based && o->runtime_ns == 0)
		snprintf(err, errlen, "option 'time_based' needs --runtime");
	else if ((o->iops_log[0] || o->bw_log[0]) && o->log_avg_msec == 0)
		snprintf(err, errlen,
			 "write_iops_log and write_bw_log need --log_avg_msec "
			 "(per-I/O IOPS rows carry no information)");
	else if (o->hist_log[0] && o->log_hist_msec == 0)
		snprintf(err, errlen,
			 "option 'write_hist_log' needs --log_hist_msec "
			 "(fio would write an empty file)");
	else if (validate_sync(o, err, errlen) == 0 && validate_ss(o, err, errlen) == 0)
		return validate_rate(o, err, errlen);
	return -1;
}

bool options_rated(const struct job_options *o)
{
	return o->rate_iops[DDIR_READ] || o->rate_iops[DDIR_WRITE];
}
