/* little.c - Little's law: in flight = throughput x time in the system. */
#include "analysis/little.h"

#include <math.h>
#include <stdbool.h>

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
	case LITTLE_NO_DATA:
		break;
	}
	return "not enough data for Little's law";
}
