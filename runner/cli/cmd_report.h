/* cmd_report.h - `ebsbench report [--out DIR] [--print] DIR...`: summary.md
 * and the SVG charts, rebuilt from results directories (one run, or a
 * fleet side by side). */
#ifndef EBSBENCH_CMD_REPORT_H
#define EBSBENCH_CMD_REPORT_H

/* Exit status: 0, 1 (a results.json missing or invalid, or an output
 * write failed) or 2 (usage). */
int cmd_report(int argc, char **argv);

#endif
