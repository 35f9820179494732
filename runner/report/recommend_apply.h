/* recommend_apply.h - the ready-to-apply files of `ebsbench recommend --out
 * DIR` (inner header of report/): a VolumeAttributesClass per distinct
 * target, the kubectl patch and aws ec2 modify-volume commands with their
 * caveats. */
#ifndef EBSBENCH_RECOMMEND_APPLY_H
#define EBSBENCH_RECOMMEND_APPLY_H

#include <jansson.h>
#include <stddef.h>

#include "analysis/analysis.h"
#include "decide/decide.h"
#include "report/recommend_md.h"

/* Writes into dir, for the n devices of run: vac-NAME.yaml per distinct
 * gp3/io2 target and apply.md (per device the kubectl and aws commands,
 * and the caveats that apply).  Returns 0, or -1 with a reason naming the
 * file. */
int recommend_apply_write(const char *dir, const json_t *run, const struct recommend_device *d,
			  size_t n, const struct ebs_prices *prices, char *err, size_t errlen);

#endif
