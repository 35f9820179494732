/* units.h - the binary units and the element count of an array, one
 * definition each.  The units are unsigned 64-bit integers: divide a double
 * by one and the arithmetic is double, divide an integer and it truncates,
 * as it would written out. */
#ifndef EBSBENCH_UNITS_H
#define EBSBENCH_UNITS_H

#define KIB (1ull << 10)
#define MIB (1ull << 20)
#define GIB (1ull << 30)

/* Elements of an array (not a pointer: -Wall's -Wsizeof-pointer-div
 * catches one passed by mistake). */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
