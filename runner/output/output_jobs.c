/* output_jobs.c - a finished job list's results as fio writes them: a
 * report per job (or per group with group_reporting, its jobs' stats
 * merged), in every format --output-format names, to stdout or --output. */
#include "output/output.h"
#include "output/internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "job/job.h"
#include "lib/lib.h"

/* The reports fio prints: a job each, or with group_reporting (set on a
 * group's first job) one per group, its jobs' stats merged into merged[]. */
static unsigned build_reports(const struct job_list *l, const struct jobs_result *res,
			      struct job_report *reports, struct job_stats *merged,
			      const struct job_stats **members)
{
	unsigned n = 0;
	for (unsigned i = 0, end; i < l->count; i = end) {
		const struct job_entry *e = &l->jobs[i];
		end = i + 1;
		if (e->o.group_reporting)
			while (end < l->count && l->jobs[end].groupid == e->groupid)
				end++;
		reports[n] = (struct job_report){ .o = &e->o,
						  .s = res->outcomes[i].stats,
						  .groupid = e->groupid,
						  .jobs = end - i,
						  .clone = e->clone,
						  .ss = &res->outcomes[end - 1].ss };
		if (end - i > 1) {
			for (unsigned k = i; k < end; k++)
				members[k - i] = res->outcomes[k].stats;
			jobs_merge_group(&merged[n], members, end - i);
			reports[n].s = &merged[n];
		}
		n++;
	}
	return n;
}

/* Every format --output-format names, over the n reports. */
static int print_reports(FILE *out, const struct job_list *l, const struct job_report *r,
			 unsigned n, const struct jobs_result *res)
{
	const struct run_report run = { .global = l->global,
					.r = r,
					.n = n,
					.disk = &res->disk,
					.start_unix_ms = res->start_unix_ms,
					.idle_prof = l->run->idle_prof,
					.idle = &res->idle };
	return output_formats(out, &run, l->run->output_format);
}

int output_jobs_write(const struct job_list *l, const struct jobs_result *res, char *err,
		      size_t errlen)
{
	const char *path = l->run->output;
	struct job_report *reports = calloc(l->count, sizeof(*reports));
	struct job_stats *merged = calloc(l->count, sizeof(*merged));
	const struct job_stats **members = calloc(l->count, sizeof(*members));
	FILE *out = NULL;
	int ret = -1;
	if (!reports || !merged || !members)
		error_set(err, errlen, "out of memory");
	else if (!(out = path[0] ? fopen(path, "w") : stdout))
		error_set(err, errlen, "cannot create %s: %s", path, strerror(errno));
	else
		ret = print_reports(out, l, reports,
				    build_reports(l, res, reports, merged, members), res);
	if (out && (fflush(out) || ferror(out)))
		ret = -1;
	if (out && out != stdout && fclose(out))
		ret = -1;
	if (out && ret)
		error_set(err, errlen, "writing the results failed");
	free(reports);
	free(merged);
	free(members);
	return ret;
}
