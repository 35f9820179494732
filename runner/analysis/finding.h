/* finding.h - the analysis's sentences, each with what it decides.  Every
 * sentence stays in analysis.details (run order); analysis.findings holds
 * the FINDINGS_MAX that decide most, ranked: a person reads eight, and the
 * per-phase sentences behind them are in the phase tables and results.json. */
#ifndef EBSBENCH_FINDING_H
#define EBSBENCH_FINDING_H

#include <jansson.h>
#include <stdbool.h>

#define FINDINGS_MAX 8

/* What a sentence decides, most first. */
enum finding_rank {
	FINDING_START_STATE,   /* the cliff and the bucket it started with */
	FINDING_DELIVERED,     /* a volume delivering less than it is sold as */
	FINDING_LIMIT,	       /* whose limit bound it: the volume's or the instance's */
	FINDING_KNEE,	       /* the load it holds its latency to */
	FINDING_DESIGN_TARGET, /* AWS's own delivery target, met or missed */
	FINDING_OFF_MODEL,     /* phases the model did not explain */
	FINDING_MEASUREMENT,   /* how far the measurement itself can be trusted */
	FINDING_DETAIL,	       /* a phase's own sentence: details only */
};

/* Adds {"rank", "text"} to list (the analysis's working list). */
void finding_add(json_t *list, enum finding_rank rank, const char *text);

/* The working list as results.json keeps it: *findings the first
 * FINDINGS_MAX by rank (ties in run order), details every text. */
void finding_split(const json_t *list, json_t **findings, json_t **details);

/* A bucket's balance in its own unit: "0.31 M of 0.51 M credits" (gp2's
 * I/O credits; of NaN: "0.31 M credits"), or for a throughput bucket
 * (st1/sc1, credits in MiB) "307 of 500 GiB of credit".  Returns buf. */
const char *finding_credits(char *buf, size_t len, double credits, double of, bool mib);

/* The text of a working-list entry (tests and callers reading it back). */
const char *finding_text(const json_t *entry);

#endif
