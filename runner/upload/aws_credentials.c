/* aws_credentials.c - the chain AWS's tools follow to find credentials:
 * the environment, then one profile's keys in the shared credentials file,
 * its credential_process, its keys in the config file (the file formats
 * are aws_credentials_ini.c's). */
#include "upload/aws_credentials.h"
#include "upload/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <mbedtls/platform_util.h>

#include "lib/lib.h"

#define INI_FILE_MAX (1 << 20)
#define PROCESS_OUTPUT_MAX (64 * 1024)
#define PROCESS_NOTE_MAX 200 /* of the command's stderr, in our one line */

extern char **environ;

/* One of the two shared files: its path, and its text (NULL: absent). */
struct shared_file {
	char path[512];
	char *text;
};

/* Where a profile was looked for and what it said. */
struct profile_lookup {
	const char *name;
	const char *named_by; /* "--profile", "AWS_PROFILE" or NULL (the default) */
	struct shared_file cred, conf;
	char conf_section[AWS_PROFILE_MAX + 8];
};

void aws_credentials_clear(struct aws_credentials *c)
{
	mbedtls_platform_zeroize(c, sizeof(*c));
}

static int copy_env(char *out, size_t cap, const char *name, char *err, size_t errlen)
{
	const char *v = getenv(name);
	if (strlen(v ? v : "") >= cap)
		return error_set(err, errlen, "%s is too long (at most %zu bytes)", name, cap - 1);
	snprintf(out, cap, "%s", v ? v : "");
	return 0;
}

/* 0 with c filled, 1 when the environment holds no key pair, -1 when it
 * holds half of one. */
static int from_environment(struct aws_credentials *c, char *err, size_t errlen)
{
	const char *id = getenv("AWS_ACCESS_KEY_ID"), *secret = getenv("AWS_SECRET_ACCESS_KEY");
	bool have_id = id && *id, have_secret = secret && *secret;
	if (!have_id && !have_secret)
		return 1;
	if (have_id != have_secret)
		return error_set(err, errlen, "%s is set but %s is not",
				 have_id ? "AWS_ACCESS_KEY_ID" : "AWS_SECRET_ACCESS_KEY",
				 have_id ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID");
	if (copy_env(c->access_key_id, sizeof(c->access_key_id), "AWS_ACCESS_KEY_ID", err,
		     errlen) ||
	    copy_env(c->secret_key, sizeof(c->secret_key), "AWS_SECRET_ACCESS_KEY", err, errlen) ||
	    copy_env(c->session_token, sizeof(c->session_token), "AWS_SESSION_TOKEN", err, errlen))
		return -1;
	snprintf(c->source, sizeof(c->source), "the environment");
	return 0;
}

/* The file named by env_name, else ~/.aws/file_name; a leading ~/ is the
 * home directory, as botocore expands it. */
static void shared_path(char *out, size_t cap, const char *env_name, const char *file_name)
{
	const char *set = getenv(env_name), *home = getenv("HOME");
	if (!home || !*home)
		home = "~";
	if (set && *set && strncmp(set, "~/", 2))
		snprintf(out, cap, "%s", set);
	else if (set && *set)
		snprintf(out, cap, "%s/%s", home, set + 2);
	else
		snprintf(out, cap, "%s/.aws/%s", home, file_name);
}

/* f->text from f->path: 0 (text NULL when there is no such file), or -1
 * when it exists and cannot be read. */
static int read_shared(struct shared_file *f, char *err, size_t errlen)
{
	FILE *in = fopen(f->path, "r");
	f->text = NULL;
	if (!in && (errno == ENOENT || errno == ENOTDIR))
		return 0;
	if (!in)
		return error_set(err, errlen, "cannot read %s: %s", f->path, strerror(errno));
	char *text = calloc(1, INI_FILE_MAX + 1);
	size_t n = text ? fread(text, 1, INI_FILE_MAX + 1, in) : 0;
	bool bad = !text || ferror(in) || n > INI_FILE_MAX;
	fclose(in);
	if (bad) {
		free(text);
		return error_set(err, errlen, "cannot read %s (or it is over 1 MiB)", f->path);
	}
	text[n] = '\0';
	f->text = text;
	return 0;
}

static void free_shared(struct shared_file *f)
{
	if (f->text)
		mbedtls_platform_zeroize(f->text, strlen(f->text));
	free(f->text);
	f->text = NULL;
}

/* key of section in f: as aws_ini_value, 2 also when there is no file. */
static int ini(const struct shared_file *f, const char *section, const char *key, char *out,
	       size_t cap)
{
	return f->text ? aws_ini_value(f->text, section, key, out, cap) : 2;
}

/* The static keys of section in f: 0 with c filled, 1 when there are
 * none, -1 when only half of the pair is there. */
static int from_keys(struct aws_credentials *c, const struct shared_file *f, const char *section,
		     const struct profile_lookup *p, char *err, size_t errlen)
{
	int id = ini(f, section, "aws_access_key_id", c->access_key_id, sizeof(c->access_key_id));
	int secret = ini(f, section, "aws_secret_access_key", c->secret_key, sizeof(c->secret_key));
	if (id == -1 || secret == -1)
		return error_set(err, errlen, "profile '%s' in %s: a key is too long", p->name,
				 f->path);
	if (id && secret)
		return 1;
	if (id || secret || !c->access_key_id[0] || !c->secret_key[0])
		return error_set(err, errlen, "profile '%s' in %s has %s but no %s", p->name,
				 f->path, id ? "aws_secret_access_key" : "aws_access_key_id",
				 id ? "aws_access_key_id" : "aws_secret_access_key");
	if (ini(f, section, "aws_session_token", c->session_token, sizeof(c->session_token)) == -1)
		return error_set(err, errlen, "profile '%s' in %s: its session token is too long",
				 p->name, f->path);
	snprintf(c->source, sizeof(c->source), "profile '%s' in %s", p->name, f->path);
	return 0;
}

/* The first line that is not blank of what the command wrote to fd (a
 * memfd), for the error: aws starts its messages with an empty line. */
static void first_line(int fd, char *out, size_t cap)
{
	char text[4096];
	ssize_t n = pread(fd, text, sizeof(text) - 1, 0);
	text[n > 0 ? n : 0] = '\0';
	const char *b = text + strspn(text, " \t\r\n");
	snprintf(out, cap, "%.*s", (int)strcspn(b, "\r\n"), b);
}

/* Runs command under /bin/sh, its stdout into out (NUL-terminated), its
 * stderr's first line into note.  Returns the wait status, or -1 with a
 * reason in err. */
static int run_process(const char *command, char *out, size_t cap, char *note, size_t notecap,
		       char *err, size_t errlen)
{
	int pipefd[2], note_fd = memfd_create("ebsbench-credential-process", MFD_CLOEXEC);
	posix_spawn_file_actions_t fa;
	char *argv[] = { "/bin/sh", "-c", (char *)command, NULL };
	pid_t pid;
	size_t len = 0;
	int status = -1, rc;

	if (note_fd < 0 || pipe2(pipefd, O_CLOEXEC)) {
		if (note_fd >= 0)
			close(note_fd);
		return error_set(err, errlen, "cannot run it: %s", strerror(errno));
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
	posix_spawn_file_actions_adddup2(&fa, note_fd, 2);
	rc = posix_spawn(&pid, "/bin/sh", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	for (ssize_t n = 1; rc == 0 && n > 0;) {
		char sink[4096];
		bool room = len + 1 < cap;
		n = read(pipefd[0], room ? out + len : sink, room ? cap - 1 - len : sizeof(sink));
		if (n < 0 && errno == EINTR)
			n = 1;
		else if (n > 0 && room)
			len += (size_t)n;
	}
	out[len] = '\0';
	close(pipefd[0]);
	while (rc == 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	first_line(note_fd, note, notecap);
	close(note_fd);
	if (rc)
		return error_set(err, errlen, "cannot run /bin/sh: %s", strerror(rc));
	if (len + 1 >= cap)
		return error_set(err, errlen, "it printed over %zu bytes", cap - 1);
	return status;
}

static int from_process(struct aws_credentials *c, const char *command, const char *file,
			const struct profile_lookup *p, time_t now, char *err, size_t errlen)
{
	char *out = malloc(PROCESS_OUTPUT_MAX), why[256], note[PROCESS_NOTE_MAX + 1];
	int status = out ? run_process(command, out, PROCESS_OUTPUT_MAX, note, sizeof(note), why,
				       sizeof(why))
			 : error_set(why, sizeof(why), "out of memory");
	int rc = -1;

	if (status == -1)
		error_set(err, errlen, "credential_process of profile '%s' (in %s): %s", p->name,
			  file, why);
	else if (!WIFEXITED(status) || WEXITSTATUS(status))
		error_set(err, errlen,
			  "credential_process of profile '%s' (in %s) failed (%s %d)%s%s", p->name,
			  file, WIFEXITED(status) ? "exit status" : "signal",
			  WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
			  note[0] ? ": " : "", note);
	else if (aws_process_output(c, out, now, why, sizeof(why)))
		error_set(err, errlen, "credential_process of profile '%s' (in %s): %s", p->name,
			  file, why);
	else
		rc = 0;
	if (out) {
		mbedtls_platform_zeroize(out, PROCESS_OUTPUT_MAX);
		free(out);
	}
	if (!rc)
		snprintf(c->source, sizeof(c->source), "credential_process of profile '%s' in %s",
			 p->name, file);
	return rc;
}

static const char *state(const struct shared_file *f)
{
	return f->text ? "" : " (no such file)";
}

/* Nothing in either file: one line naming the profile and both files. */
static int not_found(const struct profile_lookup *p, bool profile_seen, char *err, size_t errlen)
{
	char by[64] = "";
	if (p->named_by)
		snprintf(by, sizeof(by), " (from %s)", p->named_by);
	if (profile_seen)
		return error_set(err, errlen,
				 "profile '%s'%s has no aws_access_key_id and "
				 "aws_secret_access_key, nor a credential_process, in %s or %s",
				 p->name, by, p->cred.path, p->conf.path);
	return error_set(err, errlen,
			 "no AWS credentials: %sprofile '%s'%s is in neither %s%s nor %s%s",
			 strcmp(p->named_by ? p->named_by : "", "--profile")
				 ? "AWS_ACCESS_KEY_ID is not set and "
				 : "",
			 p->name, by, p->cred.path, state(&p->cred), p->conf.path, state(&p->conf));
}

/* The profile's keys or process, in the order of the header comment. */
static int from_profile(struct aws_credentials *c, struct profile_lookup *p, time_t now, char *err,
			size_t errlen)
{
	char command[4096];
	const char *sec = p->conf_section;
	int rc = from_keys(c, &p->cred, p->name, p, err, errlen);
	if (rc <= 0)
		return rc;
	int in_cred = ini(&p->cred, p->name, "credential_process", command, sizeof(command));
	if (in_cred == 0 && command[0])
		return from_process(c, command, p->cred.path, p, now, err, errlen);
	if (!strcmp(p->name, "default") && ini(&p->conf, sec, "region", command, 1) == 2)
		sec = "profile default"; /* botocore takes either for the default */
	int in_conf = ini(&p->conf, sec, "credential_process", command, sizeof(command));
	if (in_conf == 0 && command[0])
		return from_process(c, command, p->conf.path, p, now, err, errlen);
	if (in_cred == -1 || in_conf == -1)
		return error_set(err, errlen, "profile '%s': its credential_process is too long",
				 p->name);
	rc = from_keys(c, &p->conf, sec, p, err, errlen);
	if (rc <= 0)
		return rc;
	return not_found(p, in_cred != 2 || in_conf != 2, err, errlen);
}

/* The profile p names: profile (--profile), else AWS_PROFILE, else
 * "default"; its config file section and both files' paths.  0, or -1
 * when the name cannot be a profile's. */
static int name_profile(struct profile_lookup *p, const char *profile, char *err, size_t errlen)
{
	*p = (struct profile_lookup){ .name = profile, .named_by = profile ? "--profile" : NULL };
	if (!profile) {
		p->name = getenv("AWS_PROFILE");
		p->named_by = p->name && *p->name ? "AWS_PROFILE" : NULL;
		if (!p->named_by)
			p->name = "default";
	}
	if (!*p->name || strlen(p->name) >= AWS_PROFILE_MAX || strchr(p->name, ']'))
		return error_set(err, errlen, "'%s' is not a profile name", p->name);
	snprintf(p->conf_section, sizeof(p->conf_section), "%s%s",
		 strcmp(p->name, "default") ? "profile " : "", p->name);
	shared_path(p->cred.path, sizeof(p->cred.path), "AWS_SHARED_CREDENTIALS_FILE",
		    "credentials");
	shared_path(p->conf.path, sizeof(p->conf.path), "AWS_CONFIG_FILE", "config");
	return 0;
}

/* AWS_CREDENTIAL_EXPIRATION beside keys from the environment, as botocore
 * reads it (`aws configure export-credentials --format env` prints it). */
static int environment_expiry(struct aws_credentials *c, char *err, size_t errlen)
{
	const char *text = getenv("AWS_CREDENTIAL_EXPIRATION");
	if (!text || !*text)
		return 0;
	if (aws_parse_iso_time(text, &c->expires))
		return error_set(err, errlen,
				 "AWS_CREDENTIAL_EXPIRATION '%s' is not an ISO 8601 time", text);
	return 0;
}

int aws_credentials_load(struct aws_credentials *c, const char *profile, time_t now, char *err,
			 size_t errlen)
{
	struct profile_lookup p;
	int rc;

	memset(c, 0, sizeof(*c));
	if (!profile) {
		rc = from_environment(c, err, errlen);
		if (rc == 0 && environment_expiry(c, err, errlen))
			rc = -1;
		if (rc <= 0) {
			if (rc)
				aws_credentials_clear(c);
			return rc;
		}
	}
	if (name_profile(&p, profile, err, errlen))
		return -1;
	rc = read_shared(&p.cred, err, errlen) || read_shared(&p.conf, err, errlen)
		     ? -1
		     : from_profile(c, &p, now, err, errlen);
	free_shared(&p.cred);
	free_shared(&p.conf);
	if (rc)
		aws_credentials_clear(c);
	return rc;
}

int aws_config_region(const char *profile, char *out, size_t cap)
{
	struct profile_lookup p;
	char err[256];
	int rc = 1;
	if (name_profile(&p, profile, err, sizeof(err)) || read_shared(&p.conf, err, sizeof(err)))
		return 1;
	const char *sec = p.conf_section;
	if (!strcmp(p.name, "default") && ini(&p.conf, sec, "region", out, cap) == 2)
		sec = "profile default"; /* botocore takes either for the default */
	if (ini(&p.conf, sec, "region", out, cap) == 0 && out[0])
		rc = 0;
	free_shared(&p.conf);
	return rc;
}
