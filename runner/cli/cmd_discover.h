/* cmd_discover.h - `ebsbench discover`: what is attached, and what is safe. */
#ifndef EBSBENCH_CMD_DISCOVER_H
#define EBSBENCH_CMD_DISCOVER_H

int cmd_discover(int argc, char **argv);

#endif
