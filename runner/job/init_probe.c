/* init_probe.c - a sample of blocks read twice: is the volume still loading
 * from its snapshot (init_probe.h)? */
#include "job/job.h"
#include "job/internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The probe's read job over [0, region): INIT_PROBE_BLOCKS random 4 KiB
 * blocks, each at most once (offsets.h's permutation), the seed fixed so
 * both passes read the same blocks in the same order. */
static int probe_options(struct job_options *o, const char *path, uint64_t region, uint64_t blocks,
			 char *err, size_t errlen)
{
	options_defaults(o);
	return options_set(o, "name", "init-probe", err, errlen) ||
			       options_set(o, "filename", path, err, errlen) ||
			       options_set(o, "rw", "randread", err, errlen) ||
			       options_set(o, "direct", "1", err, errlen) ||
			       options_set(o, "randrepeat", "1", err, errlen) ||
			       options_set_number(o, "bs", INIT_PROBE_BS, err, errlen) ||
			       options_set_number(o, "iodepth", INIT_PROBE_DEPTH, err, errlen) ||
			       options_set_number(o, "size", region, err, errlen) ||
			       options_set_number(o, "number_ios", blocks, err, errlen)
		       ? -1
		       : 0;
}

const char *init_probe_state(uint64_t blocks, double first_ms, double second_ms)
{
	if (blocks < INIT_PROBE_MIN_BLOCKS)
		return "unknown";
	return first_ms >= INIT_PROBE_RATIO * second_ms &&
			       first_ms - second_ms >= INIT_PROBE_MIN_GAP_MS
		       ? "loading"
		       : "not loading";
}

int init_probe_device(struct init_probe *r, const char *path, uint64_t size,
		      const struct job_context *ctx, char *err, size_t errlen)
{
	uint64_t region = size - size % INIT_PROBE_BS, blocks = region / INIT_PROBE_BS;
	struct job_options *o = malloc(sizeof(*o));
	struct job_stats *s = malloc(2 * sizeof(*s));
	int rc = -1;

	memset(r, 0, sizeof(*r));
	r->state = "unknown";
	if (blocks > INIT_PROBE_BLOCKS)
		blocks = INIT_PROBE_BLOCKS;
	if (!o || !s)
		snprintf(err, errlen, "out of memory");
	else if (!blocks)
		rc = 0; /* smaller than a block: nothing to read */
	else if (probe_options(o, path, region, blocks, err, errlen) == 0 &&
		 job_run_once(o, &s[0], ctx, err, errlen) == 0) {
		stats_job_init(&s[1]); /* a stop before the second pass: nothing read */
		rc = ctx->stop && *ctx->stop ? 0 : job_run_once(o, &s[1], ctx, err, errlen);
	}
	if (rc == 0 && blocks) {
		const struct direction_stats *a = &s[0].dir[DDIR_READ], *b = &s[1].dir[DDIR_READ];
		r->blocks = a->ios < b->ios ? a->ios : b->ios;
		r->first_ms = (double)histogram_percentile(&a->clat_hist, 50) / 1e6;
		r->second_ms = (double)histogram_percentile(&b->clat_hist, 50) / 1e6;
		r->first_mean_ms = a->clat.mean / 1e6;
		r->second_mean_ms = b->clat.mean / 1e6;
		r->seconds = (double)(s[0].elapsed_ns + s[1].elapsed_ns) / 1e9;
		r->state = init_probe_state(r->blocks, r->first_ms, r->second_ms);
	}
	free(o);
	free(s);
	return rc;
}

json_t *init_probe_json(const struct init_probe *r)
{
	return json_pack("{s:s,s:f,s:f,s:f,s:f,s:I,s:f}", "state", r->state, "first_read_ms",
			 r->first_ms, "second_read_ms", r->second_ms, "first_read_mean_ms",
			 r->first_mean_ms, "second_read_mean_ms", r->second_mean_ms, "blocks",
			 (json_int_t)r->blocks, "seconds", r->seconds);
}

void init_probe_describe(const struct init_probe *r, char *buf, size_t len)
{
	const char *what = !strcmp(r->state, "loading")	      ? "still loading from its snapshot"
			   : !strcmp(r->state, "not loading") ? "not loading from a snapshot"
			   : !strcmp(r->state, "unknown")     ? "initialization unknown"
							      : "not judged: not recognised as EBS";
	if (r->blocks)
		snprintf(buf, len,
			 "%s: the first read of %llu blocks took %.3g ms (median), the same "
			 "blocks again %.3g ms",
			 what, (unsigned long long)r->blocks, r->first_ms, r->second_ms);
	else
		snprintf(buf, len, "%s: no block read", what);
}
