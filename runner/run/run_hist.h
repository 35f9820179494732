/* run_hist.h - a phase's fio-format histogram log (job/histlog.h) read back
 * into the compact form results.json keeps, so the latency heatmap (and any
 * later reader) re-renders a results directory from results.json alone:
 *
 *   "clat_hist": { "log": "gp2_rr_clat_hist.1.log", "window_ms": 1000,
 *                  "coarseness": 4, "bins": 116,
 *                  "windows": [ "40:1286 637 0 205", "", ... ] }
 *
 * One string per window of window_ms, in time order, its directions
 * summed: "FIRST:C C C" are the counts of bins FIRST, FIRST + 1, ... up to
 * the window's last non-empty bin; an empty window is "".  (A string, so
 * that results.json's indented layout keeps a window on one line.)  Bin j
 * holds fio's bins j x 2^c to (j + 1) x 2^c - 1, c the coarseness: the
 * buckets of stats/histogram.h with those indices.  results_hist_window
 * reads one back.  Size: a window holds one count per bin between its
 * fastest and slowest I/O, 4 per octave: 154 bytes a window measured on a
 * loop device capped at 3,000 IOPS (1 s windows, latencies over 15
 * octaves), so about 420 kB for a 2,700 s phase, against 1.06 MB for its
 * fio-format log (393 bytes a row). */
#ifndef EBSBENCH_RUN_HIST_H
#define EBSBENCH_RUN_HIST_H

#include <jansson.h>
#include <stddef.h>

/* Reads the histogram log at path (written at coarseness, windows of
 * window_ms) into the compact form, naming it log; NULL with a one-line
 * reason naming the file and row when it cannot be read or parsed. */
json_t *run_hist_read(const char *path, const char *log, unsigned window_ms, unsigned coarseness,
		      char *err, size_t errlen);

#endif
