/* internal.h - what model/'s files share among themselves (and its unit
 * tests call); nothing outside model/ calls these, so the face (model.h)
 * does not include this header. */
#ifndef EBSBENCH_MODEL_INTERNAL_H
#define EBSBENCH_MODEL_INTERNAL_H

#include <stdbool.h>

#include "model/ebs_model.h"

/* ebs_model.c: a burst bucket's mean rate over a test, a sequential phase's throughput cap */
/* Mean rate over a test of duration_s that asks for demand_ops (HUGE_VAL:
 * as much as it can get): burst while credits last, then baseline. */
struct ebs_rate ebs_expected_rate(const struct ebs_prediction *p, double duration_s,
				  double demand_ops);

/* Throughput in MiB/s and what caps it. */
struct ebs_throughput {
	double mibs;
	enum ebs_bound bound;
};
/* The throughput cap of a sequential phase of io_size_bytes I/O, with
 * I/O counted in the volume's units (an I/O over 256 KiB counts as
 * several, contiguous ones of 32 KiB and up merge), against the
 * volume's limits (its burst ones when volume_burst and it has credits)
 * and the instance's (inst may be NULL). */
struct ebs_throughput ebs_seq_throughput_cap(const struct ebs_volume *v, double io_size_bytes,
					     bool volume_burst,
					     const struct instance_ebs_limits *inst,
					     bool instance_burst);

#endif
