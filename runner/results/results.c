/* results.c - reading and writing results.json. */
#include "results/results.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

bool results_schema_ok(const json_t *root)
{
	const json_t *schema = json_object_get(root, "schema");
	return json_is_object(root) && json_is_integer(schema) &&
	       json_integer_value(schema) == RESULTS_SCHEMA;
}

json_t *results_load(const char *dir, char *err, size_t errlen)
{
	char path[4200];
	json_error_t jerr;
	snprintf(path, sizeof(path), "%s/%s", dir, RESULTS_FILE);
	json_t *root = json_load_file(path, JSON_DECODE_ANY, &jerr);
	if (!root) {
		snprintf(err, errlen, "%s: %s", path, jerr.text);
		return NULL;
	}
	if (!results_schema_ok(root)) {
		snprintf(err, errlen, "%s: not an ebsbench results file of schema %d", path,
			 RESULTS_SCHEMA);
		json_decref(root);
		return NULL;
	}
	return root;
}

int results_save(const json_t *results, const char *dir, char *err, size_t errlen)
{
	char path[4200], tmp[4210];
	snprintf(path, sizeof(path), "%s/%s", dir, RESULTS_FILE);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (json_dump_file(results, tmp,
			   JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15)) ||
	    rename(tmp, path)) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}
