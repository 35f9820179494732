/* together.h - the instance's EBS ceiling, from the together phase (every
 * device driven at once, plan.h): the aggregate the devices held (their
 * per-window series summed), whose limit set it, and where the aggregate
 * fell, whose fall it was.
 *
 * A level is set by a limit it lies within INSTANCE_CLIFF_LEVEL_TOLERANCE
 * of: the sum of the volumes' limits at the phase's I/O size (burst or
 * baseline: a gp2's bucket), or the instance's EBS limit (its burst or its
 * baseline figure, from the model's instance table).  Near both: too close
 * to tell; near neither: neither set it.  The instance is named only when
 * the volumes could have gone faster, the volumes only when the instance
 * allowed more.  An instance the model does not know is said to be unknown,
 * not judged.  A fall of the aggregate (cliff.c) to the instance's baseline
 * and not the volumes' is the instance's burst running out; to the
 * volumes' baseline sum, theirs.  One finding per group. */
#ifndef EBSBENCH_TOGETHER_H
#define EBSBENCH_TOGETHER_H

#include <jansson.h>

/* analysis.together: one object per together group of the run (see
 * docs/results-json.md), each with its sentence added to findings; NULL
 * when the run has none (the key is then left out). */
json_t *together_judge(const json_t *results, json_t *findings);

#endif
