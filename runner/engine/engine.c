/* engine.c - the engine registry: every engine once, by name, with the
 * default and the rule for standing in when the host refuses one.
 *
 * fio's engines register themselves into a list at start-up; a const
 * table gives the same single point of registration without mutable
 * global state.  Adding an engine is one line here. */
#include "engine/engine.h"
#include "engine/internal.h"
#include "lib/lib.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The first is the default. */
static const struct engine_ops *const registry[] = {
	&engine_io_uring_ops,
	&engine_libaio_ops,
	&engine_psync_ops,
	&engine_null_ops,
};
#define REGISTRY_SIZE (ARRAY_SIZE(registry))

/* Which engine stands in for which when the host forbids the first. */
static const struct {
	const struct engine_ops *refused;
	const struct engine_ops *instead;
} fallbacks[] = {
	{ &engine_io_uring_ops, &engine_libaio_ops },
};

/* The errnos that mean "this host forbids the engine", with their symbols
 * for the note: a seccomp profile's ENOSYS, io_uring_disabled's EPERM. */
static const struct {
	int errnum;
	const char *symbol;
} refusals[] = {
	{ ENOSYS, "ENOSYS" },
	{ EPERM, "EPERM" },
	{ EACCES, "EACCES" },
};

const struct engine_ops *engine_find(const char *name)
{
	for (size_t i = 0; name && i < REGISTRY_SIZE; i++)
		if (!strcmp(registry[i]->name, name))
			return registry[i];
	return NULL;
}

const struct engine_ops *engine_default(void)
{
	return registry[0];
}

const char *engine_names(char *buf, size_t len, const char *sep, const char *last_sep)
{
	size_t used = 0;
	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < REGISTRY_SIZE && used < len; i++) {
		const char *before = i == 0 ? "" : i + 1 == REGISTRY_SIZE ? last_sep : sep;
		int n = snprintf(buf + used, len - used, "%s%s", before, registry[i]->name);
		if (n < 0)
			break;
		used += (size_t)n;
	}
	return buf;
}

/* The errno's symbol when it is a refusal, else NULL. */
static const char *refusal_symbol(int errnum)
{
	for (size_t i = 0; i < ARRAY_SIZE(refusals); i++)
		if (refusals[i].errnum == errnum)
			return refusals[i].symbol;
	return NULL;
}

const struct engine_ops *engine_fallback(const struct engine_ops *refused, int ret)
{
	if (ret >= 0 || !refusal_symbol(-ret))
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(fallbacks); i++)
		if (fallbacks[i].refused == refused)
			return fallbacks[i].instead;
	return NULL;
}

int engine_start(struct engine *e, const struct engine_ops *ops, int fd, unsigned depth, char *note,
		 size_t notelen, char *err, size_t errlen)
{
	if (notelen)
		note[0] = '\0';
	e->ops = ops;
	int ret = ops->setup(e, fd, depth);
	const struct engine_ops *instead = engine_fallback(ops, ret);
	/* Hosts that block io_uring (sysctl, seccomp) still get a run. */
	if (instead) {
		snprintf(note, notelen, "%s refused (%s: %s); ran %s instead", ops->name,
			 refusal_symbol(-ret), strerror(-ret), instead->name);
		e->ops = instead;
		ret = instead->setup(e, fd, depth);
	}
	if (ret < 0) {
		snprintf(err, errlen, "ioengine %s cannot start: %s", e->ops->name, strerror(-ret));
		e->ops = NULL;
		return -1;
	}
	return 0;
}

bool engine_register_buffers(struct engine *e, void *base, size_t unit_bytes, unsigned count)
{
	return e->ops->register_buffers &&
	       e->ops->register_buffers(e, base, unit_bytes, count) == 0;
}
