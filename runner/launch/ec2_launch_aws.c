/* ec2_launch_aws.c - the user's aws CLI as a child: the argv every call
 * shares (region, profile, JSON out) and no pager, the preflight's checks,
 * and what describe-instances says of the launched instance. */
#include "launch/ec2_launch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lib.h"
#include "launch/child.h"
#include "launch/internal.h"

/* One call's bound: the CLI retries throttled calls for a while itself. */
#define AWS_CALL_TIMEOUT_S 180
#define SSM_PREFIX "resolve:ssm:"

extern char **environ;

int ec2_aws(const struct ec2_request *q, const char *const *args, const char *in, size_t in_len,
	    struct child_result *res, char *err, size_t errlen)
{
	char *argv[CHILD_MAX_ARGS];
	size_t n = 0;
	memset(res, 0, sizeof(*res));
	argv[n++] = "aws";
	argv[n++] = "--region";
	argv[n++] = (char *)q->region;
	if (q->profile) {
		argv[n++] = "--profile";
		argv[n++] = (char *)q->profile;
	}
	argv[n++] = "--output";
	argv[n++] = "json";
	for (; *args; args++) {
		if (n + 1 >= CHILD_MAX_ARGS)
			return error_set(err, errlen, "aws: too many arguments");
		argv[n++] = (char *)*args;
	}
	argv[n] = NULL;
	/* The environment with AWS_PAGER empty: CLI v2 pipes its output through
	 * a pager (less) otherwise, even into a pipe; v1 ignores it. */
	size_t count = 0, k = 0;
	while (environ[count])
		count++;
	char **env = calloc(count + 2, sizeof(*env));
	if (!env)
		return error_set(err, errlen, "out of memory");
	for (size_t i = 0; i < count; i++)
		if (strncmp(environ[i], "AWS_PAGER=", 10))
			env[k++] = environ[i];
	env[k] = "AWS_PAGER=";
	int rc = child_run(argv, env, in, in_len, AWS_CALL_TIMEOUT_S, res, err, errlen);
	free(env);
	return rc;
}

/* aws ARGS; its reply parsed, or NULL with its reason (stderr's last line,
 * or why it could not run) in why. */
static json_t *call(const struct ec2_request *q, const char *const *args, char *why, size_t cap)
{
	struct child_result res;
	if (ec2_aws(q, args, NULL, 0, &res, why, cap))
		return NULL;
	json_t *reply = res.status ? NULL : json_loads(res.out, 0, NULL);
	if (res.status)
		snprintf(why, cap, "%s", res.why[0] ? res.why : "it failed");
	else if (!reply)
		snprintf(why, cap, "its reply is not JSON");
	child_result_free(&res);
	return reply;
}

/* The image: an SSM parameter that names an AMI, or an AMI that exists.
 * 0, or -1 with the reason in why. */
static int image_resolves(const struct ec2_request *q, const char *image, char *why, size_t cap)
{
	bool ssm = !strncmp(image, SSM_PREFIX, strlen(SSM_PREFIX));
	const char *ssm_args[] = { "ssm", "get-parameters", "--names", image + strlen(SSM_PREFIX),
				   NULL };
	const char *ami_args[] = { "ec2", "describe-images", "--image-ids", image, NULL };
	json_t *reply = call(q, ssm ? ssm_args : ami_args, why, cap);
	if (!reply)
		return -1;
	json_t *found = json_array_get(json_object_get(reply, ssm ? "Parameters" : "Images"), 0);
	const char *value = json_string_value(json_object_get(found, ssm ? "Value" : "ImageId"));
	int rc = value && value[0] ? 0 : -1;
	if (rc)
		snprintf(why, cap, "%s",
			 ssm ? "no such parameter in this region" : "no such image");
	json_decref(reply);
	return rc;
}

int ec2_launch_preflight(const struct ec2_request *q)
{
	const char *who[] = { "sts", "get-caller-identity", NULL };
	const char *image = q->image_id ? q->image_id : EC2_DEFAULT_IMAGE;
	char why[512];
	json_t *id = call(q, who, why, sizeof(why));
	if (!id) {
		fprintf(stderr,
			"ebsbench ec2: the AWS CLI's credentials do not answer (aws sts "
			"get-caller-identity: %s): check aws's configuration (--profile)\n",
			why);
		return EC2_LAUNCH_NO_AWS;
	}
	const char *arn = json_string_value(json_object_get(id, "Arn"));
	fprintf(stderr, "ebsbench ec2: aws answers as %s\n", arn ? arn : "(no Arn)");
	json_decref(id);
	if (image_resolves(q, image, why, sizeof(why))) {
		fprintf(stderr,
			"ebsbench ec2: the image %s does not resolve in %s (%s): give --image-id "
			"an "
			"AMI or resolve:ssm:PARAMETER of that region\n",
			image, q->region, why);
		return EC2_LAUNCH_NO_IMAGE;
	}
	return 0;
}

int ec2_launch_parse_instance(const json_t *reply, const char *run, const char *prefix,
			      struct ec2_instance *in)
{
	json_t *res = json_array_get(json_object_get(reply, "Reservations"), 0);
	json_t *inst = json_array_get(json_object_get(res, "Instances"), 0), *tag;
	if (!inst)
		inst = json_array_get(json_object_get(reply, "Instances"), 0); /* run-instances' */
	const char *id = json_string_value(json_object_get(inst, "InstanceId"));
	json_t *state = json_object_get(inst, "State");
	const char *name = json_string_value(json_object_get(state, "Name"));
	if (!id || !name)
		return -1;
	snprintf(in->id, sizeof(in->id), "%s", id);
	snprintf(in->state, sizeof(in->state), "%s", name);
	const char *msg =
		json_string_value(json_object_get(json_object_get(inst, "StateReason"), "Message"));
	snprintf(in->reason, sizeof(in->reason), "%s", msg ? msg : "");
	unsigned matched = 0;
	size_t i;
	json_array_foreach(json_object_get(inst, "Tags"), i, tag)
	{
		const char *k = json_string_value(json_object_get(tag, "Key"));
		const char *v = json_string_value(json_object_get(tag, "Value"));
		if (k && v && !strcmp(k, "Name") && !strcmp(v, run))
			matched |= 1;
		if (k && v && !strcmp(k, "ebsbench:prefix") && !strcmp(v, prefix))
			matched |= 2;
	}
	in->ours = matched == 3;
	return 0;
}

int ec2_launch_describe(const struct ec2_request *q, const char *run, const char *prefix,
			struct ec2_instance *in, char *why, size_t cap)
{
	const char *args[] = { "ec2", "describe-instances", "--instance-ids", in->id, NULL };
	json_t *reply = call(q, args, why, cap);
	if (!reply)
		return -1;
	struct ec2_instance got = { .ours = false };
	int rc = ec2_launch_parse_instance(reply, run, prefix, &got);
	json_decref(reply);
	if (rc || strcmp(got.id, in->id))
		return error_set(why, cap, "its reply does not describe %s", in->id);
	*in = got;
	return 0;
}

bool ec2_launch_ended(const struct ec2_instance *in)
{
	static const char *const ended[] = { "shutting-down", "terminated", "stopping", "stopped" };
	for (size_t i = 0; i < ARRAY_SIZE(ended); i++)
		if (!strcmp(in->state, ended[i]))
			return true;
	return false;
}
