/* test_demand.c - demand traces read from the AWS CLI's CloudWatch output
 * (both shapes, as the AWS CLI reference prints them), from the CSV, and
 * written back; bad input named by file, place and problem. */
#include <string.h>

#include "check.h"
#include "demand/demand.h"
#include "demand/internal.h"

/* get-metric-data for two volumes, newest first (the default), one entry
 * PartialData, a BurstBalance entry to skip, a gap at 10:02 for vol-0aaa
 * writes. */
static const char metric_data[] =
	"{\n"
	"    \"MetricDataResults\": [\n"
	"        {\"Id\": \"r1\", \"Label\": \"vol-0aaaaaaaaaaaaaaaa VolumeReadOps\",\n"
	"         \"Timestamps\": [\"2026-11-20T10:03:00+00:00\", \"2026-11-20T10:02:00+00:00\",\n"
	"                        \"2026-11-20T10:01:00+00:00\", \"2026-11-20T10:00:00+00:00\"],\n"
	"         \"Values\": [600.0, 1200.0, 60.0, 6000.0], \"StatusCode\": \"Complete\"},\n"
	"        {\"Id\": \"w1\", \"Label\": \"vol-0aaaaaaaaaaaaaaaa VolumeWriteOps\",\n"
	"         \"Timestamps\": [\"2026-11-20T10:03:00Z\", \"2026-11-20T10:00:00Z\"],\n"
	"         \"Values\": [60, 120], \"StatusCode\": \"PartialData\"},\n"
	"        {\"Id\": \"rb1\", \"Label\": \"vol-0aaaaaaaaaaaaaaaa VolumeReadBytes\",\n"
	"         \"Timestamps\": [\"2026-11-20T10:00:00Z\"], \"Values\": [24576000],\n"
	"         \"StatusCode\": \"Complete\"},\n"
	"        {\"Id\": \"bb\", \"Label\": \"vol-0aaaaaaaaaaaaaaaa BurstBalance\",\n"
	"         \"Timestamps\": [\"2026-11-20T10:00:00Z\"], \"Values\": [99.0],\n"
	"         \"StatusCode\": \"Complete\"},\n"
	"        {\"Id\": \"vol0bbbbbbbbbbbbbbbb_readops\", \"Label\": \"VolumeReadOps\",\n"
	"         \"Timestamps\": [\"2026-11-20T10:00:00Z\", \"2026-11-20T10:05:00Z\"],\n"
	"         \"Values\": [3000, 300], \"StatusCode\": \"Complete\"}\n"
	"    ],\n"
	"    \"Messages\": []\n"
	"}\n";

static const struct demand_trace *find(const struct demand_set *s, const char *vol)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].volume, vol))
			return &s->v[i];
	return NULL;
}

static void test_metric_data(struct checks *checks)
{
	struct demand_set set = { 0 };
	char err[256] = "";

	CHECK(demand_read_text("md.json", metric_data, strlen(metric_data), &set, err,
			       sizeof(err)) == 0);
	CHECK_EQ_U64(set.n, 2);
	const struct demand_trace *a = find(&set, "vol-0aaaaaaaaaaaaaaaa");
	const struct demand_trace *b = find(&set, "vol-0bbbbbbbbbbbbbbbb");
	if (!CHECK(a && b)) {
		fprintf(stderr, "%s\n", err);
		return;
	}
	/* Oldest first, whatever the order of the file. */
	CHECK_EQ_U64(a->n, 4);
	CHECK_NEAR(a->interval_s, 60, 0);
	CHECK_NEAR(a->p[0].t, 1795168800, 0); /* 2026-11-20T10:00:00Z */
	CHECK_NEAR(a->p[0].read_ops, 6000, 0);
	CHECK_NEAR(a->p[0].write_ops, 120, 0);
	CHECK_NEAR(a->p[0].read_bytes, 24576000, 0);
	CHECK_NEAR(a->p[3].read_ops, 600, 0);
	CHECK_NEAR(a->p[3].write_ops, 60, 0);
	CHECK_EQ_U64(a->gaps, 0);
	CHECK(a->partial);
	CHECK_EQ_U64(a->metrics, DEMAND_M_READ_OPS | DEMAND_M_WRITE_OPS | DEMAND_M_READ_BYTES);
	/* BurstBalance: no demand, the bucket's first and lowest balance. */
	CHECK_NEAR(a->balance_first_pct, 99, 0);
	CHECK_NEAR(a->balance_min_pct, 99, 0);
	CHECK(isnan(b->balance_first_pct));
	/* Five minutes apart: the period is 300 s, no gap. */
	CHECK_EQ_U64(b->n, 2);
	CHECK_NEAR(b->interval_s, 300, 0);
	CHECK(!b->partial);
	struct demand_stats s = demand_stats_of(a);
	CHECK_NEAR(s.seconds, 240, 0);
	CHECK_NEAR(s.peak_iops, 6120 / 60.0, 1e-9);
	CHECK_NEAR(s.mean_iops, (6000 + 60 + 1200 + 600 + 120 + 60) / 240.0, 1e-9);
	demand_set_free(&set);
}

/* get-metric-statistics: Datapoints in no order, one metric a file; two
 * files of one volume (named in the file names) merge. */
static void test_metric_statistics(struct checks *checks)
{
	static const char reads[] = "{\"Label\": \"VolumeReadOps\", \"Datapoints\": [\n"
				    " {\"Timestamp\": \"2026-11-20T10:10:00+00:00\", \"Sum\": "
				    "50.0, \"Unit\": \"Count\"},\n"
				    " {\"Timestamp\": \"2026-11-20T10:00:00+00:00\", \"Sum\": "
				    "30.0, \"Unit\": \"Count\"},\n"
				    " {\"Timestamp\": \"2026-11-20T10:05:00+00:00\", \"Sum\": "
				    "40.0, \"Unit\": \"Count\"}]}";
	static const char writes[] =
		"{\"Label\": \"VolumeWriteOps\", \"Datapoints\": [\n"
		" {\"Timestamp\": \"2026-11-20T10:05:00+00:00\", \"Average\": 2.5,"
		" \"SampleCount\": 4.0, \"Unit\": \"Count\"}]}";
	struct demand_set set = { 0 };
	char err[256] = "";

	CHECK(demand_read_text("vol-0ccccccccccccccc1-reads.json", reads, strlen(reads), &set, err,
			       sizeof(err)) == 0);
	CHECK(demand_read_text("x/vol-0ccccccccccccccc1-writes.json", writes, strlen(writes), &set,
			       err, sizeof(err)) == 0);
	if (!CHECK_EQ_U64(set.n, 1)) {
		fprintf(stderr, "%s\n", err);
		return;
	}
	const struct demand_trace *t = &set.v[0];
	CHECK(!strcmp(t->volume, "vol-0ccccccccccccccc1"));
	CHECK_EQ_U64(t->n, 3);
	CHECK_NEAR(t->interval_s, 300, 0);
	CHECK_NEAR(t->p[0].read_ops, 30, 0);
	CHECK_NEAR(t->p[1].read_ops, 40, 0);
	CHECK_NEAR(t->p[1].write_ops, 10, 0); /* Average x SampleCount */
	CHECK_NEAR(t->p[2].read_ops, 50, 0);
	/* BurstBalance by its Average, in no order: the first in time, the lowest. */
	static const char balance[] = "{\"Label\": \"BurstBalance\", \"Datapoints\": [\n"
				      " {\"Timestamp\": \"2026-11-20T10:05:00Z\", \"Average\": "
				      "40.0, \"Unit\": \"Percent\"},\n"
				      " {\"Timestamp\": \"2026-11-20T10:00:00Z\", \"Average\": "
				      "60.0, \"Unit\": \"Percent\"},\n"
				      " {\"Timestamp\": \"2026-11-20T10:10:00Z\", \"Minimum\": "
				      "45.0, \"Unit\": \"Percent\"}]}";
	CHECK(demand_read_text("vol-0ccccccccccccccc1-balance.json", balance, strlen(balance), &set,
			       err, sizeof(err)) == 0);
	CHECK_EQ_U64(set.v[0].n, 3); /* no points of its own */
	CHECK_NEAR(set.v[0].balance_first_pct, 60, 0);
	CHECK_NEAR(set.v[0].balance_min_pct, 40, 0);
	CHECK_NEAR(set.v[0].balance_min_t, 1795168800 + 300, 0);
	CHECK_NEAR(set.v[0].p[1].write_ops, 10, 0); /* kept through the merge */
	demand_set_free(&set);
}

/* The CSV: columns in any order, comments, a gap, written and read back. */
static void test_csv(struct checks *checks)
{
	static const char csv[] = "# a comment\n"
				  "read_ops, time, write_bytes\n"
				  "600, 2026-11-20T10:00:00Z, 1048576\n"
				  "\n"
				  "60, 1795168810, 0\n"
				  "30, 2026-11-20T10:00:40.500Z, 5\n";
	struct demand_set set = { 0 }, back = { 0 };
	char err[256] = "", *buf = NULL;
	size_t len = 0;

	CHECK(demand_read_text("t.csv", csv, strlen(csv), &set, err, sizeof(err)) == 0);
	if (!CHECK_EQ_U64(set.n, 1)) {
		fprintf(stderr, "%s\n", err);
		return;
	}
	const struct demand_trace *t = &set.v[0];
	CHECK(!strcmp(t->volume, "volume"));
	CHECK_EQ_U64(t->n, 3);
	CHECK_NEAR(t->interval_s, 10, 0);
	CHECK_EQ_U64(t->gaps, 2); /* 10:00:20 and 10:00:30 are missing */
	CHECK_NEAR(t->p[2].t - t->p[0].t, 40.5, 1e-9);
	CHECK_NEAR(t->p[0].write_bytes, 1048576, 0);
	FILE *f = open_memstream(&buf, &len);
	CHECK(f && demand_write_csv(f, t) == 0);
	fclose(f);
	CHECK(demand_read_text("back.csv", buf, len, &back, err, sizeof(err)) == 0);
	if (CHECK_EQ_U64(back.n, 1) && CHECK_EQ_U64(back.v[0].n, 3)) {
		CHECK_NEAR(back.v[0].interval_s, 10, 0);
		CHECK_NEAR(back.v[0].p[2].t, t->p[2].t, 1e-6);
		CHECK_NEAR(back.v[0].p[1].read_ops, 60, 0);
	}
	free(buf);
	demand_set_free(&set);
	demand_set_free(&back);
}

/* Each bad input: one line naming the file, the place and the problem. */
static void test_bad_input(struct checks *checks)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "{\"MetricDataResults\": 3}", "f: MetricDataResults: not an array" },
		{ "{\"MetricDataResults\": [{\"Label\": \"VolumeReadOps\", \"Timestamps\": "
		  "[\"2026-11-20T10:00:00Z\"], \"Values\": [1, 2]}]}",
		  "f: MetricDataResults[0]: 1 Timestamps but 2 Values" },
		{ "{\"MetricDataResults\": [{\"Label\": \"VolumeReadOps\", \"Timestamps\": "
		  "[\"yesterday\"], \"Values\": [1]}]}",
		  "f: MetricDataResults[0].Timestamps[0]: not an ISO 8601 time" },
		{ "{\"MetricDataResults\": [{\"Label\": \"VolumeReadOps\", \"Timestamps\": "
		  "[\"2026-11-20T10:00:00Z\"], \"Values\": [-1]}]}",
		  "f: MetricDataResults[0].Values[0]: not a count (a number, 0 or more)" },
		{ "{\"MetricDataResults\": [{\"Label\": \"BurstBalance\", \"Timestamps\": [], "
		  "\"Values\": []}]}",
		  "f: MetricDataResults: no VolumeReadOps, VolumeWriteOps, VolumeReadBytes or "
		  "VolumeWriteBytes in any Label or Id" },
		{ "{\"Label\": \"VolumeReadOps\", \"Datapoints\": [{\"Timestamp\": "
		  "\"2026-11-20T10:00:00Z\", \"Maximum\": 3}]}",
		  "f: Datapoints[0]: no Sum, 0 or more (ask --statistics Sum)" },
		{ "{\"Label\": \"CPUUtilization\", \"Datapoints\": []}",
		  "f: Label: 'CPUUtilization' is not VolumeReadOps, VolumeWriteOps, "
		  "VolumeReadBytes, VolumeWriteBytes or BurstBalance" },
		{ "{\"Label\": \"BurstBalance\", \"Datapoints\": [{\"Timestamp\": "
		  "\"2026-11-20T10:00:00Z\", \"Sum\": 3}]}",
		  "f: Datapoints[0]: no Average or Minimum, 0 or more" },
		{ "{\"a\": 1}",
		  "f: JSON without MetricDataResults (aws cloudwatch get-metric-data) "
		  "or Datapoints (get-metric-statistics)" },
		{ "{\"a\": ", "f:1:6: not JSON: unexpected token near end of file" },
		{ "time,reads\n", "f:1: unknown column 'reads' (time, volume, interval_s, "
				  "read_ops, write_ops, read_bytes, write_bytes)" },
		{ "time,read_ops\n1,2\n3\n", "f:3: 1 fields, the header has 2" },
		{ "time,read_ops\n1,x\n", "f:2: read_ops 'x' is not a number 0 or more" },
		{ "time,read_ops\n2026-13-01T00:00:00Z,1\n",
		  "f:2: time '2026-13-01T00:00:00Z' is neither ISO 8601 nor Unix seconds" },
		{ "read_ops\n1\n", "f:1: the header needs a time column and at least one of "
				   "read_ops, write_ops, read_bytes, write_bytes" },
		{ "time,read_ops\n", "f:1: no rows after the header" },
		{ "", "f:0: empty: want a CSV header (time,read_ops,...), or CloudWatch JSON" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct demand_set set = { 0 };
		char err[256] = "";
		CHECK(demand_read_text("f", cases[i].text, strlen(cases[i].text), &set, err,
				       sizeof(err)) == -1);
		if (!CHECK(!strcmp(err, cases[i].want)))
			fprintf(stderr, "case %zu: got '%s'\n", i, err);
		demand_set_free(&set);
	}
}

/* ISO 8601 in the forms the AWS CLI and users write, and Unix seconds. */
static void test_time(struct checks *checks)
{
	double t = 0;
	CHECK(demand_parse_time("2026-11-20T10:00:00+00:00", &t) == 0 &&
	      CHECK_NEAR(t, 1795168800, 0));
	CHECK(demand_parse_time("2026-11-20T19:00:00+09:00", &t) == 0 &&
	      CHECK_NEAR(t, 1795168800, 0));
	CHECK(demand_parse_time("2026-11-20 10:00:00.25", &t) == 0 &&
	      CHECK_NEAR(t, 1795168800.25, 1e-9));
	CHECK(demand_parse_time("1795168800", &t) == 0 && CHECK_NEAR(t, 1795168800, 0));
	CHECK(demand_parse_time("2026-11-20T10:00:00+0", &t) == -1);
	CHECK(demand_parse_time("2026-11-20T10:00", &t) == -1);
	CHECK(demand_parse_time("2026-11-20T10:00:00Zjunk", &t) == -1);
}

/* A 1 s trace with one 10 s burst at 5x the minute's other seconds. */
static void test_peak_to_mean(struct checks *checks)
{
	struct demand_trace tr = { .interval_s = 1, .n = 120 };
	tr.p = calloc(tr.n, sizeof(*tr.p));
	if (!CHECK(tr.p))
		return;
	for (size_t i = 0; i < tr.n; i++) {
		tr.p[i].t = 1795168800 + (double)i;
		tr.p[i].read_ops = i >= 60 && i < 70 ? 500 : 100;
	}
	/* Minute 2: 10 s at 500 and 50 at 100: 10,000 / 60 = 166.7 a second
	 * on average, 500 at the peak: 3. */
	CHECK_NEAR(demand_peak_to_mean(&tr, 60), 3, 1e-9);
	tr.interval_s = 60;
	CHECK_NEAR(demand_peak_to_mean(&tr, 60), 1, 0);
	free(tr.p);
}

CHECK_MAIN(test_metric_data, test_metric_statistics, test_csv, test_bad_input, test_time,
	   test_peak_to_mean)
