/* steady_state.h - whether each phase of a device reached steady state
 * (stats/steady.h: SNIA's 5-round window, range within 20 % and the
 * fitted line's rise within 10 % of the mean), and when.
 *
 * Rounds: a phase's per-window series (iops_series, or its clat_hist
 * windows) is cut into STEADY_STATE_ROUNDS rounds of whole windows, at
 * least one window each and at least STEADY_STATE_ROUND_IOS I/Os at the
 * phase's mean rate; a partial round at the end is left out.  So a
 * round is a thirtieth of the phase whatever its length or time scale
 * (20 s of a 600 s phase, 0.2 s of one run at time scale 0.01), and
 * "steady after" is the end of the first steady window, in seconds from
 * the phase's start (run seconds, as every second in the report).
 *
 * The metric fits the phase: the round's p99 completion latency for a
 * load-curve step and a random phase at queue depth 1 (from the clat_hist
 * windows; a phase that kept none is not judged), MiB/s for a sequential
 * phase, IOPS for the rest.
 *
 * Never steady on borrowed credit: a window in which the volume served
 * more than STEADY_STATE_CREDIT_MARGIN above its baseline from a credit
 * bucket (gp2, st1, sc1), or the device ran above the instance's EBS
 * baseline inside the instance's daily burst, is flat only until the
 * bucket runs dry.  Each round of a window is held to that (a window's
 * mean would hide a burst that ends in its first round), and a window
 * that begins before the cliff found in the phase ended is on credit
 * whatever its rounds.  It does not count; the search goes on after it
 * (so a phase whose cliff fell inside it is steady only if a window after
 * the cliff is), and a phase whose only steady windows were on credit is
 * "not steady: on burst credit", with when the bucket ran dry (the
 * randread's cliff) or would (the credit ledger's balance at the phase's
 * start over its drain). */
#ifndef EBSBENCH_STEADY_STATE_H
#define EBSBENCH_STEADY_STATE_H

#include <jansson.h>

#include "analysis/verdict.h"

#define STEADY_STATE_ROUNDS 30
/* A round holds at least this many I/Os at the phase's mean rate (more
 * windows when the phase is slow or its windows short): counting noise
 * alone (1 / sqrt(500) = 4.5 % a round) must not fail the 20 % range. */
#define STEADY_STATE_ROUND_IOS 500.0
/* Above the baseline by more than this share, a window is drawing credit:
 * wider than a round mean's noise at a throttle, narrower than any burst. */
#define STEADY_STATE_CREDIT_MARGIN 0.05

/* Sets "steady" on each of phases (analysis.devices[].phases of device d,
 * one per results phase of d, in run order; see docs/results-json.md);
 * cliff: the device's analysis cliff object (JSON null when none). */
void steady_state_add(const json_t *results, const struct verdict_device *d, const json_t *cliff,
		      json_t *phases);

#endif
