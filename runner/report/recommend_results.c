/* recommend_results.c - `ebsbench recommend`'s work once its arguments
 * are read: the results loaded and analysed again, priced, the search
 * (decide/), and its answer told: a table or --json on the print stream,
 * the ready-to-apply files (and with --demand recommend.md, the charts and
 * report.html) in --out's directory. */
#include "report/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "results/results.h"
#include "report/recommend_apply.h"
#include "report/recommend_md.h"
#include "report/report_analysis.h"

/* --out DIR: made if new (its parent must exist), then the files. */
static int write_apply(const struct recommend_request *req, const json_t *run,
		       const struct recommend_device *d, size_t n, const struct ebs_prices *p)
{
	char err[512];

	if (mkdir(req->out, 0755) && errno != EEXIST) {
		fprintf(req->warn, "ebsbench recommend: cannot create %s: %s\n", req->out,
			strerror(errno));
		return 1;
	}
	if (recommend_apply_write(req->out, run, d, n, p, err, sizeof(err))) {
		fprintf(req->warn, "ebsbench recommend: %s\n", err);
		return 1;
	}
	fprintf(req->warn,
		"ebsbench recommend: apply.md and the VolumeAttributesClass files in %s/\n",
		req->out);
	return 0;
}

/* --json's document on the print stream (taken: freed here); 0, or 1 when
 * it could not be made or written. */
static int print_json(FILE *out, json_t *doc)
{
	int rc = !doc || json_dumpf(doc, out,
				    JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	fputc('\n', out);
	json_decref(doc);
	return rc;
}

/* The search over the results' devices and its outputs. */
static int answer(const struct recommend_request *req, const json_t *run,
		  const struct ebs_prices *prices)
{
	struct recommend_device *found = calloc(RECOMMEND_MAX_DEVICES, sizeof(*found));
	int rc = 0;

	if (!found)
		return 1;
	size_t n = recommend_all(run, &req->ask, prices, found, RECOMMEND_MAX_DEVICES);
	if (req->json) {
		rc = print_json(req->print, recommend_json(found, n, prices));
	} else {
		recommend_md_devices(req->print, found, n, prices);
	}
	if (!rc && req->out)
		rc = write_apply(req, run, found, n, prices);
	free(found);
	return rc;
}

/* --out with --demand: the apply files, then recommend.md, the charts and
 * report.html; each answer's trace found by its volume's name. */
static int write_demand_out(const struct recommend_request *req, const json_t *run,
			    const struct demand_set *set, const struct demand_answer *ans, size_t n,
			    const struct ebs_prices *prices)
{
	struct recommend_device *recs = calloc(n ? n : 1, sizeof(*recs));
	const struct demand_trace **traces = calloc(n ? n : 1, sizeof(*traces));
	char err[512];
	int rc = 1;

	if (recs && traces) {
		for (size_t i = 0, k = 0; i < n; i++) {
			recs[i] = ans[i].rec;
			while (k < set->n && strcmp(set->v[k].volume, ans[i].rec.label))
				k++;
			traces[i] = &set->v[k < set->n ? k : 0];
		}
		rc = write_apply(req, run, recs, n, prices);
	}
	if (!rc && recommend_md_demand_write(req->out, ans, traces, n, prices, err, sizeof(err))) {
		fprintf(req->warn, "ebsbench recommend: %s\n", err);
		rc = 1;
	} else if (!rc) {
		fprintf(req->warn,
			"ebsbench recommend: recommend.md, report.html and the demand charts in "
			"%s/\n",
			req->out);
	}
	free(traces);
	free(recs);
	return rc;
}

/* --demand: each trace replayed and searched (decide/), the answer on the
 * print stream (and --out's files).  REPORT_BAD_INPUT for a bad trace. */
static enum report_outcome answer_demand(const struct recommend_request *req, const json_t *run,
					 const struct ebs_prices *prices, char *err, size_t errlen)
{
	struct demand_set set = { 0 };
	struct demand_answer *ans = NULL;
	size_t n = 0;
	int rc = 0;

	if (demand_recommend_all(req->demand, run, prices, &set, &ans, &n, req->warn, err,
				 errlen)) {
		free(ans);
		demand_set_free(&set);
		return REPORT_BAD_INPUT;
	}
	if (req->json) {
		rc = print_json(req->print, recommend_demand_json(ans, n, prices));
	} else {
		recommend_md_demand(req->print, ans, n, prices, false);
	}
	if (!rc && req->out)
		rc = write_demand_out(req, run, &set, ans, n, prices);
	free(ans);
	demand_set_free(&set);
	return rc ? REPORT_FAILED : REPORT_DONE;
}

enum report_outcome recommend_results(const struct recommend_request *req, char *err, size_t errlen)
{
	struct ebs_prices prices = ebs_prices_default();
	struct report_price_names names;
	enum report_outcome outcome;
	json_t *run = NULL;

	err[0] = '\0';
	if (req->input) {
		run = results_load_any(req->input, err, errlen);
		if (!run || report_reanalyse(run, NULL, err, errlen)) {
			json_decref(run);
			return REPORT_BAD_INPUT;
		}
		report_prices_to_decide(run, &prices, &names);
	}
	if (req->region && !ebs_prices_for_region(req->region, &prices))
		fprintf(req->warn, "ebsbench recommend: no built-in prices for %s: costs unknown\n",
			req->region);
	if (req->region)
		prices.region = req->region;
	if (req->demand)
		outcome = answer_demand(req, run, &prices, err, errlen);
	else
		outcome = answer(req, run, &prices) ? REPORT_FAILED : REPORT_DONE;
	json_decref(run);
	return outcome;
}
