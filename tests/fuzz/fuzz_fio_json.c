/* fuzz_fio_json.c - a JSON job object (a plan phase's fio options): every
 * member through the option table, then the check of the combination. */
#include <jansson.h>
#include <stdlib.h>

#include "input.h"
#include "job/options.h"
#include "job/options_json.h"
#include "job/internal.h"

/* One input: a JSON job object as a plan phase carries it. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_error_t jerr;
	json_t *obj = json_loadb((const char *)data, size, JSON_DECODE_ANY, &jerr);
	struct job_options *o;
	char err[512];

	if (!obj)
		return 0;
	o = malloc(sizeof(*o));
	if (!o)
		abort();
	options_defaults(o);
	if (options_apply_json(o, obj, err, sizeof(err)) == 0)
		(void)options_validate(o, err, sizeof(err));
	free(o);
	json_decref(obj);
	return 0;
}
