/* test_finding.c - the findings' ranking and a bucket's balance in its own
 * unit: gp2's I/O credits in millions, st1/sc1's throughput credit in GiB
 * (their credits are MiB). */
#include <math.h>
#include <string.h>

#include "check.h"
#include "analysis/finding.h"

static void test_credits(struct checks *checks)
{
	char buf[64];

	CHECK(!strcmp(finding_credits(buf, sizeof(buf), 3.24e6, 5.4e6, false),
		      "3.24 M of 5.40 M credits"));
	CHECK(!strcmp(finding_credits(buf, sizeof(buf), 5.4e6, NAN, false), "5.40 M credits"));
	/* A 500 GiB st1's bucket: 512,000 MiB; 60 % of it. */
	CHECK(!strcmp(finding_credits(buf, sizeof(buf), 307200, 512000, true),
		      "300 of 500 GiB of credit"));
	CHECK(!strcmp(finding_credits(buf, sizeof(buf), 512000, NAN, true), "500 GiB of credit"));
}

/* The most decisive first; details keep every sentence in order. */
static void test_split(struct checks *checks)
{
	json_t *list = json_array(), *findings, *details;

	finding_add(list, FINDING_DETAIL, "a detail");
	finding_add(list, FINDING_START_STATE, "the cliff");
	finding_split(list, &findings, &details);
	CHECK(!strcmp(json_string_value(json_array_get(findings, 0)), "the cliff"));
	CHECK(!strcmp(json_string_value(json_array_get(details, 0)), "a detail"));
	json_decref(list);
	json_decref(findings);
	json_decref(details);
}

CHECK_MAIN(test_credits, test_split)
