/* demand_sim.c - a demand trace replayed through a volume's limits, one
 * interval at a time (demand_sim.h): the gp2 bucket's balance, the caps,
 * the backlog, the instance's EBS limits, and what throttled when. */
#include "decide/demand_sim.h"
#include "decide/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lib.h"

#define MB 1e6 /* instance limits are in MB/s */

/* The volume's limits, in units per second. */
struct sim_limits {
	double base, burst; /* units/s while the bucket is empty / holds credits */
	double cap_mibs;
	double bucket; /* 0: none */
	double unit_bytes;
};

/* What the replay carries from one interval to the next. */
struct sim_state {
	double credits, backlog;
	double ops_per_unit, bytes_per_unit; /* of the last interval with I/O */
	double day_start, inst_burst_used;
	double run_s; /* the current run of throttled intervals */
	double run_start;
	double bound_s[EBS_BOUND_DELIVERED + 1];
};

/* One interval's asking: new units, and its I/O's mix. */
struct sim_ask {
	double t, dt, units;
};

static struct sim_limits limits_of(const struct ebs_volume *v)
{
	struct ebs_workload w = { .io_size_bytes = 4096, .credits_at_start = EBS_CREDITS_FULL };
	struct ebs_prediction p = ebs_predict(v, &w);
	return (struct sim_limits){ .base = p.baseline_iops,
				    .burst = p.bursts ? p.burst_iops : p.baseline_iops,
				    .cap_mibs = ebs_volume_mibs(v),
				    .bucket = p.bursts ? p.bucket : 0,
				    .unit_bytes = ebs_type_rules(v->type)->unit_bytes };
}

/* An interval's units: each I/O at least one, bytes in whole units. */
static double units_of(const struct demand_point *p, double unit_bytes)
{
	return fmax(p->read_ops + p->write_ops, (p->read_bytes + p->write_bytes) / unit_bytes);
}

/* The instance's cap in units per second for the state's I/O mix, its
 * burst figures while the day's burst lasts and the demand needs them. */
static double instance_cap(const struct demand_sim_opts *o, struct sim_state *s, double t,
			   double dt, double rate)
{
	const struct instance_ebs_limits *in = o->instance;
	if (!in)
		return HUGE_VAL;
	double base = fmin(in->baseline_iops / s->ops_per_unit,
			   in->baseline_mbps * MB / s->bytes_per_unit);
	if (t - s->day_start >= INSTANCE_BURST_WINDOW_S) {
		s->day_start = t;
		s->inst_burst_used = 0;
	}
	if (rate <= base || !ebs_instance_has_burst(in) ||
	    s->inst_burst_used >= in->burst_seconds_per_day)
		return base;
	s->inst_burst_used += dt;
	return fmin(in->burst_iops / s->ops_per_unit, in->burst_mbps * MB / s->bytes_per_unit);
}

/* Keeps the lowest balance of each stretch of the trace. */
static void note_balance(struct demand_sim_result *r, const struct sim_limits *l, double t0,
			 double t, double credits)
{
	if (!(l->bucket > 0))
		return;
	double pct = 100 * credits / l->bucket;
	size_t k = r->seconds > 0 ? (size_t)((t - t0) / r->seconds * DEMAND_BALANCE_POINTS) : 0;
	if (k >= DEMAND_BALANCE_POINTS)
		k = DEMAND_BALANCE_POINTS - 1;
	if (k >= r->nbalance) {
		r->balance[k] = (struct demand_balance){ t, pct };
		for (size_t j = r->nbalance; j < k; j++)
			r->balance[j] = (struct demand_balance){ NAN, NAN };
		r->nbalance = k + 1;
	} else if (!(r->balance[k].percent <= pct)) {
		r->balance[k] = (struct demand_balance){ t, pct };
	}
	r->min_credit_pct = fmin(r->min_credit_pct, pct);
}

/* Serves one interval: how much is served, for how long the demand was
 * held back, and when the bucket ran dry inside it (NaN: it did not). */
struct served {
	double units, throttled_s, dry_after;
	enum ebs_bound bound;
};

static struct served serve(const struct sim_limits *l, struct sim_state *s, double dt, double want,
			   double inst)
{
	double r = want / dt;
	double by_mibs = l->cap_mibs * MIB / s->bytes_per_unit;
	double lo = fmin(fmin(l->base, by_mibs), inst);
	double hi = s->credits > 0 ? fmin(fmin(l->burst, by_mibs), inst) : lo;
	enum ebs_bound bound = inst < fmin(l->burst, by_mibs) ? EBS_BOUND_INSTANCE_IOPS
			       : by_mibs < l->burst	      ? EBS_BOUND_VOLUME_THROUGHPUT
							      : EBS_BOUND_VOLUME_IOPS;
	double sv = fmin(r, hi), drain = sv - l->base;
	struct served out = { .dry_after = NAN, .bound = bound };

	if (drain <= 0 || !(l->bucket > 0)) {
		out.units = sv * dt;
		out.throttled_s = r > hi * (1 + 1e-12) ? dt : 0;
		if (l->bucket > 0)
			s->credits = fmin(l->bucket, s->credits - drain * dt);
		return out;
	}
	double empty_after = s->credits / drain;
	if (empty_after >= dt) {
		out.units = sv * dt;
		out.throttled_s = r > hi * (1 + 1e-12) ? dt : 0;
		s->credits -= drain * dt;
		if (s->credits <= 1e-9 * l->bucket) { /* dry on the interval's last moment */
			s->credits = 0;
			out.dry_after = dt;
		}
		return out;
	}
	/* Dry inside the interval: the burst rate until then, the floor after. */
	out.units = sv * empty_after + lo * (dt - empty_after);
	out.throttled_s = (r > hi * (1 + 1e-12) ? empty_after : 0) + (dt - empty_after);
	out.dry_after = empty_after;
	s->credits = 0;
	return out;
}

/* Replays one interval (a gap's idle time too, with nothing new asked). */
static void step(const struct sim_limits *l, const struct demand_sim_opts *o, struct sim_state *s,
		 const struct sim_ask *a, double t0, struct demand_sim_result *r)
{
	double want = a->units + s->backlog;
	double inst = instance_cap(o, s, a->t, a->dt, want / a->dt);
	double credits_before = s->credits;
	struct served sv = serve(l, s, a->dt, want, inst);
	double peak_rate = a->units / a->dt * o->peak_factor;
	double hidden = 0;

	if (sv.throttled_s <= 0 && a->units > 0) {
		double cap =
			credits_before > 0
				? fmin(fmin(l->burst, inst), l->cap_mibs * MIB / s->bytes_per_unit)
				: fmin(fmin(l->base, inst), l->cap_mibs * MIB / s->bytes_per_unit);
		if (peak_rate > cap * (1 + 1e-12))
			hidden = a->dt;
	}
	s->backlog = fmax(0, want - sv.units);
	if (s->backlog < 1e-6 * fmax(1, want))
		s->backlog = 0;
	r->throttled_s += sv.throttled_s;
	r->hidden_s += hidden;
	s->bound_s[sv.bound] += sv.throttled_s + hidden;
	if (!isnan(sv.dry_after)) {
		if (isnan(r->dry_at))
			r->dry_at = a->t + sv.dry_after;
		r->dry_s += a->dt - sv.dry_after;
	} else if (l->bucket > 0 && s->credits <= 0) {
		r->dry_s += a->dt;
	}
	if (sv.throttled_s + hidden > 0) {
		if (s->run_s == 0)
			s->run_start = a->t;
		s->run_s += sv.throttled_s + hidden;
		if (s->run_s > r->worst_s) {
			r->worst_s = s->run_s;
			r->worst_start = s->run_start;
		}
	} else {
		s->run_s = 0;
	}
	double floor_rate = fmin(fmin(l->base, inst), l->cap_mibs * MIB / s->bytes_per_unit);
	if (s->backlog > r->max_backlog_units) {
		r->max_backlog_units = s->backlog;
		r->max_backlog_s = s->backlog / floor_rate;
	}
	note_balance(r, l, t0, a->t, s->credits);
}

int demand_simulate(const struct demand_trace *tr, const struct ebs_volume *v,
		    const struct demand_sim_opts *o, struct demand_sim_result *out, char *err,
		    size_t errlen)
{
	struct demand_sim_opts opts = *o;
	struct sim_state s = { 0 };

	memset(out, 0, sizeof(*out));
	if (!ebs_type_rules(v->type))
		return error_set(err, errlen, "an unknown volume type");
	if (!tr->n || !(tr->interval_s > 0))
		return error_set(err, errlen, "%s: no demand in the trace", tr->volume);
	if (!(opts.peak_factor >= 1))
		opts.peak_factor = 1;
	struct sim_limits l = limits_of(v);
	double dt = tr->interval_s, t0 = tr->p[0].t;
	out->seconds = tr->p[tr->n - 1].t - t0 + dt;
	out->worst_start = out->dry_at = NAN;
	s.credits = opts.start_spent_pct > 0
			    ? l.bucket * (100 - fmin(opts.start_spent_pct, 100)) / 100
			    : l.bucket;
	out->min_credit_pct = l.bucket > 0 ? 100 * s.credits / l.bucket : NAN;
	s.ops_per_unit = 1;
	s.bytes_per_unit = 4096; /* until the first interval with I/O says */
	s.day_start = t0;
	for (size_t i = 0; i < tr->n; i++) {
		const struct demand_point *p = &tr->p[i];
		double units = units_of(p, l.unit_bytes);
		if (i > 0 && p->t - tr->p[i - 1].t > dt * 1.5) {
			/* A gap: idle, the backlog served and the bucket refilled. */
			double idle = p->t - tr->p[i - 1].t - dt;
			step(&l, &opts, &s, &(struct sim_ask){ tr->p[i - 1].t + dt, idle, 0 }, t0,
			     out);
		}
		if (units > 0) {
			s.ops_per_unit = fmax(p->read_ops + p->write_ops, 1e-9) / units;
			s.bytes_per_unit = fmax(p->read_bytes + p->write_bytes, 1) / units;
		}
		step(&l, &opts, &s, &(struct sim_ask){ p->t, dt, units }, t0, out);
	}
	out->share = (out->throttled_s + out->hidden_s) / out->seconds;
	out->bound = EBS_BOUND_NONE;
	for (int b = 1; b <= EBS_BOUND_DELIVERED; b++)
		if (s.bound_s[b] > 0 &&
		    (out->bound == EBS_BOUND_NONE || s.bound_s[b] > s.bound_s[out->bound]))
			out->bound = (enum ebs_bound)b;
	return 0;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The value at share from the top of n sorted values (share 0: the largest). */
static double from_top(const double *sorted, size_t n, double share)
{
	size_t k = (size_t)floor(share * (double)n);
	return sorted[k >= n ? 0 : n - 1 - k];
}

struct demand_need_rate demand_rate_quantile(const struct demand_trace *tr, double unit_bytes,
					     double share, double peak_factor)
{
	struct demand_need_rate need = { 0, 0 };
	double *u = tr->n ? malloc(tr->n * sizeof(*u)) : NULL;
	double *m = tr->n ? malloc(tr->n * sizeof(*m)) : NULL;
	double f = peak_factor >= 1 ? peak_factor : 1;

	if (u && m) {
		for (size_t i = 0; i < tr->n; i++) {
			u[i] = units_of(&tr->p[i], unit_bytes) / tr->interval_s;
			m[i] = (tr->p[i].read_bytes + tr->p[i].write_bytes) / tr->interval_s / MIB;
		}
		qsort(u, tr->n, sizeof(*u), by_value);
		qsort(m, tr->n, sizeof(*m), by_value);
		need.units = from_top(u, tr->n, share) * f;
		need.mibs = from_top(m, tr->n, share) * f;
	}
	free(u);
	free(m);
	return need;
}
