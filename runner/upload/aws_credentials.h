/* aws_credentials.h - AWS credentials found where AWS's own tools find
 * them, in their order:
 *
 *   1. AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, unless a
 *      profile was named on the command line (botocore drops the
 *      environment then too);
 *   2. the profile: the one named, else AWS_PROFILE, else "default", in
 *      a. the shared credentials file (AWS_SHARED_CREDENTIALS_FILE, else
 *         ~/.aws/credentials), section [NAME]: aws_access_key_id,
 *         aws_secret_access_key, aws_session_token;
 *      b. credential_process (either file's profile, the credentials file
 *         first): a command run by /bin/sh that prints {"Version": 1,
 *         "AccessKeyId", "SecretAccessKey", "SessionToken"?, "Expiration"?};
 *         an Expiration already past is an error;
 *      c. the config file (AWS_CONFIG_FILE, else ~/.aws/config), section
 *         [profile NAME] ([default] or [profile default] for "default"):
 *         the same three keys.
 *
 * The values are copied into the struct: nothing points into the
 * environment or into a file's buffer, and aws_credentials_clear wipes them.
 * No message built here holds a secret key or a session token. */
#ifndef EBSBENCH_AWS_CREDENTIALS_H
#define EBSBENCH_AWS_CREDENTIALS_H

#include <stddef.h>
#include <time.h>

#define AWS_KEY_ID_MAX 128
#define AWS_SECRET_MAX 128
/* STS session tokens run to a few kilobytes. */
#define AWS_TOKEN_MAX 8192
#define AWS_PROFILE_MAX 128

struct aws_credentials {
	char access_key_id[AWS_KEY_ID_MAX];
	char secret_key[AWS_SECRET_MAX];
	char session_token[AWS_TOKEN_MAX]; /* "": long-term keys */
	/* When they stop working, where it is known: a credential_process's
	 * Expiration, or AWS_CREDENTIAL_EXPIRATION beside the environment's
	 * keys.  0: not known (long-term keys, or a token of unknown life).
	 * What they sign dies with them, whatever its own expiry says. */
	time_t expires;
	/* Where they came from, for messages: "the environment", "profile dev
	 * in /home/u/.aws/credentials", "credential_process of profile dev". */
	char source[1200];
};

/* Fills c by the order above; profile is the command line's --profile
 * (NULL: none given).  now decides whether a credential_process's
 * Expiration has passed.  0, or -1 with one line in err naming what is
 * missing: which variable, which profile, which file. */
int aws_credentials_load(struct aws_credentials *c, const char *profile, time_t now, char *err,
			 size_t errlen);
/* Overwrites every byte of c (the secret and token included). */
void aws_credentials_clear(struct aws_credentials *c);
/* The profile's region in the config file (AWS_CONFIG_FILE, else
 * ~/.aws/config), the profile named as for aws_credentials_load: 0 with
 * the region in out, 1 when there is none (no file, no such profile, no
 * region, or one longer than cap). */
int aws_config_region(const char *profile, char *out, size_t cap);

#endif
