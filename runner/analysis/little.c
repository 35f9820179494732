/* little.c - Little's law: in flight = throughput x time in the system. */
#include "analysis/little.h"
#include "analysis/internal.h"

#include <math.h>
#include <stdbool.h>

#include "results/results.h"

double little_latency_s(double iodepth, double iops)
{
	if (!(iops > 0) || !isfinite(iops))
		return NAN;
	return iodepth / iops;
}

struct little_check little_judge(double iops, double mean_latency_s, double iodepth,
				 double tolerance)
{
	struct little_check c = { .in_flight = NAN, .ratio = NAN, .verdict = LITTLE_NO_DATA };
	bool usable = iops > 0 && mean_latency_s > 0 && iodepth > 0 && isfinite(iops) &&
		      isfinite(mean_latency_s) && isfinite(iodepth);

	c.predicted_latency_s = little_latency_s(iodepth, iops);
	if (!usable)
		return c;
	c.in_flight = iops * mean_latency_s;
	c.ratio = c.in_flight / iodepth;
	if (c.ratio < 1 - tolerance)
		c.verdict = LITTLE_UNDERFILLED;
	else if (c.ratio > 1 + tolerance)
		c.verdict = LITTLE_OVERFILLED;
	else
		c.verdict = iodepth <= 1 ? LITTLE_SERVICE_TIME : LITTLE_CONSISTENT;
	return c;
}

struct little_check little_judge_rated(double iops, double mean_latency_s, double iodepth,
				       double offered_iops, double tolerance)
{
	struct little_check c = little_judge(iops, mean_latency_s, iodepth, tolerance);

	if (c.verdict == LITTLE_NO_DATA || !(offered_iops > 0) || !isfinite(offered_iops))
		return c;
	c.verdict = iops >= offered_iops * (1 - tolerance) ? LITTLE_RATED : LITTLE_RATED_BEHIND;
	return c;
}

double little_mean_latency_s(const json_t *phase)
{
	const json_t *job = json_object_get(phase, "job");
	double sum = 0, weighted = 0;

	for (int d = 0; d < 2; d++) {
		const json_t *dir = json_object_get(job, d ? "write" : "read");
		double iops = results_num_or(dir, "iops", 0);
		sum += iops;
		weighted += iops * results_num_or(json_object_get(dir, "lat_ns"), "mean", 0) / 1e9;
	}
	return sum > 0 ? weighted / sum : 0;
}

struct little_latency little_latency_of(const json_t *phase, double tolerance)
{
	double mean_s = little_mean_latency_s(phase);
	double p50_ns = results_clat_pct_ns(results_direction(phase), "50.000000");
	struct little_latency l = { mean_s > 0 ? mean_s : NAN, p50_ns > 0 ? p50_ns / 1e9 : NAN,
				    false };

	l.waited = !(l.mean_s <= l.p50_s * (1 + tolerance));
	return l;
}

struct little_check little_judge_phase(const json_t *phase)
{
	const json_t *job = json_object_get(phase, "job");
	const json_t *rate = RESULTS_GET(job, "ebsbench", "rate");
	double iops = results_num_or(json_object_get(job, "read"), "iops", 0) +
		      results_num_or(json_object_get(job, "write"), "iops", 0);

	return little_judge_rated(
		iops, little_mean_latency_s(phase), results_num_or(phase, "iodepth", 1),
		results_num_or(rate, "read_iops", 0) + results_num_or(rate, "write_iops", 0),
		LITTLE_TOLERANCE);
}

const char *little_note(enum little_verdict verdict)
{
	switch (verdict) {
	case LITTLE_CONSISTENT:
		return "IOPS x latency matches iodepth: the latency is the queue the IOPS limit "
		       "builds";
	case LITTLE_SERVICE_TIME:
		return "service time, no queue: at qd1 one I/O is in flight by construction, so "
		       "the "
		       "latency is the device's time per I/O";
	case LITTLE_UNDERFILLED:
		return "fewer I/Os in flight than iodepth: the submitter did not keep the queue "
		       "full (CPU-bound, or time outside the measured latency)";
	case LITTLE_OVERFILLED:
		return "more I/Os in flight than iodepth: the latency or the IOPS covers time the "
		       "other does not (mixed phases, or another job on the device)";
	case LITTLE_RATED:
		return "a rated step: its offered rate x latency is in flight, which iodepth only "
		       "caps (fewer than iodepth is the rate's doing, not the submitter's)";
	case LITTLE_RATED_BEHIND:
		return "a rated step served less than it offered: its I/Os waited for a free slot, "
		       "counted from their scheduled time, so the device set the pace";
	case LITTLE_NO_DATA:
		break;
	}
	return "not enough data for Little's law";
}
