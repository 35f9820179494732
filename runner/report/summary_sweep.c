/* summary_sweep.c - the sweep's section of summary.md: throughput at each
 * block size beside what the model predicts and what bounds it. */
#include "report/summary_sweep.h"

#include <math.h>

#include "lib/lib.h"
#include "report/md_table.h"
#include "report/report_format.h"
#include "run/run.h"

/* "16 KiB", "1 MiB": how seed 002 names its block sizes. */
static const char *block_text(char *buf, size_t len, double bs)
{
	if (!(bs > 0))
		return report_missing(buf, len);
	if (bs >= MIB && fmod(bs, MIB) == 0)
		snprintf(buf, len, "%.0f MiB", bs / MIB);
	else
		snprintf(buf, len, "%.0f KiB", bs / 1024);
	return buf;
}

/* MiB/s as the other tables write throughput. */
static const char *mibs_text(char *buf, size_t len, const json_t *mibs)
{
	if (!json_is_number(mibs))
		return report_missing(buf, len);
	return report_mibs(buf, len, json_number_value(mibs) * MIB);
}

static void write_step_row(FILE *out, const json_t *step)
{
	char bs[REPORT_NUM_LEN], got[REPORT_NUM_LEN], model[REPORT_NUM_LEN], st[REPORT_NUM_LEN];
	const json_t *bound = json_object_get(step, "bound");
	const json_t *service = json_object_get(step, "service_time_ms");
	fputs("| ", out);
	md_text(out, json_string_value(json_object_get(step, "rw")));
	fprintf(out, " | %s | %s | %s | ",
		block_text(bs, sizeof(bs), results_num_or(step, "bs", NAN)),
		mibs_text(got, sizeof(got), json_object_get(step, "measured_mibs")),
		mibs_text(model, sizeof(model), json_object_get(step, "predicted_mibs")));
	md_text(out, json_is_string(bound) ? json_string_value(bound) : REPORT_MISSING);
	fputs(" | ", out);
	md_text(out, json_string_value(json_object_get(step, "verdict")));
	fprintf(out, " | %s |\n",
		json_is_number(service)
			? report_ms(st, sizeof(st), json_number_value(service) * 1e6)
			: report_missing(st, sizeof(st)));
}

/* One device's table, headed by its title. */
static void write_device(FILE *out, const struct results_column *col, const json_t *sweep)
{
	char title[256];
	size_t i;
	const json_t *step;
	static const char *const head[] = { "rw",    "Block size", "Measured",	  "Model",
					    "Bound", "Verdict",	   "Service time" };
	fputs("### ", out);
	md_text(out, report_device_title(title, sizeof(title), col->device));
	fputs("\n\n", out);
	md_table_head(out, head, ARRAY_SIZE(head));
	json_array_foreach(sweep, i, step)
	{
		write_step_row(out, step);
	}
	fputc('\n', out);
}

void summary_sweep_write(FILE *out, const struct results_columns *c)
{
	fprintf(out,
		"## Block-size sweep \xe2\x80\x94 phase `%s`: writes as `dd oflag=direct`, the "
		"read as "
		"`hdparm --direct -t`, one I/O at a time\n\n"
		"The model's line is the lowest of three bounds at each block size: latency "
		"(block size / the per-I/O service time of the 16 KiB write: mean submission plus "
		"p50 completion; each step's own is in the last column), IOPS "
		"(the volume's IOPS, in 256 "
		"KiB units, sequential I/O of 32 KiB and up merged) and throughput (its MiB/s "
		"cap).\n\n![Throughput against block size](%s)\n\n",
		RESULTS_PHASE_SWEEP, artifacts_name(ARTIFACT_SWEEP_SVG));
	for (size_t i = 0; i < c->count; i++) {
		const json_t *a =
			results_analysis_device(c->col[i].run, results_label(c->col[i].device));
		const json_t *sweep = json_object_get(a, "sweep");
		if (json_array_size(sweep))
			write_device(out, &c->col[i], sweep);
	}
}
