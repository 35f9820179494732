/* test_ec2_launch.c - what `ebsbench ec2 --launch` reads from the AWS CLI:
 * the instance's id, state and state reason from describe-instances' and
 * run-instances' replies, whether it carries this run's tags (the only
 * instance it will terminate), and which states mean it has ended. */
#include <jansson.h>
#include <string.h>

#include "check.h"
#include "lib/lib.h"
#include "launch/ec2_launch.h"
#include "launch/internal.h"

#define RUN "ebsbench-20261203-101500"
#define PREFIX "runs/first/"

static int parse(const char *text, struct ec2_instance *in)
{
	json_t *reply = json_loads(text, 0, NULL);
	memset(in, 0, sizeof(*in));
	int rc = ec2_launch_parse_instance(reply, RUN, PREFIX, in);
	json_decref(reply);
	return rc;
}

static void test_describe(struct checks *checks)
{
	struct ec2_instance in;
	CHECK(parse("{\"Reservations\": [{\"Instances\": [{\"InstanceId\": \"i-0abc\", \"State\": "
		    "{\"Name\": \"terminated\"}, \"StateReason\": {\"Message\": "
		    "\"Client.InstanceInitiatedShutdown: Instance initiated shutdown\"}, "
		    "\"Tags\": [{\"Key\": \"ebsbench:prefix\", \"Value\": \"" PREFIX "\"}, "
		    "{\"Key\": \"Name\", \"Value\": \"" RUN "\"}]}]}]}",
		    &in) == 0);
	CHECK(!strcmp(in.id, "i-0abc") && !strcmp(in.state, "terminated"));
	CHECK(!strcmp(in.reason, "Client.InstanceInitiatedShutdown: Instance initiated shutdown"));
	CHECK(in.ours);
	CHECK(ec2_launch_ended(&in));
	/* run-instances' reply: Instances at the top. */
	CHECK(parse("{\"Instances\": [{\"InstanceId\": \"i-0def\", \"State\": {\"Name\": "
		    "\"pending\"}}]}",
		    &in) == 0);
	CHECK(!strcmp(in.id, "i-0def") && !strcmp(in.state, "pending") && !in.reason[0]);
	CHECK(!in.ours && !ec2_launch_ended(&in));
	CHECK(parse("{\"Reservations\": []}", &in) == -1);
	CHECK(parse("{\"Instances\": [{\"State\": {\"Name\": \"running\"}}]}", &in) == -1);
}

static void test_ours(struct checks *checks)
{
	struct ec2_instance in;
	/* Both tags, each with this run's value: the Name alone, or another
	 * run's prefix, is someone else's instance. */
	CHECK(parse("{\"Instances\": [{\"InstanceId\": \"i-1\", \"State\": {\"Name\": "
		    "\"running\"}, "
		    "\"Tags\": [{\"Key\": \"Name\", \"Value\": \"" RUN "\"}]}]}",
		    &in) == 0);
	CHECK(!in.ours);
	CHECK(parse("{\"Instances\": [{\"InstanceId\": \"i-1\", \"State\": {\"Name\": "
		    "\"running\"}, "
		    "\"Tags\": [{\"Key\": \"Name\", \"Value\": \"" RUN "\"}, {\"Key\": "
		    "\"ebsbench:prefix\", \"Value\": \"runs/other/\"}]}]}",
		    &in) == 0);
	CHECK(!in.ours);
}

static void test_ended(struct checks *checks)
{
	static const char *const ended[] = { "shutting-down", "terminated", "stopping", "stopped" };
	static const char *const alive[] = { "pending", "running", "" };
	struct ec2_instance in = { .ours = false };
	for (size_t i = 0; i < ARRAY_SIZE(ended); i++) {
		snprintf(in.state, sizeof(in.state), "%s", ended[i]);
		CHECK(ec2_launch_ended(&in));
	}
	for (size_t i = 0; i < ARRAY_SIZE(alive); i++) {
		snprintf(in.state, sizeof(in.state), "%s", alive[i]);
		CHECK(!ec2_launch_ended(&in));
	}
}

CHECK_MAIN(test_describe, test_ours, test_ended)
