/* lib.h - floor 0: what every floor may use (monotonic clock, little-endian
 * loads, the version, binary units and ARRAY_SIZE, the error line and the
 * exit status of bad input). */
#ifndef EBSBENCH_LIB_FACE_H
#define EBSBENCH_LIB_FACE_H

#include "lib/clock.h"
#include "lib/error.h"
#include "lib/le.h"
#include "lib/units.h"
#include "lib/version.h"

#endif
