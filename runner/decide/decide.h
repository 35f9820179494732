/* decide.h - the face of decide/: what to buy and whether a change is
 * real.  recommend.h (the cheapest volume per type that meets a
 * requirement, from a measurement), demand_sim.h and demand_recommend.h
 * (a volume's real demand replayed through a candidate's limits),
 * compare.h (two runs side by side, with intervals), fleet.h (many runs
 * as one fleet, with its outliers).  What those files share among
 * themselves is in decide/internal.h, never included here. */
#ifndef EBSBENCH_DECIDE_H
#define EBSBENCH_DECIDE_H

#include "decide/recommend.h"
#include "decide/demand_sim.h"
#include "decide/demand_recommend.h"
#include "decide/compare.h"
#include "decide/fleet.h"

#endif
