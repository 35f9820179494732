/* internal.h - what results/'s files share among themselves (and its unit
 * tests and fuzz targets call); nothing outside results/ calls these, so
 * the face (results.h) does not include this header. */
#ifndef EBSBENCH_RESULTS_INTERNAL_H
#define EBSBENCH_RESULTS_INTERNAL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* results.c: the schema check's yes or no, and loading a file by path */
/* A JSON object of a schema this ebsbench reads (1..RESULTS_SCHEMA). */
bool results_schema_ok(const json_t *root);
/* Loads the results file at path, its schema checked; NULL with a reason. */
json_t *results_load_file(const char *path, char *err, size_t errlen);

#endif
