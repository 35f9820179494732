/* recommend_md.h - `ebsbench recommend` told: recommend.md (the same text
 * on stdout), the --json document, and the ready-to-apply files of --out
 * (a VolumeAttributesClass per distinct target, the kubectl patch and
 * aws ec2 modify-volume commands with their caveats). */
#ifndef EBSBENCH_RECOMMEND_MD_H
#define EBSBENCH_RECOMMEND_MD_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "analysis/analysis.h"

/* At most this many devices per run (a run config's limit). */
#define RECOMMEND_MAX_DEVICES 16

/* The recommendation of n devices as markdown, priced from prices. */
void recommend_md_devices(FILE *out, const struct recommend_device *d, size_t n,
			  const struct ebs_prices *prices);
/* recommend.md of each run (analysis present): no requirement, the run's
 * recorded prices; a report renderer (report.c). */
int recommend_md_write(FILE *out, json_t *const *runs, size_t nruns);
/* The --json document: the prices and one object per device. */
json_t *recommend_json(const struct recommend_device *d, size_t n, const struct ebs_prices *prices);

/* Writes into dir, for the n devices of run: vac-NAME.yaml per distinct
 * gp3/io2 target and apply.md (per device the kubectl and aws commands,
 * and the caveats that apply).  Returns 0, or -1 with a reason naming the
 * file. */
int recommend_apply_write(const char *dir, const json_t *run, const struct recommend_device *d,
			  size_t n, const struct ebs_prices *prices, char *err, size_t errlen);

#endif
