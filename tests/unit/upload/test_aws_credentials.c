/* test_aws_credentials.c - the shared files as botocore reads them
 * (comments, blanks, sections, nested blocks, missing keys), a
 * credential_process's JSON and its Expiration, and the order the chain
 * takes them in, over files written to a scratch directory. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "upload/aws_credentials.h"
#include "upload/internal.h"

#define T20261202 ((time_t)1796169600) /* 2026-12-02T00:00:00Z */

static const char credentials_text[] = "# a comment\n"
				       "; another\n"
				       "[default]\n"
				       "aws_access_key_id = AKIADEFAULT\n"
				       "aws_secret_access_key=secret/default\n"
				       "\n"
				       "[ dev ]  \n"
				       "\tAWS_Access_Key_Id :  AKIADEV  \r\n"
				       "aws_secret_access_key = a=b:c # not a comment\n"
				       "s3 =\n"
				       "    aws_session_token = nested, not the profile's\n"
				       "aws_session_token=\n"
				       "[half]\n"
				       "aws_access_key_id = AKIAHALF\n"
				       "[empty]\n"
				       "no delimiter here\n";

static const char config_text[] = "[default]\n"
				  "region = us-east-1\n"
				  "[profile   ops]\n"
				  "credential_process = printf x\n"
				  "[ops]\n" /* not profile ops: config wants the prefix */
				  "region = eu-west-1\n";

static void test_ini(struct checks *checks)
{
	char v[64];
	CHECK(aws_ini_value(credentials_text, "default", "aws_access_key_id", v, sizeof(v)) == 0 &&
	      !strcmp(v, "AKIADEFAULT"));
	CHECK(aws_ini_value(credentials_text, "default", "aws_secret_access_key", v, sizeof(v)) ==
		      0 &&
	      !strcmp(v, "secret/default"));
	/* Blanks round the header, the key's case, ':' and CRLF. */
	CHECK(aws_ini_value(credentials_text, "dev", "aws_access_key_id", v, sizeof(v)) == 0 &&
	      !strcmp(v, "AKIADEV"));
	/* '=' and ':' after the first belong to the value; no inline comments. */
	CHECK(aws_ini_value(credentials_text, "dev", "aws_secret_access_key", v, sizeof(v)) == 0 &&
	      !strcmp(v, "a=b:c # not a comment"));
	/* The nested line is s3's, the empty value the profile's own. */
	CHECK(aws_ini_value(credentials_text, "dev", "aws_session_token", v, sizeof(v)) == 0 &&
	      !strcmp(v, ""));
	CHECK(aws_ini_value(credentials_text, "half", "aws_secret_access_key", v, sizeof(v)) == 1);
	CHECK(aws_ini_value(credentials_text, "empty", "aws_access_key_id", v, sizeof(v)) == 1);
	CHECK(aws_ini_value(credentials_text, "nosuch", "aws_access_key_id", v, sizeof(v)) == 2);
	CHECK(aws_ini_value(credentials_text, "a comment", "x", v, sizeof(v)) == 2);
	/* As configparser: an indented line under a key continues it, blank
	 * lines between or not, so this header is part of k's value. */
	CHECK(aws_ini_value("[a]\nk = v\n\n  [b]\nk = w\n", "b", "k", v, sizeof(v)) == 2);
	CHECK(aws_ini_value("[a]\nk = v\n\n  [b]\nk = w\n", "a", "k", v, sizeof(v)) == 0 &&
	      !strcmp(v, "v"));
	CHECK(aws_ini_value(credentials_text, "default", "aws_access_key_id", v, 5) == -1);
	CHECK(aws_ini_value(config_text, "profile ops", "credential_process", v, sizeof(v)) == 0 &&
	      !strcmp(v, "printf x"));
	CHECK(aws_ini_value(config_text, "profile ops", "region", v, sizeof(v)) == 1);
	CHECK(aws_ini_value(config_text, "ops", "region", v, sizeof(v)) == 0 &&
	      !strcmp(v, "eu-west-1"));
	CHECK(aws_ini_value("", "default", "x", v, sizeof(v)) == 2);
	CHECK(aws_ini_value("[default", "default", "x", v, sizeof(v)) == 2);
}

static void test_iso_time(struct checks *checks)
{
	time_t t = 0;
	CHECK(aws_parse_iso_time("2026-12-02T00:00:00Z", &t) == 0 && t == T20261202);
	CHECK(aws_parse_iso_time("2026-12-02T01:30:00+01:30", &t) == 0 && t == T20261202);
	CHECK(aws_parse_iso_time("2026-12-01T23:00:00-0100", &t) == 0 && t == T20261202);
	CHECK(aws_parse_iso_time("2026-12-02T00:00:00.123456Z", &t) == 0 && t == T20261202);
	CHECK(aws_parse_iso_time("2026-12-02T00:00:00+00:00", &t) == 0 && t == T20261202);
	CHECK(aws_parse_iso_time("2026-12-02 00:00:00Z", &t) == -1);
	CHECK(aws_parse_iso_time("2026-13-02T00:00:00Z", &t) == -1);
	CHECK(aws_parse_iso_time("2026-12-02T00:00:00", &t) == -1);
	CHECK(aws_parse_iso_time("2026-12-02T00:00:00+1", &t) == -1);
}

static void test_process_output(struct checks *checks)
{
	struct aws_credentials c;
	char err[256];
	memset(&c, 0, sizeof(c));
	CHECK(aws_process_output(
		      &c,
		      "{\"Version\": 1, \"AccessKeyId\": \"AKIAP\", \"SecretAccessKey\": "
		      "\"s3cr3t\", \"SessionToken\": \"tok\", \"Expiration\": "
		      "\"2026-12-02T01:00:00+00:00\"}",
		      T20261202, err, sizeof(err)) == 0);
	CHECK(!strcmp(c.access_key_id, "AKIAP") && !strcmp(c.secret_key, "s3cr3t") &&
	      !strcmp(c.session_token, "tok"));
	/* Long-term keys: no token, no expiry (aws export-credentials prints these). */
	CHECK(aws_process_output(
		      &c,
		      "{\"Version\": 1, \"AccessKeyId\": \"AKIAQ\", \"SecretAccessKey\": "
		      "\"s3cr3t\"}",
		      T20261202, err, sizeof(err)) == 0 &&
	      !c.session_token[0]);
	CHECK(aws_process_output(
		      &c,
		      "{\"Version\": 1, \"AccessKeyId\": \"AKIAP\", \"SecretAccessKey\": "
		      "\"s3cr3t\", \"Expiration\": \"2026-12-02T00:00:00Z\"}",
		      T20261202, err, sizeof(err)) == -1 &&
	      strstr(err, "expired at 2026-12-02T00:00:00Z") && !strstr(err, "s3cr3t"));
	CHECK(aws_process_output(&c, "{\"Version\": 2, \"AccessKeyId\": \"A\"}", T20261202, err,
				 sizeof(err)) == -1 &&
	      strstr(err, "Version"));
	CHECK(aws_process_output(&c, "{\"Version\": 1, \"AccessKeyId\": \"AKIAP\"}", T20261202, err,
				 sizeof(err)) == -1 &&
	      strstr(err, "SecretAccessKey"));
	CHECK(aws_process_output(&c, "s3cr3t oops", T20261202, err, sizeof(err)) == -1 &&
	      !strstr(err, "s3cr3t"));
}

/* The chain over files in dir, with the environment as each case sets it. */
static void test_chain(struct checks *checks)
{
	char dir[64], cred[128], conf[128], err[512];
	struct aws_credentials c;
	if (!CHECK(check_temp_dir(dir, sizeof(dir), "awscred")) ||
	    !CHECK(check_write_file(dir, "credentials", credentials_text, cred, sizeof(cred))) ||
	    !CHECK(check_write_file(
		    dir, "config",
		    "[profile proc]\ncredential_process = printf "
		    "'{\"Version\":1,\"AccessKeyId\":\"AKIAPROC\","
		    "\"SecretAccessKey\":\"x\"}'\n"
		    "[profile fails]\ncredential_process = echo no way >&2; exit 3\n"
		    "[profile conf]\naws_access_key_id = AKIACONF\n"
		    "aws_secret_access_key = y\n",
		    conf, sizeof(conf))))
		return;
	setenv("AWS_SHARED_CREDENTIALS_FILE", cred, 1);
	setenv("AWS_CONFIG_FILE", conf, 1);
	setenv("AWS_ACCESS_KEY_ID", "AKIAENV", 1);
	setenv("AWS_SECRET_ACCESS_KEY", "z", 1);
	unsetenv("AWS_SESSION_TOKEN");
	unsetenv("AWS_PROFILE");
	CHECK(aws_credentials_load(&c, NULL, T20261202, err, sizeof(err)) == 0 &&
	      !strcmp(c.access_key_id, "AKIAENV") && !strcmp(c.source, "the environment"));
	/* --profile skips the environment, as botocore does. */
	CHECK(aws_credentials_load(&c, "dev", T20261202, err, sizeof(err)) == 0 &&
	      !strcmp(c.access_key_id, "AKIADEV") && strstr(c.source, "profile 'dev' in "));
	unsetenv("AWS_SECRET_ACCESS_KEY");
	CHECK(aws_credentials_load(&c, NULL, T20261202, err, sizeof(err)) == -1 &&
	      !strcmp(err, "AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not"));
	unsetenv("AWS_ACCESS_KEY_ID");
	CHECK(aws_credentials_load(&c, NULL, T20261202, err, sizeof(err)) == 0 &&
	      !strcmp(c.access_key_id, "AKIADEFAULT"));
	setenv("AWS_PROFILE", "proc", 1);
	CHECK(aws_credentials_load(&c, NULL, T20261202, err, sizeof(err)) == 0 &&
	      !strcmp(c.access_key_id, "AKIAPROC") && !strcmp(c.secret_key, "x"));
	CHECK(aws_credentials_load(&c, "conf", T20261202, err, sizeof(err)) == 0 &&
	      !strcmp(c.access_key_id, "AKIACONF"));
	CHECK(aws_credentials_load(&c, "fails", T20261202, err, sizeof(err)) == -1 &&
	      strstr(err, "credential_process of profile 'fails'") &&
	      strstr(err, "exit status 3): no way") && !c.access_key_id[0]);
	CHECK(aws_credentials_load(&c, "half", T20261202, err, sizeof(err)) == -1 &&
	      strstr(err, "has aws_access_key_id but no aws_secret_access_key"));
	CHECK(aws_credentials_load(&c, "empty", T20261202, err, sizeof(err)) == -1 &&
	      strstr(err, "profile 'empty' (from --profile) has no aws_access_key_id"));
	setenv("AWS_PROFILE", "nosuch", 1);
	CHECK(aws_credentials_load(&c, NULL, T20261202, err, sizeof(err)) == -1 &&
	      strstr(err, "AWS_ACCESS_KEY_ID is not set and profile 'nosuch' (from AWS_PROFILE) "
			  "is in neither ") &&
	      strstr(err, cred) && strstr(err, conf));
	setenv("AWS_CONFIG_FILE", "/nonexistent/config", 1);
	CHECK(aws_credentials_load(&c, "x", T20261202, err, sizeof(err)) == -1 &&
	      strstr(err, "/nonexistent/config (no such file)") && !strstr(err, "AWS_ACCESS_KEY"));
	unsetenv("AWS_PROFILE");
	check_remove_tree(dir);
}

CHECK_MAIN(test_ini, test_iso_time, test_process_output, test_chain)
