/* loadcurve.h - the latency-vs-load curve of one device: p50/p95/p99/p99.9
 * of each loadcurve step (latency from each I/O's scheduled issue time,
 * as an application offering that load sees it) and the knee.
 *
 * The knee is the lowest offered load whose p99 exceeds
 * LOADCURVE_KNEE_FACTOR times the p99 of the lowest load measured (the
 * 25 % step) and stays past it at every higher load (a single spike
 * with the loads above it back under is a busy machine, not a cap).  Why
 * p99 and not "the measured rate fell below the offered one": the
 * decision turns on tail latency at a load, and the tail goes first - at
 * the cap a poisson load is still served on average while
 * its queue, and so its p99, already grows without bound.  Why 4: below
 * a token-bucket cap the volume adds little queueing (p99 at 90 % stays
 * within about twice the unloaded one), at or above it the backlog grows
 * with time and p99 rises by orders of magnitude; 4 lies well between,
 * so the noise of a short step does not move the knee.  Steps served on
 * burst credits (above the sustained rate, with credits left) are not
 * part of the sustained curve: they are listed, never the knee.
 *
 * Here: the knee's constants, which summary.md quotes too; the curve's
 * steps, the knee and loadcurve_analyse are in analysis/internal.h. */
#ifndef EBSBENCH_LOADCURVE_H
#define EBSBENCH_LOADCURVE_H

#define LOADCURVE_KNEE_FACTOR 4.0
/* A step "held" its load when it measured at least this share of it. */
#define LOADCURVE_HELD_SHARE 0.95

#endif
