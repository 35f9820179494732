/* version.h - the one place the version comes from (the Makefile passes it). */
#ifndef EBSBENCH_VERSION_H
#define EBSBENCH_VERSION_H

#ifndef EBSBENCH_VERSION
#define EBSBENCH_VERSION "0.1.0"
#endif

#endif
