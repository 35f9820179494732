/* internal.h - what engine/'s files share among themselves and nothing
 * outside engine/ calls: the registry's choice of a stand-in engine, which
 * engine_start makes for its callers.  The face (engine/engine.h) never
 * includes it. */
#ifndef EBSBENCH_ENGINE_INTERNAL_H
#define EBSBENCH_ENGINE_INTERNAL_H

#include "engine/engine.h"

/* engine.c: the io_uring -> libaio fallback's choice. */
/* The engine to run instead when `refused` failed its setup with -errno
 * `ret` because the host forbids it: libaio for io_uring refused with
 * ENOSYS (seccomp), EPERM (io_uring_disabled, seccomp) or EACCES.  NULL
 * when nothing stands in: the failure is the job's. */
const struct engine_ops *engine_fallback(const struct engine_ops *refused, int ret);

#endif
