/* summary_tldr.c - summary.md's TL;DR: the measured table, then the notes
 * under it that keep a reader from misreading a figure (a part-empty
 * bucket, a predicted cliff, a volume loading from its snapshot or
 * delivering less than it is sold as, whose cliff it was), each once. */
#include "report/summary_tldr.h"

#include <stdbool.h>
#include <string.h>

#include "analysis/analysis.h"
#include "lib/lib.h"
#include "report/md_table.h"
#include "report/report_format.h"
#include "report/summary_cells.h"
#include "report/summary_table.h"

/* Column i's device's analysis object key (credits_at_start, initialization). */
static const json_t *column_analysis(const struct results_columns *c, size_t i, const char *key)
{
	const char *label = results_label(c->col[i].device);
	return json_object_get(results_analysis_device(c->col[i].run, label), key);
}

/* A note under the TL;DR: "> **LABEL says** sentence". */
static void write_note(FILE *out, const struct results_columns *c, size_t i, const char *says,
		       const char *sentence)
{
	fputs("\n> **", out);
	md_text(out, results_label(c->col[i].device));
	fputs(says, out);
	md_text(out, sentence);
	fputc('\n', out);
}

/* A gp2 that began its cliff phase with a part-empty (or an empty) bucket
 * says so under the TL;DR, once: its cliff came early (or not at all) for
 * that reason, not a faulty volume. */
static void write_credit_notes(FILE *out, const struct results_columns *c)
{
	for (size_t i = 0; i < c->count; i++) {
		const json_t *state = column_analysis(c, i, "credits_at_start");
		const char *sentence = json_string_value(json_object_get(state, "sentence"));
		bool lower = json_is_true(json_object_get(state, "lower_bound"));
		if (!(json_is_true(json_object_get(state, "low")) || lower) || !sentence)
			continue;
		write_note(out, c, i,
			   lower ? " never reached its baseline:** "
			   : results_num(json_object_get(state, "percent")) > 0
				   ? " started with a part-empty bucket:** "
				   : " started with an empty bucket:** ",
			   sentence);
	}
}

/* A volume that delivers less than it is sold as says so under the
 * TL;DR, once, with the level its phases were then judged against. */
static void write_delivered_notes(FILE *out, const struct results_columns *c)
{
	for (size_t i = 0; i < c->count; i++) {
		const char *label = results_label(c->col[i].device);
		const json_t *d =
			json_object_get(results_analysis_device(c->col[i].run, label), "delivered");
		const char *sentence = json_string_value(json_object_get(d, "sentence"));
		if (!sentence)
			continue;
		fputs("\n> **", out);
		md_text(out, label);
		fputs(" delivers less than it is sold as:** ", out);
		md_text(out, sentence);
		fputc('\n', out);
	}
}

/* A credit cliff the run stopped short of (the quick plan's randread):
 * the model's second, from analysis.devices[].cliff.predicted; NULL when
 * the cliff was measured or none was predicted. */
const char *summary_predicted_cliff(const json_t *run, const char *label)
{
	return json_string_value(
		RESULTS_GET(results_analysis_device(run, label), "cliff", "predicted", "sentence"));
}

/* Said under the TL;DR and again in the randread section, so no reader
 * takes the burst figure for what the volume sustains. */
void summary_predicted_cliff_write(FILE *out, const char *sentence)
{
	fputs("\n> **Credit cliff:** ", out);
	md_text(out, sentence);
	fputc('\n', out);
}

static void write_predicted_cliffs(FILE *out, const struct results_columns *c)
{
	for (size_t i = 0; i < c->count; i++) {
		const char *label = results_label(c->col[i].device);
		const char *sentence = summary_predicted_cliff(c->col[i].run, label);
		if (sentence)
			summary_predicted_cliff_write(out, sentence);
	}
}

/* A volume still loading from its snapshot says so under the TL;DR, once:
 * what its probe saw and what that did to the phases; in the past tense
 * when the run's initialize phase loaded it. */
static void write_initialization_notes(FILE *out, const struct results_columns *c)
{
	for (size_t i = 0; i < c->count; i++) {
		const json_t *d = column_analysis(c, i, "initialization");
		const char *sentence = json_string_value(json_object_get(d, "sentence"));
		if (results_str_is(json_object_get(d, "state"), "loading") && sentence)
			write_note(out, c, i,
				   json_is_true(json_object_get(d, "initialized"))
					   ? " was loading from its snapshot:** "
					   : " is still loading from its snapshot:** ",
				   sentence);
	}
}

/* Once per run: whose each cliff was, the volume's or the instance's EBS
 * burst's (analysis.instance_cliff), and the devices driven at once, the
 * sum's ceiling and whose limit set it (analysis.together). */
static void write_cliff_causes(FILE *out, const struct results_columns *c)
{
	for (size_t i = 0; i < c->count; i++) {
		const json_t *s, *a = json_object_get(c->col[i].run, RESULTS_KEY_ANALYSIS);
		size_t k;
		if (i && c->col[i].run == c->col[i - 1].run)
			continue;
		json_array_foreach(RESULTS_GET(a, "instance_cliff", "sentences"), k, s)
		{
			fputs("\n> **Whose cliff:** ", out);
			md_text(out, json_string_value(s));
			fputc('\n', out);
		}
		json_array_foreach(json_object_get(a, "together"), k, s)
		{
			fputs("\n> **Together:** ", out);
			md_text(out, json_string_value(json_object_get(s, "sentence")));
			fputc('\n', out);
		}
	}
}

void summary_tldr_write(FILE *out, const struct results_columns *c)
{
	summary_table_header(out, "Measured", c->col, c->count, c->nruns > 1);
	summary_table_rows(out, summary_cells_tldr_rows, summary_cells_tldr_count, c->col, c->count,
			   NULL);
	write_credit_notes(out, c);
	write_predicted_cliffs(out, c);
	write_initialization_notes(out, c);
	write_delivered_notes(out, c);
	write_cliff_causes(out, c);
}
