/* artifacts.h - the one place that names every file `ebsbench run` writes
 * into its output directory: results.json, the report (summary.md and the
 * SVG charts), one fio-format IOPS log per phase and device, and a
 * fio-format completion latency histogram log for the phases the latency
 * heatmap shows (randread and lat).  The run
 * writes them, `ebsbench report` renders the report's, presign signs an
 * upload URL for each and the uploader sends them: all read the names here,
 * so a renamed file cannot go unsigned or unsent.  The names of the logs,
 * the upload lists and the Content-Types, which only run/ reads, are in
 * run/internal.h. */
#ifndef EBSBENCH_ARTIFACTS_H
#define EBSBENCH_ARTIFACTS_H

#include <stddef.h>

#include "results/results.h"

/* The files a run writes once, in upload order (results.json last, by the
 * uploader, so it records every other upload). */
enum artifact {
	ARTIFACT_RESULTS,     /* results.json, saved after every phase */
	ARTIFACT_SUMMARY,     /* summary.md: TL;DR, phases, analysis */
	ARTIFACT_IOPS_SVG,    /* IOPS over time, one line per device and phase */
	ARTIFACT_LATENCY_SVG, /* latency percentiles per phase */
	ARTIFACT_HEATMAP_SVG, /* latency over time per device: randread and lat */
	ARTIFACT_LOAD_SVG,    /* latency against offered load: only with a "loadcurve" phase */
	ARTIFACT_RECOMMEND,   /* recommend.md: the cheapest volume per type, sustained */
	ARTIFACT_SWEEP_SVG,   /* throughput against block size: only with a "sweep" phase */
	ARTIFACT_HTML,	      /* report.html: all of the above in one page, charts inline */
	ARTIFACT_COUNT
};

/* The first report file: the report is ARTIFACT_SUMMARY .. ARTIFACT_COUNT-1. */
#define ARTIFACT_FIRST_REPORT ARTIFACT_SUMMARY
#define ARTIFACT_REPORT_COUNT (ARTIFACT_COUNT - ARTIFACT_FIRST_REPORT)

/* Longest log name: a device label (31), a phase short name (15), a suffix. */
#define ARTIFACT_LOG_NAME_MAX 64

/* The name of a file written once per run ("summary.md"). */
const char *artifacts_name(enum artifact a);
/* The phases a report file draws, NULL-terminated, any of which it needs
 * ("sweep" for the sweep's chart; randread or lat for the heatmap), or NULL
 * for one every run writes: presign signs, the run renders and uploads
 * such a file only when the plan has one of them, so a run without a sweep
 * uploads no empty chart. */
const char *const *artifacts_needs_phase(enum artifact a);
/* Whether phase is one that file a draws (the heatmap: randread and lat,
 * the phases whose steps keep a histogram log). */
bool artifacts_draws_phase(enum artifact a, const char *phase);

#endif
