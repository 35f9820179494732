/* test_results.c - the schema versions results_load and every reader
 * accept: 1 (ebsbench 0.1.0, its fixture kept as written) up to
 * RESULTS_SCHEMA, and a newer one refused with a line naming both; a
 * clat_hist window read back, and what is not one refused. */
#include <string.h>

#include "check.h"
#include "results/results.h"
#include "results/internal.h"

/* results_schema_check on {"schema": version}; err gets its reason. */
static int check_version(json_t *version, char *err, size_t errlen)
{
	json_t *doc = json_pack("{so}", "schema", version);
	int rc = results_schema_check(doc, err, errlen);
	json_decref(doc);
	return rc;
}

static void test_versions(struct checks *checks)
{
	char err[200];

	CHECK(RESULTS_SCHEMA == 4 && RESULTS_SCHEMA_OLDEST == 1);
	CHECK(check_version(json_integer(1), err, sizeof(err)) == 0);
	CHECK(check_version(json_integer(2), err, sizeof(err)) == 0);
	CHECK(check_version(json_integer(3), err, sizeof(err)) == 0);
	CHECK(check_version(json_integer(4), err, sizeof(err)) == 0);
	CHECK(check_version(json_integer(5), err, sizeof(err)) == -1);
	CHECK(!strcmp(err, "written by a newer ebsbench: schema 5, this one reads 1 to 4"));
	CHECK(check_version(json_integer(0), err, sizeof(err)) == -1);
	CHECK(strstr(err, "not an ebsbench results file") != NULL);
	CHECK(check_version(json_string("2"), err, sizeof(err)) == -1);
	json_t *not_object = json_array();
	CHECK(results_schema_check(not_object, err, sizeof(err)) == -1);
	json_decref(not_object);
}

/* The 0.1.0 fixture (schema 1), as it was written, is one this reads. */
static void test_reads_0_1_0(struct checks *checks)
{
	json_t *old = json_load_file("tests/unit/fixtures/results-gp2-gp3.json", 0, NULL);
	CHECK(old && json_integer_value(json_object_get(old, "schema")) == 1);
	CHECK(results_schema_ok(old));
	json_decref(old);
}

/* "FIRST:C C C" into its bins; what is not a window, or does not fit in
 * 116 bins, is refused. */
static void test_hist_windows(struct checks *checks)
{
	uint64_t counts[116] = { 0 };
	json_t *good = json_string("3:1 0 5");
	CHECK(results_hist_window(good, counts, 116) == 6);
	CHECK(counts[3] == 1 && counts[4] == 0 && counts[5] == 5 && counts[2] == 0);
	json_decref(good);
	json_t *bad[] = { json_string("3"),	  json_string("3:1 x"), json_string("3:-1"),
			  json_string("115:1 1"), json_string("3:1 "),	json_integer(3) };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		CHECK(results_hist_window(bad[i], counts, 116) == -1);
		json_decref(bad[i]);
	}
}

CHECK_MAIN(test_versions, test_reads_0_1_0, test_hist_windows)
