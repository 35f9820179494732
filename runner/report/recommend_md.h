/* recommend_md.h - `ebsbench recommend` told: recommend.md (the same text
 * on stdout) and the --json document; recommend_apply.h writes the
 * ready-to-apply files of --out. */
#ifndef EBSBENCH_RECOMMEND_MD_H
#define EBSBENCH_RECOMMEND_MD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "decide/decide.h"

/* At most this many devices per run (a run config's limit). */
#define RECOMMEND_MAX_DEVICES 16

/* The recommendation of n devices as markdown, priced from prices. */
void recommend_md_devices(FILE *out, const struct recommend_device *d, size_t n,
			  const struct ebs_prices *prices);
/* recommend.md of each run (analysis present): no requirement, the run's
 * recorded prices; a report renderer (report.c). */
int recommend_md_write(FILE *out, json_t *const *runs, size_t nruns);
/* `recommend --demand`: per trace its shape, the current volume's replay,
 * the candidates' table with their replays, the gp2 bucket's balance and
 * the choice, as markdown; and the --json document. */
void recommend_md_demand(FILE *out, const struct demand_answer *a, size_t n,
			 const struct ebs_prices *prices, bool charts);
/* The chart's file name of a trace labelled label: "demand-LABEL.svg",
 * any character but letters, digits, '.', '-' and '_' as '_'. */
void recommend_demand_chart_name(const char *label, char *out, size_t cap);
/* recommend --demand --out DIR: recommend.md (linking a chart per trace,
 * demand-VOLUME.svg, svg_demand_chart) and report.html (the same, charts
 * inline), beside the apply files; traces[i] is the trace of a[i].
 * Returns 0, or -1 with a reason naming the file. */
int recommend_md_demand_write(const char *dir, const struct demand_answer *a,
			      const struct demand_trace *const *traces, size_t n,
			      const struct ebs_prices *prices, char *err, size_t errlen);
json_t *recommend_demand_json(const struct demand_answer *a, size_t n,
			      const struct ebs_prices *prices);
/* The --json document: the prices and one object per device. */
json_t *recommend_json(const struct recommend_device *d, size_t n, const struct ebs_prices *prices);

#endif
