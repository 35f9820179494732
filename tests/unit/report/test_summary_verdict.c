/* test_summary_verdict.c - summary.md shows a verdict and its bound for
 * every phase, and every verdict sentence agrees with its own numbers:
 * the word follows from measured / predicted and the tolerance it names,
 * the prediction is the lowest bound it lists and the bound it names is
 * that one, and a part-empty start's percentage is its credits over the
 * bucket, at the cliff the table shows. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fixtures/verdict_fixture.h"
#include "lib/lib.h"
#include "report/summary.h"

static const char *const fixtures[] = { FIXTURE_REFERENCE, FIXTURE_PART_EMPTY, FIXTURE_QD1 };

static char *render(json_t *run)
{
	return verdict_render(summary_write, run);
}

/* The text with the thousands separators taken out: "2,292" -> "2292". */
static void strip_commas(char *dst, size_t len, const char *src)
{
	size_t n = 0;

	for (; *src && n + 1 < len; src++) {
		if (!(*src == ',' && src[1] >= '0' && src[1] <= '9'))
			dst[n++] = *src;
	}
	dst[n] = '\0';
}

/* What the verdict must be for these numbers. */
static const char *expected_word(double measured, double predicted, double tolerance_pct)
{
	double ratio = measured / predicted, tol = tolerance_pct / 100;

	if (ratio > 1 + tol)
		return "better";
	return ratio < 1 - tol ? "worse" : "as predicted";
}

/* "| Verdict | as predicted: 1,381 vs 1,373 IOPS (±10 %) | ... |": each cell's word
 * against its numbers.  Returns how many cells it checked. */
static int check_verdict_row(struct checks *checks, const char *line)
{
	char copy[1024], *save = NULL;
	int cells = 0;

	strip_commas(copy, sizeof(copy), line + strlen("| Verdict |"));
	for (char *cell = strtok_r(copy, "|", &save); cell; cell = strtok_r(NULL, "|", &save)) {
		char word[64], unit[16];
		double m, p, tol;
		if (sscanf(cell, " %63[^:]: %lf vs %lf %15s (\xc2\xb1%lf", word, &m, &p, unit,
			   &tol) != 5) {
			CHECK(strstr(cell, "not predicted") != NULL ||
			      strspn(cell, " \n") == strlen(cell));
			continue;
		}
		cells++;
		if (!CHECK(!strcmp(word, expected_word(m, p, tol))))
			fprintf(stderr, "verdict cell contradicts its numbers: %s\n", cell);
	}
	return cells;
}

/* The number after `key` in s, or NaN when key is not there. */
static double number_after(const char *s, const char *key)
{
	const char *at = strstr(s, key);
	double v;

	return at && sscanf(at + strlen(key), "%lf", &v) == 1 ? v : NAN;
}

/* One finding of verdict.c: the word against measured / predicted, the
 * prediction against the lowest bound listed, and the bound named. */
static void check_finding(struct checks *checks, const char *raw)
{
	char s[1024];
	const char *colon, *bound;
	double m, p, tol, lowest = HUGE_VAL;
	double listed[3];
	const char *names[3] = { "volume", "instance", "latency" };
	size_t at = 0;

	strip_commas(s, sizeof(s), raw);
	colon = strstr(s, ": ");
	bound = strstr(s, ", bound by ");
	CHECK(colon && bound && sscanf(colon + 2, "%lf", &m) == 1);
	p = number_after(s, "; predicted ");
	tol = strstr(s, "as predicted (within ") ? number_after(s, "as predicted (within ")
						 : number_after(s, "(by more than ");
	const char *word = strstr(s, ": as predicted (") ? "as predicted"
			   : strstr(s, ": better than ") ? "better"
							 : "worse";
	if (!CHECK(!strcmp(word, expected_word(m, p, tol))))
		fprintf(stderr, "finding contradicts its numbers: %s\n", raw);
	listed[0] = number_after(s, "the volume allows ");
	listed[1] = number_after(s, ", the instance ");
	listed[2] = number_after(s, "(mean latency) ");
	for (size_t i = 0; i < 3; i++) {
		if (isfinite(listed[i]) && listed[i] < lowest) {
			lowest = listed[i];
			at = i;
		}
	}
	/* min(bucket, latency, instance), each rounded to a whole number. */
	if (!CHECK_NEAR(p, lowest, 1.0))
		fprintf(stderr, "prediction is not the lowest bound: %s\n", raw);
	if (!CHECK(!strncmp(bound + strlen(", bound by "), names[at], strlen(names[at]))))
		fprintf(stderr, "named bound is not the lowest: %s\n", raw);
}

/* Every verdict row of the summary and every phase sentence of the
 * analysis (analysis.details) checked; returns the verdict cells seen. */
static int check_summary(struct checks *checks, const json_t *run, const char *md, int *findings)
{
	char *copy = strdup(md), *save = NULL;
	const json_t *sentence;
	size_t i;
	int cells = 0;

	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "| Verdict |", 11))
			cells += check_verdict_row(checks, line);
	}
	json_array_foreach(RESULTS_GET(run, "analysis", "details"), i, sentence)
	{
		const char *line = json_string_value(sentence);
		if (line && strstr(line, "; predicted ")) {
			check_finding(checks, line);
			++*findings;
		}
	}
	free(copy);
	return cells;
}

/* Each phase section carries the rows; every predicted phase is checked. */
static void test_every_phase_has_a_consistent_verdict(struct checks *checks)
{
	for (size_t f = 0; f < ARRAY_SIZE(fixtures); f++) {
		json_t *run = verdict_fixture(fixtures[f]);
		char *md = render(run);
		int findings = 0, cells;
		size_t phases = json_array_size(json_object_get(run, "phases"));
		CHECK(md != NULL);
		cells = check_summary(checks, run, md ? md : "", &findings);
		if (!CHECK(cells == (int)phases && findings == (int)phases))
			fprintf(stderr, "%s: %d verdict cells, %d findings, %zu phases\n",
				fixtures[f], cells, findings, phases);
		CHECK(md && strstr(md, "| Verdict per phase |"));
		free(md);
		json_decref(run);
	}
}

/* A phase better than predicted (gp3 seqread at twice its cap) renders a
 * consistent "better" too. */
static void test_better_is_consistent(struct checks *checks)
{
	json_t *run = verdict_fixture_raw(FIXTURE_QD1);
	json_t *p = json_array_get(json_object_get(run, "phases"), 9);
	struct ebs_prices prices = ebs_prices_default();
	int findings = 0;

	CHECK(!strcmp(verdict_str(p, "phase"), "seqread") &&
	      !strcmp(verdict_str(p, "device"), "gp3"));
	json_object_set_new(json_object_get(json_object_get(p, "job"), "read"), "iops",
			    json_real(500));
	analysis_build(run, &prices);
	char *md = render(run);
	CHECK(md && strstr(md, "| Verdict | as predicted: 250 vs 250 MiB/s (\xc2\xb1"
			       "10 %) | better: 500 vs 250 MiB/s"));
	CHECK(check_summary(checks, run, md ? md : "", &findings) == 12);
	free(md);
	json_decref(run);
}

/* The qd1 phase says in words that its latency bound it. */
static void test_words_name_the_bound(struct checks *checks)
{
	json_t *run = verdict_fixture(FIXTURE_QD1);
	char *md = render(run);

	CHECK(md && strstr(md, "| Predicted | 1,961 IOPS, bound by latency (iodepth / service "
			       "time) | 3,906 IOPS, bound by latency"));
	CHECK(md && strstr(md, "| Verdict | as predicted: 1,960 vs 1,961 IOPS (\xc2\xb1"
			       "10 %) |"));
	CHECK(md && strstr(md, "| Little's law | 1.0 in flight at qd1: service time, no queue |"));
	CHECK(md && strstr(md, "seqwrite worse |"));
	CHECK(md && !strstr(md, "part-empty"));
	free(md);
	json_decref(run);
}

/* The TL;DR note's figures agree with each other and with the cliff. */
static void test_part_empty_note(struct checks *checks)
{
	json_t *run = verdict_fixture(FIXTURE_PART_EMPTY);
	char *md = render(run), note[512] = "";
	const char *at = md ? strstr(md, "> **gp2 started with a part-empty bucket:** ") : NULL;
	double cliff, full, pct, credits, bucket;

	CHECK(at != NULL);
	if (at)
		strip_commas(note, sizeof(note), at);
	CHECK(sscanf(note,
		     "> **gp2 started with a part-empty bucket:** the cliff came at %lf s, not %lf "
		     "s: the bucket held about %lf %% (%lf M of %lf M credits)",
		     &cliff, &full, &pct, &credits, &bucket) == 5);
	CHECK_NEAR(pct, 100 * credits / bucket, 1);
	CHECK_NEAR(credits * 1e6, cliff * (3000 - 300), 0.01e6);
	CHECK_NEAR(full, 5.4e6 / (3000 - 300), 0.5);
	CHECK(md && strstr(md, "### gp2: credit cliff at 1,178 s"));
	CHECK_NEAR(cliff, 1178, 0.5);
	free(md);
	json_decref(run);
	/* A full bucket gets no note. */
	run = verdict_fixture(FIXTURE_REFERENCE);
	md = render(run);
	CHECK(md && !strstr(md, "part-empty"));
	free(md);
	json_decref(run);
}

/* A phase run in steps (the load curve's six) is one entry of the TL;DR's
 * "Verdict per phase" row, its verdicts counted, not six repeats. */
static void test_steps_counted_once(struct checks *checks)
{
	json_t *run = verdict_fixture(VERDICT_FIXTURE_DIR "results-seed000-loadcurve.json");
	char *md = render(run), *row = md ? strstr(md, "| Verdict per phase |") : NULL;
	char *end = row ? strchr(row, '\n') : NULL, *at;
	int named = 0, steps = 0;

	CHECK(row && end);
	if (end)
		*end = '\0';
	for (at = row; at && (at = strstr(at, "loadcurve")); at += 9)
		named++;
	for (at = row; at && (at = strstr(at, "loadcurve (6 steps: ")); at += 9)
		steps++;
	/* One entry per device (the row has a cell per device). */
	CHECK_EQ_U64((uint64_t)named, 2);
	CHECK_EQ_U64((uint64_t)steps, 2);
	free(md);
	json_decref(run);
}

CHECK_MAIN(test_every_phase_has_a_consistent_verdict, test_better_is_consistent,
	   test_words_name_the_bound, test_part_empty_note, test_steps_counted_once)
