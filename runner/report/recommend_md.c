/* recommend_md.c - `ebsbench recommend` told: recommend.md (and the same
 * table on stdout), and the --json document, from the search's figures
 * (analysis/recommend.c), so every sentence shows its own numbers.  Labels,
 * prices' names and sentences go through md_table.c's escaping. */
#include "report/recommend_md.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/lib.h"
#include "report/md_table.h"
#include "report/report_analysis.h"
#include "report/report_format.h"

/* "+$102.60", "-$2.28", "$0.00"; the missing mark when unknown. */
static const char *delta_text(char *buf, size_t len, double usd)
{
	size_t o = 0;

	if (!isfinite(usd) || len < 2)
		return report_missing(buf, len);
	if (fabs(usd) >= 0.005)
		buf[o++] = usd < 0 ? '-' : '+';
	report_usd(buf + o, len - o, fabs(usd));
	return buf;
}

/* "gp2, 100 GiB, 300 IOPS, 128 MiB/s". */
static void volume_text(FILE *out, const struct ebs_volume *v)
{
	char gib[REPORT_NUM_LEN], iops[REPORT_NUM_LEN];

	fprintf(out, "%s, %s GiB, %s IOPS, %.0f MiB/s", ebs_type_name(v->type),
		report_count(gib, sizeof(gib), v->size_gib),
		report_count(iops, sizeof(iops), ebs_volume_iops(v)), ebs_volume_mibs(v));
}

/* What the volume delivered and the need it sets, in one paragraph. */
static void write_need(FILE *out, const struct recommend_device *d)
{
	const struct recommend_delivered *del = &d->delivered;
	const struct recommend_need *n = &d->need;
	char a[REPORT_NUM_LEN], b[REPORT_NUM_LEN];

	fprintf(out, "Delivered: %s IOPS (4k randread qd32)",
		report_count(a, sizeof(a), del->burst_iops));
	if (isfinite(del->burst_s)) {
		char c[REPORT_NUM_LEN];
		fprintf(out, " on burst until %s s of the run, then %s sustained",
			report_count(b, sizeof(b), del->burst_s),
			report_count(c, sizeof(c), del->sustained_iops));
	}
	fprintf(out, "; %s sequential (1 MiB). Rated: %s IOPS, %.0f MiB/s.\n\n",
		report_mibs(a, sizeof(a), del->seq_mibs * MIB),
		report_count(b, sizeof(b), del->rated_iops), del->rated_mibs);
	fprintf(out, "Need (%s): %s IOPS and %.0f MiB/s sustained at %s GiB",
		n->measured ? "the same as this volume, sustained: its burst kept as its baseline, "
			      "at the rated figures it reached within 10 %"
			    : "given; 0: none beyond the type's minimum",
		report_count(a, sizeof(a), n->iops), n->mibs, report_count(b, sizeof(b), n->gib));
	if (n->p99_ms > 0)
		fprintf(out, ", p99 at most %.2f ms", n->p99_ms);
	fputs(".\n\n", out);
}

/* The p99 cell's text: the measured value and where, or why not. */
static const char *p99_text(char *buf, size_t len, const struct recommend_candidate *c)
{
	char at[REPORT_NUM_LEN], ms[REPORT_NUM_LEN];

	if (c->p99.state != P99_MEASURED) {
		snprintf(buf, len, "not measured at this load");
		return buf;
	}
	snprintf(buf, len, "%s (%s, %s at %s IOPS)%s", report_ms(ms, sizeof(ms), c->p99.ms * 1e6),
		 c->p99.device, c->p99.phase, report_count(at, sizeof(at), c->p99.at_iops),
		 c->p99.meets	? ""
		 : c->p99.bound ? ": saturated, above the p99 asked; at this load not measured"
				: ": above the p99 asked");
	return buf;
}

/* Each candidate's reasons, a bullet each, and the blank line after. */
static void write_reasons(FILE *out, const struct recommend_device *d)
{
	for (int i = 0; i < d->ncand; i++) {
		for (size_t r = 0; r < d->cand[i].nreasons; r++) {
			fprintf(out, "- %s: ", ebs_type_name(d->cand[i].type));
			md_text(out, d->cand[i].reasons[r]);
			fputc('\n', out);
		}
	}
	fputc('\n', out);
}

/* A candidate's first two cells, its type and size; false when it cannot
 * serve: its row of ncols cells is then written whole, "cannot". */
static bool row_start(FILE *out, const struct recommend_candidate *c, size_t ncols,
		      char type[REPORT_NUM_LEN], char gib[REPORT_NUM_LEN + 4])
{
	snprintf(type, REPORT_NUM_LEN, "%s%s%s", c->chosen ? "**" : "", ebs_type_name(c->type),
		 c->chosen ? "** (chosen)" : "");
	if (!c->feasible) {
		fprintf(out, "| %s | cannot |", type);
		for (size_t i = 2; i < ncols; i++)
			fputs(" |", out);
		fputc('\n', out);
		return false;
	}
	report_count(gib, REPORT_NUM_LEN, c->volume.size_gib);
	strcat(gib, " GiB");
	return true;
}

/* One row of the candidates' table. */
static void write_row(FILE *out, const struct recommend_candidate *c)
{
	char type[REPORT_NUM_LEN], gib[REPORT_NUM_LEN + 4], iops[REPORT_NUM_LEN],
		mibs[REPORT_NUM_LEN], usd[REPORT_NUM_LEN], delta[REPORT_NUM_LEN], p99[256];

	if (!row_start(out, c, 7, type, gib))
		return;
	const char *cells[] = { type,
				gib,
				report_count(iops, sizeof(iops), c->iops),
				report_count(mibs, sizeof(mibs), c->mibs),
				report_usd(usd, sizeof(usd), c->monthly_usd),
				delta_text(delta, sizeof(delta), c->delta_usd),
				p99_text(p99, sizeof(p99), c) };
	md_table_row(out, cells, ARRAY_SIZE(cells));
}

/* One device: its volume and cost, the need, the table, the choice and why. */
static void write_device(FILE *out, const struct recommend_device *d)
{
	static const char *const head[] = {
		"Type",
		"Size",
		"IOPS",
		"MiB/s",
		"Monthly",
		"Delta",
		"p99 at the need (scheduled issue to completion)",
	};
	char usd[REPORT_NUM_LEN];

	fputs("## ", out);
	md_text(out, d->label);
	fputs(" (", out);
	volume_text(out, &d->current);
	fprintf(out, "): %s a month\n\n", report_usd(usd, sizeof(usd), d->current_usd));
	write_need(out, d);
	md_table_head(out, head, ARRAY_SIZE(head));
	for (int i = 0; i < d->ncand; i++)
		write_row(out, &d->cand[i]);
	fputs("\n**", out);
	md_text(out, d->summary);
	fputs("**\n\nWhy:\n\n", out);
	write_reasons(out, d);
}

/* "# Recommendation" and the prices' line. */
static void write_prices(FILE *out, const struct ebs_prices *prices)
{
	fputs("# Recommendation\n\nPrices: ", out);
	md_text(out, prices->region ? prices->region : "unknown region");
	fputs(" (", out);
	md_text(out, prices->as_of ? prices->as_of : "undated");
	fputs("; ", out);
	md_text(out, prices->source);
	fputs(").\n\n", out);
}

void recommend_md_devices(FILE *out, const struct recommend_device *d, size_t n,
			  const struct ebs_prices *prices)
{
	write_prices(out, prices);
	if (!n)
		fputs("No EBS volume in these results: nothing to recommend.\n", out);
	for (size_t i = 0; i < n; i++)
		write_device(out, &d[i]);
}

/* t as "2026-11-20 10:43 UTC" (seconds when they are not 0). */
static const char *when_text(char *buf, size_t len, double t)
{
	time_t whole = (time_t)floor(t);
	struct tm tm;

	if (!isfinite(t) || !gmtime_r(&whole, &tm))
		return report_missing(buf, len);
	strftime(buf, len, tm.tm_sec ? "%Y-%m-%d %H:%M:%S UTC" : "%Y-%m-%d %H:%M UTC", &tm);
	return buf;
}

/* The trace: its span, interval, gaps, mean and peak, and what its
 * interval hides. */
static void write_trace(FILE *out, const struct demand_answer *a)
{
	const struct demand_stats *s = &a->stats;
	char from[40], peak_at[40], c1[REPORT_NUM_LEN], c2[REPORT_NUM_LEN];

	fprintf(out, "Demand: %.0f-second intervals from %s over %.1f hours", a->interval_s,
		when_text(from, sizeof(from), a->t0), s->seconds / 3600);
	if (a->gaps)
		fprintf(out, ", %zu missing (read as idle)", a->gaps);
	if (a->partial)
		fputs(", partial (CloudWatch said PartialData or left a NextToken)", out);
	if ((a->metrics & DEMAND_M_ALL) != DEMAND_M_ALL)
		fputs(", not all four of VolumeReadOps, VolumeWriteOps, VolumeReadBytes and "
		      "VolumeWriteBytes (the others read as 0)",
		      out);
	fprintf(out, ". Mean %s IOPS and %.1f MiB/s; peak %s IOPS (at %s) and %.1f MiB/s.\n\n",
		report_count(c1, sizeof(c1), s->mean_iops), s->mean_mibs,
		report_count(c2, sizeof(c2), s->peak_iops),
		when_text(peak_at, sizeof(peak_at), s->peak_t), s->peak_mibs);
	if (a->peak_factor > 1)
		fprintf(out,
			"Within an interval the peak runs %.2f times the mean (the peak-to-mean "
			"factor given): candidates are sized for it.\n\n",
			a->peak_factor);
	else if (a->interval_s > 10)
		fprintf(out,
			"Each %.0f-second interval is an average: bursts shorter than it are not "
			"seen. An `ebsbench observe` trace (--peak-from) or --peak-factor sizes "
			"for them.\n\n",
			a->interval_s);
}

/* One replay in words: never throttled, or how much, how long, when dry. */
static void replay_text(FILE *out, const struct demand_sim_result *r)
{
	char w[40];

	if (r->share <= 0)
		fputs("never throttled", out);
	else
		fprintf(out,
			"throttled %.2f %% of the time (%s), the longest stretch %.0f s from %s",
			100 * r->share, ebs_bound_name(r->bound), r->worst_s,
			when_text(w, sizeof(w), r->worst_start));
	if (r->hidden_s > 0)
		fprintf(out, ", %.0f s of it only at the peak factor's peak", r->hidden_s);
	if (r->max_backlog_units > 0) {
		char c[REPORT_NUM_LEN];
		fprintf(out, "; the backlog reached %s I/O (%.0f s of its sustained rate)",
			report_count(c, sizeof(c), r->max_backlog_units), r->max_backlog_s);
	}
	if (isfinite(r->dry_at))
		fprintf(out, "; its bucket ran dry at %s and stayed empty %.0f s",
			when_text(w, sizeof(w), r->dry_at), r->dry_s);
	else if (isfinite(r->min_credit_pct))
		fprintf(out, "; its bucket never ran dry (lowest %.0f %%)", r->min_credit_pct);
}

/* The bucket's balance across the trace, as one row of samples. */
static void write_balance(FILE *out, const char *whose, const struct demand_sim_result *r)
{
	char w[40];

	if (!r->nbalance)
		return;
	fprintf(out, "Credit balance of the %s (lowest in each stretch):\n\n| When |", whose);
	for (size_t k = 0; k < r->nbalance; k++)
		if (isfinite(r->balance[k].percent))
			fprintf(out, " %s |", when_text(w, sizeof(w), r->balance[k].t));
	size_t columns = 1;
	for (size_t k = 0; k < r->nbalance; k++)
		columns += isfinite(r->balance[k].percent);
	fputc('\n', out);
	md_table_rule(out, columns);
	fputs("| % |", out);
	for (size_t k = 0; k < r->nbalance; k++)
		if (isfinite(r->balance[k].percent))
			fprintf(out, " %.0f |", r->balance[k].percent);
	fputs("\n\n", out);
}

/* One candidate's row, with its replay. */
static void write_demand_row(FILE *out, const struct recommend_candidate *c,
			     const struct demand_sim_result *r)
{
	char type[REPORT_NUM_LEN], gib[REPORT_NUM_LEN + 4], iops[REPORT_NUM_LEN],
		mibs[REPORT_NUM_LEN], usd[REPORT_NUM_LEN], delta[REPORT_NUM_LEN], thr[32],
		worst[32], p99[256];

	if (!row_start(out, c, 9, type, gib))
		return;
	snprintf(thr, sizeof(thr), "%.2f %%", 100 * r->share);
	snprintf(worst, sizeof(worst), "%.0f s", r->worst_s);
	const char *cells[] = { type,
				gib,
				report_count(iops, sizeof(iops), c->iops),
				report_count(mibs, sizeof(mibs), ebs_volume_mibs(&c->volume)),
				report_usd(usd, sizeof(usd), c->monthly_usd),
				delta_text(delta, sizeof(delta), c->delta_usd),
				thr,
				worst,
				p99_text(p99, sizeof(p99), c) };
	md_table_row(out, cells, ARRAY_SIZE(cells));
}

void recommend_demand_chart_name(const char *label, char *out, size_t cap)
{
	int n = snprintf(out, cap, "demand-%s", label);
	for (int i = 7; n > 0 && i < n && (size_t)i < cap; i++)
		if (!isalnum((unsigned char)out[i]) && out[i] != '.' && out[i] != '-' &&
		    out[i] != '_')
			out[i] = '_';
	if (n > 0 && (size_t)n + 4 < cap)
		strcat(out, ".svg");
}

static void write_demand(FILE *out, const struct demand_answer *a, bool charts)
{
	static const char *const head[] = {
		"Type",	     "Size",	"IOPS",
		"MiB/s",     "Monthly", "Delta",
		"Throttled", "Longest", "p99 at the demand (scheduled issue to completion)",
	};
	const struct recommend_device *d = &a->rec;
	char c1[REPORT_NUM_LEN];

	fputs("## ", out);
	md_text(out, d->label);
	fputs(" (demand)\n\n", out);
	write_trace(out, a);
	if (charts) {
		char name[64];
		recommend_demand_chart_name(d->label, name, sizeof(name));
		fprintf(out, "![demand against each volume's IOPS](%s)\n\n", name);
	}
	if (a->has_current) {
		char usd[REPORT_NUM_LEN];
		fputs("Current volume: ", out);
		volume_text(out, &d->current);
		fprintf(out, ", %s a month: ", report_usd(usd, sizeof(usd), d->current_usd));
		replay_text(out, &a->current);
		fputs(".\n\n", out);
	}
	if (isfinite(a->balance_first_pct)) {
		char at[40];
		fprintf(out,
			"CloudWatch's BurstBalance: %.0f %% at the start (the current volume's "
			"replay starts there), lowest %.0f %% at %s.\n\n",
			a->balance_first_pct, a->balance_min_pct,
			when_text(at, sizeof(at), a->balance_min_t));
	}
	fprintf(out,
		"Need: %s IOPS (in 256 KiB units) and %.0f MiB/s, the trace's %s%s; %s of "
		"the time may throttle.\n\n",
		report_count(c1, sizeof(c1), d->need.iops), d->need.mibs,
		a->budget > 0 ? "rate at the budget's quantile" : "peak",
		a->peak_factor > 1 ? " times the peak factor" : "",
		a->budget > 0 ? "at most the budget" : "none");
	md_table_head(out, head, ARRAY_SIZE(head));
	for (int i = 0; i < d->ncand; i++)
		write_demand_row(out, &d->cand[i], &a->sim[i]);
	fputs("\n**", out);
	md_text(out, d->summary);
	fputs("**\n\n", out);
	if (a->has_current && a->current.nbalance)
		write_balance(out, "current volume", &a->current);
	else if (d->ncand && a->sim[d->ncand - 1].nbalance) /* gp2, --demand's last */
		write_balance(out, "gp2 candidate", &a->sim[d->ncand - 1]);
	fputs("Why:\n\n", out);
	write_reasons(out, d);
}

void recommend_md_demand(FILE *out, const struct demand_answer *a, size_t n,
			 const struct ebs_prices *prices, bool charts)
{
	write_prices(out, prices);
	for (size_t i = 0; i < n; i++)
		write_demand(out, &a[i], charts);
}

int recommend_md_write(FILE *out, json_t *const *runs, size_t nruns)
{
	struct recommend_device *found = calloc(RECOMMEND_MAX_DEVICES, sizeof(*found));
	struct recommend_ask none = { 0 };

	if (!found)
		return -1;
	for (size_t r = 0; r < nruns; r++) {
		struct ebs_prices prices;
		struct report_price_names names;
		report_prices_to_decide(runs[r], &prices, &names);
		size_t n = recommend_all(runs[r], &none, &prices, found, RECOMMEND_MAX_DEVICES);
		if (nruns > 1)
			fprintf(out, "<!-- run %zu -->\n", r + 1);
		recommend_md_devices(out, found, n, &prices);
	}
	free(found);
	return ferror(out) ? -1 : 0;
}

/* A number, or null when unknown. */
static json_t *num_or_null(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

/* One candidate as JSON, with its reasons. */
static json_t *candidate_json(const struct recommend_candidate *c)
{
	json_t *reasons = json_array();
	for (size_t i = 0; i < c->nreasons; i++)
		json_array_append_new(reasons, json_string(c->reasons[i]));
	json_t *p99 = json_pack("{s:b,s:o,s:o,s:s?,s:s?,s:b,s:b}", "measured",
				c->p99.state == P99_MEASURED, "ms", num_or_null(c->p99.ms),
				"at_iops", num_or_null(c->p99.at_iops), "device",
				c->p99.device[0] ? c->p99.device : NULL, "phase",
				c->p99.phase[0] ? c->p99.phase : NULL, "meets", c->p99.meets,
				"bound", c->p99.bound);
	return json_pack("{s:s,s:b,s:b,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "type",
			 ebs_type_name(c->type), "feasible", c->feasible, "chosen", c->chosen,
			 "size_gib", c->feasible ? json_real(c->volume.size_gib) : json_null(),
			 "iops", num_or_null(c->feasible ? c->iops : NAN), "throughput_mibs",
			 num_or_null(c->feasible ? c->mibs : NAN), "monthly_usd",
			 num_or_null(c->monthly_usd), "delta_usd", num_or_null(c->delta_usd), "p99",
			 p99, "reasons", reasons);
}

/* One device as JSON: the volume, what it delivered, the need, the candidates. */
static json_t *device_json(const struct recommend_device *d)
{
	const struct ebs_volume *v = &d->current;
	const struct recommend_delivered *del = &d->delivered;
	json_t *cands = json_array();
	for (int i = 0; i < d->ncand; i++)
		json_array_append_new(cands, candidate_json(&d->cand[i]));
	return json_pack(
		"{s:s,s:s?,s:{s:s,s:f,s:f,s:f,s:o},s:{s:o,s:o,s:o,s:o,s:f,s:f},"
		"s:{s:f,s:f,s:o,s:f,s:b},s:o,s:o,s:s}",
		"device", d->label, "volume_id", d->volume_id[0] ? d->volume_id : NULL, "current",
		"type", ebs_type_name(v->type), "size_gib", v->size_gib, "iops", ebs_volume_iops(v),
		"throughput_mibs", ebs_volume_mibs(v), "monthly_usd", num_or_null(d->current_usd),
		"delivered", "burst_iops", num_or_null(del->burst_iops), "sustained_iops",
		num_or_null(del->sustained_iops), "burst_until_s", num_or_null(del->burst_s),
		"seq_mibs", num_or_null(del->seq_mibs), "rated_iops", del->rated_iops, "rated_mibs",
		del->rated_mibs, "need", "iops", d->need.iops, "throughput_mibs", d->need.mibs,
		"p99_ms", d->need.p99_ms > 0 ? json_real(d->need.p99_ms) : json_null(), "size_gib",
		d->need.gib, "measured", d->need.measured, "candidates", cands, "choice",
		d->choice >= 0 ? json_string(ebs_type_name(d->cand[d->choice].type)) : json_null(),
		"summary", d->summary);
}

json_t *recommend_json(const struct recommend_device *d, size_t n, const struct ebs_prices *prices)
{
	json_t *devices = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(devices, device_json(&d[i]));
	return json_pack("{s:{s:s?,s:s?,s:s?},s:o}", "prices", "region", prices->region, "date",
			 prices->as_of, "source", prices->source, "devices", devices);
}

/* t as ISO 8601 UTC, or null. */
static json_t *iso_or_null(double t)
{
	time_t whole = (time_t)floor(t);
	struct tm tm;
	char buf[32];

	if (!isfinite(t) || !gmtime_r(&whole, &tm))
		return json_null();
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return json_string(buf);
}

/* One replay as JSON. */
static json_t *replay_json(const struct demand_sim_result *r)
{
	json_t *balance = json_array();
	for (size_t k = 0; k < r->nbalance; k++)
		if (isfinite(r->balance[k].percent))
			json_array_append_new(balance, json_pack("{s:o,s:f}", "t",
								 iso_or_null(r->balance[k].t),
								 "percent", r->balance[k].percent));
	return json_pack("{s:f,s:f,s:f,s:f,s:o,s:f,s:o,s:s,s:o,s:f,s:o,s:o}", "throttled_s",
			 r->throttled_s, "hidden_s", r->hidden_s, "share", r->share, "worst_s",
			 r->worst_s, "worst_start", iso_or_null(r->worst_start), "max_backlog_io",
			 r->max_backlog_units, "max_backlog_s", num_or_null(r->max_backlog_s),
			 "bound", ebs_bound_name(r->bound), "dry_at", iso_or_null(r->dry_at),
			 "dry_s", r->dry_s, "min_credit_percent", num_or_null(r->min_credit_pct),
			 "balance", balance);
}

/* One trace's answer as JSON. */
static json_t *demand_json(const struct demand_answer *a)
{
	const struct recommend_device *d = &a->rec;
	const struct demand_stats *s = &a->stats;
	json_t *cands = json_array(), *current = json_null();

	for (int i = 0; i < d->ncand; i++) {
		json_t *c = candidate_json(&d->cand[i]);
		json_object_set_new(c, "replay",
				    d->cand[i].feasible ? replay_json(&a->sim[i]) : json_null());
		json_array_append_new(cands, c);
	}
	if (a->has_current)
		current = json_pack(
			"{s:s,s:f,s:f,s:f,s:o,s:o}", "type", ebs_type_name(d->current.type),
			"size_gib", d->current.size_gib, "iops", ebs_volume_iops(&d->current),
			"throughput_mibs", ebs_volume_mibs(&d->current), "monthly_usd",
			num_or_null(d->current_usd), "replay", replay_json(&a->current));
	return json_pack(
		"{s:s,s:{s:o,s:f,s:f,s:I,s:b,s:f,s:f,s:f,s:f,s:o,s:o,s:f,s:f},s:o,"
		"s:{s:f,s:f,s:f},s:o,s:o,s:s}",
		"volume", d->label, "trace", "from", iso_or_null(a->t0), "seconds", s->seconds,
		"interval_s", a->interval_s, "gaps", (json_int_t)a->gaps, "partial", a->partial,
		"mean_iops", s->mean_iops, "peak_iops", s->peak_iops, "mean_mibs", s->mean_mibs,
		"peak_mibs", s->peak_mibs, "peak_at", iso_or_null(s->peak_t), "burst_balance",
		isfinite(a->balance_first_pct)
			? json_pack("{s:f,s:f,s:o}", "first_percent", a->balance_first_pct,
				    "min_percent", a->balance_min_pct, "min_at",
				    iso_or_null(a->balance_min_t))
			: json_null(),
		"peak_factor", a->peak_factor, "throttle_budget", a->budget, "current", current,
		"need", "iops", d->need.iops, "throughput_mibs", d->need.mibs, "size_gib",
		d->need.gib, "candidates", cands, "choice",
		d->choice >= 0 ? json_string(ebs_type_name(d->cand[d->choice].type)) : json_null(),
		"summary", d->summary);
}

json_t *recommend_demand_json(const struct demand_answer *a, size_t n,
			      const struct ebs_prices *prices)
{
	json_t *volumes = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(volumes, demand_json(&a[i]));
	return json_pack("{s:{s:s?,s:s?,s:s?},s:o}", "prices", "region", prices->region, "date",
			 prices->as_of, "source", prices->source, "volumes", volumes);
}
