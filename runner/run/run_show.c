/* run_show.c - what a run says before its first I/O: the plan's notes on
 * stderr, and the plan as --dry-run prints it. */
#include "run/run_show.h"
#include "run/internal.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "lib/lib.h"

/* What the run reads before its first write, as --dry-run shows it: a
 * line each on stderr, and the plan's "read_first". */
static json_t *read_first_json(const struct run_state *st)
{
	json_t *reads = json_array();
	for (size_t i = 0; i < st->device_count; i++) {
		const struct plan_read_first *r = &st->plan.read_first[i];
		const struct run_device *d = &st->devices[i];
		if (!r->length)
			continue;
		fprintf(stderr,
			"ebsbench run: before its first write the run reads %.1f MiB of %s (%s) "
			"from byte %" PRIu64 ", and writes only if they hold zeros or ebsbench's "
			"own data\n",
			(double)r->length / (double)MIB, d->info.dev_path, d->label, r->offset);
		json_array_append_new(reads,
				      json_pack("{sssssIsIsf}", "device", d->label, "path",
						d->info.dev_path, "offset", (json_int_t)r->offset,
						"bytes", (json_int_t)r->length, "planned_s",
						(double)r->planned_ns / 1e9));
	}
	return reads;
}

void run_show_plan(FILE *out, const struct run_state *st)
{
	json_t *steps = json_array();
	for (size_t i = 0; i < st->plan.count; i++) {
		const struct plan_step *s = &st->plan.steps[i];
		json_t *opts = json_object();
		for (unsigned g = 0; g < s->job.given_count; g++)
			json_object_set_new(opts, s->job.given[g].name,
					    json_string(s->job.given[g].value));
		json_array_append_new(steps, json_pack("{sssssssfsoss}", "phase", s->phase,
						       "device", st->devices[s->device].label,
						       "path", st->devices[s->device].info.dev_path,
						       "planned_s", (double)s->planned_ns / 1e9,
						       "options", opts, "iops_log", s->iops_log));
		if (s->hist_log[0])
			json_object_set_new(json_array_get(steps, i), "hist_log",
					    json_string(s->hist_log));
		if (s->lat_log[0])
			json_object_set_new(json_array_get(steps, i), "lat_log",
					    json_string(s->lat_log));
		if (s->load.percent > 0)
			json_object_set_new(json_array_get(steps, i), "load",
					    plan_load_json(&s->load, NAN));
	}
	json_t *doc = json_pack("{sOsfsbsoso}", "devices",
				json_object_get(st->results, RESULTS_KEY_DEVICES), "planned_s",
				(double)st->plan.total_ns / 1e9, "writes", st->plan.writes,
				"read_first", read_first_json(st), "steps", steps);
	json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	fputc('\n', out);
	json_decref(doc);
}

void run_show_notes(const struct run_state *st)
{
	for (const char *line = st->plan.notes; *line;) {
		const char *end = strchr(line, '\n');
		int n = end ? (int)(end - line) : (int)strlen(line);
		fprintf(stderr, "ebsbench run: %.*s\n", n, line);
		line += n + (end != NULL);
	}
}
