/* jobfile.c - fio's command line and INI job files, read as fio's init.c
 * reads them (parse_cmd_line, __parse_jobs_ini, add_job), into a job list.
 *
 * A line is blank, a comment (its first character other than a blank is
 * '#' or ';'), a [section], `include FILE` or an option: `name`, or
 * `name=value` with blanks allowed around the '='.  Values get fio's
 * ${VAR} expansion.  Every option goes through options_set, so it means
 * what it means on the command line and in a run config's JSON. */
#include "job/jobfile.h"
#include "job/internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* fio's OPT_LEN_MAX is 8192: no option line is longer. */
#define LINE_MAX_CHARS 8192
#define WHERE_MAX (OPTIONS_PATH_MAX + 32)

/* What reading the command line and the job files carries along. */
struct reader {
	struct job_list *list;
	struct job_options *global; /* fio's def_thread: what the next job starts from */
	struct job_options *job;    /* the job being read; NULL in [global] */
	bool in_section;	    /* a file's lines belong to a section */
	bool stonewall_next;	    /* this file's first job waits for the jobs before */
	unsigned group_jobs;	    /* jobs in the current group so far */
	char where[WHERE_MAX];	    /* "FILE:LINE" of the job's start, for its errors */
	char *err;
	size_t errlen;
};

int jobfile_expand_env(const char *in, char *out, size_t outlen)
{
	size_t used = 0;
	while (*in) {
		const char *close = in[0] == '$' && in[1] == '{' ? strchr(in + 2, '}') : NULL;
		const char *piece = in;
		size_t len = 1;
		char var[256];
		if (close && close > in + 2 && (size_t)(close - in - 2) < sizeof(var)) {
			memcpy(var, in + 2, (size_t)(close - in - 2));
			var[close - in - 2] = '\0';
			piece = getenv(var);
			len = piece ? strlen(piece) : 0;
			in = close + 1;
		} else {
			in++;
		}
		if (used + len >= outlen)
			return -1;
		memcpy(out + used, piece ? piece : "", len);
		used += len;
	}
	out[used] = '\0';
	return 0;
}

/* Adds one entry for o to the list, in fio's group: a stonewall after any
 * job of the current group opens the next one. */
static int list_append(struct reader *R, const struct job_options *o, unsigned clone)
{
	struct job_list *l = R->list;
	if (l->count == JOBFILE_MAX_JOBS) {
		snprintf(R->err, R->errlen, "more than %d jobs (numjobs clones included)",
			 JOBFILE_MAX_JOBS);
		return -1;
	}
	struct job_entry *e = &l->jobs[l->count++];
	e->o = *o;
	e->clone = clone;
	e->number = l->count;
	if (clone) { /* fio clears a clone's stonewall: it runs beside its job */
		e->o.stonewall = false;
		e->o.new_group = false;
	}
	/* fio's new_group alone would report apart jobs that run together;
	 * here a reporting group is a run group. */
	if (e->o.new_group && !e->o.stonewall && R->group_jobs) {
		snprintf(R->err, R->errlen,
			 "job '%s': option 'new_group' is supported only with stonewall "
			 "(a reporting group here is the jobs that run together)",
			 e->o.name);
		l->count--;
		return -1;
	}
	if (e->o.stonewall && R->group_jobs) {
		R->group_jobs = 0;
		l->groups++;
	}
	if (l->groups == 0)
		l->groups = 1;
	e->groupid = l->groups - 1;
	R->group_jobs++;
	/* fio seeds each job by its thread number: clones draw their own
	 * offsets, and a run repeats exactly with randrepeat. */
	if (e->number > 1)
		e->o.randseed = e->o.randseed * 0x9e3779b97f4a7c15ull + e->number;
	return 0;
}

/* Checks the job being read and adds it with its numjobs clones. */
static int finish_job(struct reader *R)
{
	struct job_options *o = R->job;
	int ret = 0;
	if (!o)
		return 0;
	unsigned copies = o->numjobs;
	bool named = o->filename[0] != '\0';
	char why[512];
	o->numjobs = 1;
	options_default_filename(o, 0);
	if (options_validate(o, why, sizeof(why))) {
		snprintf(R->err, R->errlen, "job '%s'%s%s: %s", o->name, R->where[0] ? " at " : "",
			 R->where, why);
		ret = -1;
	}
	for (unsigned c = 0; ret == 0 && c < copies; c++) {
		if (!named) { /* fio names each clone's own file: x.0.0, x.1.0 */
			o->filename[0] = '\0';
			options_default_filename(o, c);
		}
		ret = list_append(R, o, c);
	}
	free(o);
	R->job = NULL;
	return ret;
}

/* Starts job name from the defaults so far; its "job options" list only
 * what it sets itself, as fio's. */
static int start_job(struct reader *R, const char *name, const char *where)
{
	if (finish_job(R))
		return -1;
	if (strlen(name) >= sizeof(R->global->name) || !name[0]) {
		snprintf(R->err, R->errlen, "%s%sjob name '%.60s' is empty or too long", where,
			 where[0] ? ": " : "", name);
		return -1;
	}
	R->job = malloc(sizeof(*R->job));
	if (!R->job) {
		snprintf(R->err, R->errlen, "out of memory");
		return -1;
	}
	*R->job = *R->global;
	R->job->given_count = 0;
	snprintf(R->job->name, sizeof(R->job->name), "%s", name);
	snprintf(R->where, sizeof(R->where), "%s", where);
	if (R->stonewall_next) { /* fio separates job files by a stonewall */
		R->job->stonewall = true;
		R->stonewall_next = false;
	}
	return 0;
}

/* The command line's output options and --idle-prof belong to the run,
 * not to a job (fio's own command-line options). */
static bool run_option(const char *name)
{
	return !strcmp(name, "output") || !strcmp(name, "output-format") ||
	       !strcmp(name, "idle-prof");
}

/* Sets one option on the job being read, or on the defaults outside a job;
 * where ("FILE:LINE", or "" for the command line) prefixes an error. */
static int set_option(struct reader *R, const char *name, const char *value, const char *where)
{
	char why[512];
	struct job_options *o = R->job ? R->job : R->global;
	if (run_option(name))
		o = R->list->run;
	if (options_set(o, name, value, why, sizeof(why)) == 0)
		return 0;
	snprintf(R->err, R->errlen, "%s%s%s", where, where[0] ? ": " : "", why);
	return -1;
}

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t len = strlen(s);
	while (len && isspace((unsigned char)s[len - 1]))
		s[--len] = '\0';
	return s;
}

/* An option line of a file: ${VAR} expanded, then `name` or `name=value`. */
static int file_option(struct reader *R, const char *line, const char *where)
{
	char expanded[LINE_MAX_CHARS];
	if (!R->in_section) {
		snprintf(R->err, R->errlen, "%s: option '%.80s' outside of a [section]", where,
			 line);
		return -1;
	}
	if (jobfile_expand_env(line, expanded, sizeof(expanded))) {
		snprintf(R->err, R->errlen, "%s: the line is too long once ${VAR} is expanded",
			 where);
		return -1;
	}
	char *eq = strchr(expanded, '=');
	if (eq)
		*eq = '\0';
	char *name = trim(expanded);
	if (run_option(name)) {
		snprintf(R->err, R->errlen,
			 "%s: option '%s' belongs on the command line, as in fio", where, name);
		return -1;
	}
	return set_option(R, name, eq ? trim(eq + 1) : NULL, where);
}

/* A [section] line: [global...] sets defaults, anything else starts a job. */
static int file_section(struct reader *R, char *line, const char *where)
{
	size_t len = strlen(line);
	if (len < 3 || line[len - 1] != ']') {
		snprintf(R->err, R->errlen, "%s: a section header is [name]", where);
		return -1;
	}
	line[len - 1] = '\0';
	R->in_section = true;
	if (!strncmp(line + 1, "global", 6))
		return finish_job(R);
	return start_job(R, line + 1, where);
}

static int read_file(struct reader *R, const char *path, unsigned depth, const char *from);

/* `include FILE`: its lines join the current section.  A relative name
 * that is not there from the working directory is taken from the
 * including file's directory, as fio does. */
static int file_include(struct reader *R, const char *including, const char *name, unsigned depth,
			const char *where)
{
	char path[OPTIONS_PATH_MAX];
	const char *slash = strrchr(including, '/');
	if (depth + 1 >= JOBFILE_MAX_INCLUDE_DEPTH) {
		snprintf(R->err, R->errlen, "%s: includes nest deeper than %d (a loop?)", where,
			 JOBFILE_MAX_INCLUDE_DEPTH);
		return -1;
	}
	if (!R->in_section) {
		snprintf(R->err, R->errlen, "%s: include outside of a [section]", where);
		return -1;
	}
	if (access(name, F_OK) && slash && name[0] != '/')
		snprintf(path, sizeof(path), "%.*s%s", (int)(slash - including + 1), including,
			 name);
	else
		snprintf(path, sizeof(path), "%s", name);
	return read_file(R, path, depth + 1, where);
}

/* One line of a file at depth (0: a job file, more: an include). */
static int file_line(struct reader *R, const char *path, char *line, unsigned depth,
		     const char *where)
{
	line = trim(line);
	if (!line[0] || line[0] == '#' || line[0] == ';')
		return 0;
	if (line[0] == '[') {
		if (depth == 0)
			return file_section(R, line, where);
		snprintf(R->err, R->errlen, "%s: no new sections in included files (fio neither)",
			 where);
		return -1;
	}
	if (!strncmp(line, "include", 7) && isspace((unsigned char)line[7]))
		return file_include(R, path, trim(line + 8), depth, where);
	return file_option(R, line, where);
}

/* Reads a job file (depth 0) or an include; from is the FILE:LINE that
 * included it ("" for a job file), for the error when it cannot open. */
static int read_file(struct reader *R, const char *path, unsigned depth, const char *from)
{
	FILE *f = fopen(path, "r");
	char line[LINE_MAX_CHARS + 2], where[WHERE_MAX];
	unsigned lineno = 0;
	int ret = 0;
	if (!f) {
		snprintf(R->err, R->errlen, "%s%scannot open %s %s: %s", from, from[0] ? ": " : "",
			 depth ? "include file" : "job file", path, strerror(errno));
		return -1;
	}
	while (ret == 0 && fgets(line, sizeof(line), f)) {
		snprintf(where, sizeof(where), "%s:%u", path, ++lineno);
		if (strlen(line) > LINE_MAX_CHARS) {
			snprintf(R->err, R->errlen, "%s: line longer than %d characters", where,
				 LINE_MAX_CHARS);
			ret = -1;
		} else {
			ret = file_line(R, path, line, depth, where);
		}
	}
	if (ret == 0 && ferror(f)) {
		snprintf(R->err, R->errlen, "reading job file %s failed", path);
		ret = -1;
	}
	fclose(f);
	return ret;
}

/* One --name[=value] word of the command line. */
static int argv_option(struct reader *R, const char *word)
{
	char name[64];
	const char *eq = strchr(word + 2, '=');
	size_t len = eq ? (size_t)(eq - word - 2) : strlen(word + 2);
	if (len >= sizeof(name)) {
		snprintf(R->err, R->errlen, "unknown or unsupported option '%s'", word);
		return -1;
	}
	memcpy(name, word + 2, len);
	name[len] = '\0';
	if (strcmp(name, "name") || !eq)
		return set_option(R, name, eq ? eq + 1 : NULL, "");
	if (!strncmp(eq + 1, "global", 6)) /* fio: --name=global sets defaults */
		return finish_job(R);
	/* fio lists a command-line job's --name among its options (a file
	 * job's section name it does not). */
	return start_job(R, eq + 1, "") || set_option(R, "name", eq + 1, "") ? -1 : 0;
}

/* The command line: options, then the job files' names in order. */
static int read_argv(struct reader *R, int argc, char **argv, const char **files, unsigned *nfiles)
{
	for (int i = 0; i < argc; i++) {
		const char *word = argv[i];
		if (strncmp(word, "--", 2) == 0 && word[2]) {
			if (argv_option(R, word))
				return -1;
		} else if (*nfiles == JOBFILE_MAX_FILES) {
			snprintf(R->err, R->errlen, "more than %d job files", JOBFILE_MAX_FILES);
			return -1;
		} else {
			files[(*nfiles)++] = word;
		}
	}
	return finish_job(R);
}

/* Reads the job files in order; from the second on, the defaults start
 * afresh and the file's first job waits behind a stonewall (fio's
 * fill_def_thread and stonewall_flag). */
static int read_files(struct reader *R, const char **files, unsigned nfiles)
{
	for (unsigned i = 0; i < nfiles; i++) {
		if (i) {
			options_defaults(R->global);
			R->stonewall_next = true;
		}
		R->in_section = false;
		if (read_file(R, files[i], 0, "") || finish_job(R))
			return -1;
	}
	return 0;
}

/* fio's td_steadystate_init: the jobs of one group (run together) must
 * share their steady-state options, detection or none, since a group
 * reporting as one is judged as one. */
static int check_ss_groups(const struct job_list *l, char *err, size_t errlen)
{
	for (unsigned i = 1, first = 0; i < l->count; i++) {
		const struct job_entry *e = &l->jobs[i];
		if (e->groupid != l->jobs[i - 1].groupid) {
			first = i;
			continue;
		}
		const struct ss_options *a = &l->jobs[first].o.ss, *b = &e->o.ss;
		if (a->dur_ns != b->dur_ns ||
		    (a->dur_ns && (a->ramp_ns != b->ramp_ns || a->interval_ns != b->interval_ns ||
				   a->limit != b->limit || a->iops != b->iops ||
				   a->slope != b->slope || a->pct != b->pct))) {
			snprintf(err, errlen,
				 "job '%s': its steady-state options (ss, ss_dur, ss_ramp, "
				 "ss_interval) differ from job '%s' of its group, as fio refuses "
				 "(separate them with stonewall)",
				 e->o.name, l->jobs[first].o.name);
			return -1;
		}
	}
	return 0;
}

int jobfile_parse_argv(struct job_list *l, int argc, char **argv, char *err, size_t errlen)
{
	struct reader R = { .list = l, .err = err, .errlen = errlen };
	int ret = -1;
	memset(l, 0, sizeof(*l));
	l->jobs = calloc(JOBFILE_MAX_JOBS, sizeof(*l->jobs));
	l->run = malloc(sizeof(*l->run));
	R.global = malloc(sizeof(*R.global));
	if (!l->jobs || !l->run || !R.global) {
		snprintf(err, errlen, "out of memory");
	} else {
		const char *files[JOBFILE_MAX_FILES];
		unsigned nfiles = 0;
		options_defaults(l->run);
		options_defaults(R.global);
		ret = read_argv(&R, argc, argv, files, &nfiles);
		if (ret == 0)
			ret = read_files(&R, files, nfiles);
		if (ret == 0 && l->count == 0) {
			snprintf(err, errlen, "missing --name (every job needs a name)");
			ret = -1;
		}
		if (ret == 0)
			ret = check_ss_groups(l, err, errlen);
	}
	free(R.job);
	l->global = R.global;
	return ret;
}

void jobfile_free(struct job_list *l)
{
	free(l->jobs);
	free(l->run);
	free(l->global);
	memset(l, 0, sizeof(*l));
}
