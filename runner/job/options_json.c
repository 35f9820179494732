/* options_json.c - JSON members to option words. */
#include "job/options_json.h"
#include "lib/lib.h"

#include <stdio.h>
#include <string.h>

/* Renders a scalar as the text fio would have been given; false becomes
 * "0" so {"time_based": false} means what it says. */
static int member_text(const json_t *value, char *buf, size_t len)
{
	switch (json_typeof(value)) {
	case JSON_STRING:
		snprintf(buf, len, "%s", json_string_value(value));
		return 0;
	case JSON_INTEGER:
		snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(value));
		return 0;
	case JSON_REAL:
		snprintf(buf, len, "%.17g", json_real_value(value));
		return 0;
	case JSON_TRUE:
		snprintf(buf, len, "1");
		return 0;
	case JSON_FALSE:
		snprintf(buf, len, "0");
		return 0;
	default:
		return -1;
	}
}

int options_apply_json(struct job_options *o, const json_t *obj, char *err, size_t errlen)
{
	const char *name;
	json_t *value;
	char text[OPTIONS_PATH_MAX];
	if (!json_is_object(obj))
		return error_set(err, errlen, "a job must be a JSON object of fio options");
	json_object_foreach((json_t *)obj, name, value)
	{
		if (member_text(value, text, sizeof(text)))
			return error_set(err, errlen,
					 "option '%s': expected a string, number or boolean", name);
		if (options_set(o, name, text, err, errlen))
			return -1;
	}
	/* A JSON job is one job: clones would be silently dropped. */
	if (o->numjobs != 1) {
		snprintf(err, errlen,
			 "option 'numjobs': a JSON job is one job (several run only in `ebsbench "
			 "fio`)");
		return -1;
	}
	/* --idle-prof is a whole fio run's, measured by `ebsbench fio`. */
	if (o->idle_prof != IDLE_PROF_NONE) {
		snprintf(err, errlen,
			 "option 'idle-prof': a JSON job has no CPU idleness (`ebsbench fio` "
			 "measures it over a run)");
		return -1;
	}
	/* fio's steady state ends a job and says so in `ebsbench fio`'s
	 * JSON; a run's phase has no place for that record. */
	if (o->ss.dur_ns) {
		snprintf(err, errlen,
			 "option 'ss_dur': a JSON job does not end when steady (`ebsbench fio` "
			 "does, and reports it)");
		return -1;
	}
	return 0;
}
