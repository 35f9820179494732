/* cliff_predicted.c - the cliff a short randread did not reach, from the
 * model and the bucket's balance at randread's start (cliff_predicted.h). */
#include "analysis/cliff_predicted.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/finding.h"
#include "results/results.h"

static const json_t *phase_of(const json_t *phases, const char *name)
{
	size_t i;
	const json_t *p;
	json_array_foreach(phases, i, p)
	{
		if (results_str_is(json_object_get(p, "phase"), name))
			return p;
	}
	return NULL;
}

void cliff_predicted_add(json_t *cliff, const struct ebs_volume *v, const json_t *phases,
			 const json_t *state, double time_scale, const char *label,
			 json_t *findings)
{
	const char *status = json_string_value(json_object_get(cliff, "status"));
	const char *name = ebs_cliff_phase(v->type);
	const json_t *rr = phase_of(phases, name);
	bool hdd = ebs_type_throughput_bucket(v->type);
	const char *unit = hdd ? "MiB/s" : "IOPS";
	/* cliff_json's "no cliff, as predicted" on a volume that bursts: its
	 * bucket outlasted the phase (an empty one says so, a missing cliff
	 * too, each in its own words). */
	if (!status || !strcmp(status, "found") || !strcmp(status, "too-slow") || !rr ||
	    !results_str_is(json_object_get(cliff, "verdict"), "as predicted") ||
	    !json_is_number(json_object_get(cliff, "predicted_second")))
		return;
	/* A lower bound is not the balance: then a full start's, as the
	 * ledger keeps it (expected_credits). */
	bool full_start = json_is_true(json_object_get(state, "lower_bound"));
	double balance = full_start ? results_num(json_object_get(state, "expected_credits"))
				    : results_num(json_object_get(rr, "credits_at_start"));
	full_start = full_start || !isfinite(balance);
	struct ebs_workload w = { .io_size_bytes = hdd ? 1 << 20 : 4096,
				  .sequential = hdd,
				  .credits_at_start =
					  isfinite(balance) ? balance : EBS_CREDITS_FULL };
	struct ebs_prediction p = ebs_predict(v, &w);
	double ran_s = results_num(json_object_get(rr, "duration_s"));
	double second = p.burst_seconds * time_scale;
	if (!p.bursts || !(second > 0) || !isfinite(second))
		return;
	double mean = results_num(RESULTS_GET(cliff, "before", "mean"));
	double percent = p.bucket > 0 ? 100 * p.credits / p.bucket : NAN;
	char line[480], held[64];
	finding_credits(held, sizeof(held), p.credits, NAN, hdd);
	if (!(ran_s < second)) { /* the ledger's balance ran out inside the phase */
		snprintf(line, sizeof(line),
			 "%s: %.0f %s over %.1f s with no cliff, though from the bucket's "
			 "balance at %s's start (%s) the model puts it at %.0f s: "
			 "check the volume facts.",
			 label, mean, unit, ran_s, name, held, second);
		finding_add(findings, FINDING_START_STATE, line);
		return;
	}
	snprintf(line, sizeof(line),
		 "%s: the credit cliff is predicted, not measured: %s ran %.1f s at "
		 "%.0f %s and stopped before it. From %s (%s at %s's "
		 "start, %.0f %%) the model puts the cliff at %.0f s of %s at full "
		 "demand, so measuring it takes a %s of %.0f s.",
		 label, name, ran_s, mean, unit,
		 full_start ? "a full bucket at the run's start" : "the bucket's balance", held,
		 name, percent, second, name, name, second);
	json_object_set_new(cliff, "predicted",
			    json_pack("{sbsfsfsfsbsfss}", "measured", false, "second", second,
				      "credits", p.credits, "percent", percent, "full_start",
				      full_start, "measure_s", second, "sentence", line));
	finding_add(findings, FINDING_START_STATE, line);
}
