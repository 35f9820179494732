#!/usr/bin/env python3
"""generate.py - the scenario corpus: results directories of volume states
whose truth is known, for `ebsbench report` to analyse again and check.py to
judge (tests/bats/corpus.bats).

Each state is one device in one run, played second by second by model.py
(gp2's bucket drained and refilled at baseline, throughput caps, the
instance's EBS limits, the qd1 service time, a rated step's offered load),
with a little seeded noise, and written as `ebsbench run` records it:
OUT/<state>/results.json, and beside it truth.json: the bucket's balance when
randread began (percent, or null without a bucket), whether randread's cliff
lies inside the phase, the level the volume delivered (or null when it
delivered what its facts allow), whether the instance held it, and each
phase's measured rate with what bound it and how long it was served on
borrowed credit (a bucket's, or the instance's burst above its baseline).

The kinds (counts in `--list`):
- gp2-bucket: gp2 of 20..500 GiB whose randread began with 0..100 % of its
  bucket, at time scales 1, 0.1 and 0.01, the seed sequence or a subset,
  idle gaps of 0.5..600 s; the randread as long as the plan makes it (a
  full bucket's burst x 1.35), so the cliff falls where the balance says.
- gp2-lower-bound: the same with a 600 s randread that ends still on burst.
- delivered: gp3 and io2 delivering 30..100 % of what they are provisioned,
  every phase held at that share (the facts recorded are the provisioned).
- no-bucket: gp3, io2 and gp2 of 1,000 GiB and up with the load curve, its
  110 % step held at the limit or served above it (a short step inside the
  limit's tolerance: the run records it "on_burst").
- instance: io2 above the instance's EBS limit (an instance without a burst,
  or a burst one whose run ends inside its 30 minutes).
- instance-spent: io2/gp3 on a burst instance whose burst was spent before
  the run: every phase at the instance's baseline.
- qd1-waits: issue 40's emulated gp3 of 4,000 IOPS whose 4k qd1 I/Os wait
  on a throttle: latency bimodal, p50 0.056 ms (the device) and mean 0.299
  ms (the waits), so one I/O in flight allows 1 / 0.299 ms = 3,344 IOPS,
  under the volume's 4,000 (truth.phases[].waited).
- hdd: issue 40's st1 and sc1 of 500 GiB measured as HDD (the default
  plan's layout, seqread past the throughput cliff, seqwrite), their
  bucket full or 40 % spent when seqread began, or a config's 600 s seqread
  on burst to its end; the cliff is seqread's, in MiB/s
  (truth.cliff_phase).
- loading: issue 40's gp3 of 3,000 IOPS still loading from its snapshot, a
  read-only plan (randread, lat, seqread): its probe recorded first reads of
  21 ms against 0.4 ms again (devices[].initialization); randread and
  seqread, reading blocks not yet loaded, held 57 % and 73 % of the volume's
  rates, lat re-read loaded blocks at the device's own service time
  (truth.loading, truth.phases[].loading).
- together: three volumes driven at once (the together phase): three gp3 of
  3,000 on an m5.xlarge (9,000 on its burst, then its 6,000 baseline: the
  volumes' sum, then the instance's), on an m5.large whose burst was spent
  (3,600: the instance's), on an m5.2xlarge (12,000: the volumes' 9,000 is
  lower), three io2 of 16,000 on an m6i.8xlarge (40,000, no burst: the
  instance's); truth.together says whose limit set each level.

Deterministic: a state's noise is seeded by its name.
Usage: generate.py OUT [--only SUBSTRING]   |   generate.py --list
"""
import json
import math
import os
import random
import sys
import zlib

from model import (GP2_BUCKET, HDD, INSTANCES, MIB, Volume, instance_has_burst, instance_ops,
                   io_units, volume_ops)

LABEL = "vol"
CLIFF_MARGIN = 1.35  # plan.c: randread runs a full bucket's burst x this
# A cliff this close to either end of randread is not the truth's to call:
# cliff.c needs 5 windows either side, and skips a real second at the start.
EDGE_WINDOWS = 30
EDGE_REAL_S = 1.5
SERVICE_S = {"gp2": 0.00055, "gp3": 0.0005, "io2": 0.00025}  # 4k at qd1
SERVICE_1M_S = 0.004  # a 1 MiB write at qd1 (the layout)
LOAD_PERCENTS = [25, 50, 75, 90, 100, 110]  # plan_loadcurve.c's defaults
SEQUENCE = ["layout", "randread", "loadcurve", "randwrite", "lat", "seqread", "seqwrite"]
SUBSETS = {
    "seed": SEQUENCE,
    "no-loadcurve": [p for p in SEQUENCE if p != "loadcurve"],
    "randread": ["randread"],
    "layout-randread": ["layout", "randread"],
    "randread-loadcurve": ["randread", "loadcurve"],
    "hdd": ["layout", "seqread", "seqwrite"],  # plan_step_skips: the default plan on st1/sc1
}
# phase: rw, bs, iodepth, model seconds (0: the plan decides)
PHASES = {
    "layout": ("write", MIB, 1, 64),
    "randread": ("randread", 4096, 32, 600),
    "randwrite": ("randwrite", 4096, 32, 120),
    "lat": ("randread", 4096, 1, 60),
    "seqread": ("read", MIB, 8, 60),
    "seqwrite": ("write", MIB, 8, 60),
}


def percentiles(p50, p95, p99, p999):
    return {"50.000000": p50 * 1e9, "95.000000": p95 * 1e9, "99.000000": p99 * 1e9,
            "99.900000": p999 * 1e9}


def direction(iops, bs, runtime_ms, mean_s, pct):
    """One direction of fio's job object (times in ns)."""
    ios = round(iops * runtime_ms / 1000)
    return {"io_bytes": ios * bs, "bw_bytes": round(iops * bs), "iops": iops,
            "runtime": runtime_ms, "total_ios": ios,
            "clat_ns": {"mean": mean_s * 0.99e9, "percentile": pct},
            "lat_ns": {"mean": mean_s * 1e9, "percentile": pct}}


def idle_direction():
    return {"io_bytes": 0, "bw_bytes": 0, "iops": 0.0, "runtime": 0, "total_ios": 0,
            "clat_ns": {"mean": 0.0}, "lat_ns": {"mean": 0.0}}


class Run:
    """One device's phases on one clock; the volume played second by second."""

    def __init__(self, vol, instance, scale, seed, spent=False, credits=0.0, waits=None):
        self.vol, self.instance, self.scale = vol, instance, scale
        self.spent = spent  # the instance's burst was used up before the run
        self.waits = waits  # (p50, mean) seconds of a 4k qd1 I/O that waits, or None
        self.rng = random.Random(seed)
        self.credits = credits
        self.now_ms = 1788362160000.0
        self.t = 0.0  # model seconds since the first phase began
        self.last_end_ms = None
        self.records, self.truth = [], []
        # The instance's burst lasts this long into the run (none when spent).
        burst_s = INSTANCES[instance][4]
        self.burst_until = burst_s if burst_s and not spent else -1.0

    def idle(self, model_s):
        if self.vol.bucket:
            self.credits = min(self.vol.bucket, self.credits + model_s * self.vol.baseline)
        self.now_ms += model_s * self.scale * 1000
        self.t += model_s

    def limits(self, bs, seq, above):
        """The phase's fixed figures, in I/O per second: the instance's
        burst and baseline, the volume's burst and baseline (what it
        delivers), and the units one I/O costs."""
        vol = self.vol
        return (instance_ops(self.instance, bs, True), instance_ops(self.instance, bs, False),
                volume_ops(vol, bs, seq, True) * above, volume_ops(vol, bs, seq, False) * above,
                io_units(bs, seq, vol.unit))

    def second(self, demand, lim):
        """One second at demand (I/O per second): the rate the volume gives,
        and whether it was served on borrowed credit (a bucket's credits or
        the instance's burst above its baseline)."""
        inst_burst, inst_base, vol_burst, vol_base, units = lim
        demand = min(demand, inst_burst if self.t < self.burst_until else inst_base)
        if not self.vol.bucket:
            rate = min(demand, vol_base)
            return rate, self.t < self.burst_until and rate > inst_base
        want = min(demand, vol_burst)
        need = want * units - self.vol.baseline  # credits a second, net of refill
        if need <= 0 or self.credits >= need:
            self.credits = min(self.vol.bucket, self.credits - need)
            rate, bucket = want, need > 0
        else:
            part = self.credits / need
            self.credits = 0.0
            rate, bucket = part * want + (1 - part) * min(demand, vol_base), part > 0
        return rate, bucket or (self.t < self.burst_until and rate > inst_base)

    def model_allows(self, bs, seq, qd, offered, end_t):
        """What the recorded facts allow a non-bucket volume, each bound
        by name: the instance on burst while the run is inside its burst's
        30 minutes, unless its burst was spent before the run (which the
        analysis must infer from the level the phases held)."""
        inst_burst = (instance_has_burst(self.instance) and not self.spent
                      and end_t <= INSTANCES[self.instance][4])
        limits = {"volume": volume_ops(self.vol, bs, seq, False, recorded=True),
                  "instance": instance_ops(self.instance, bs, inst_burst)}
        if qd <= 2:
            limits["latency"] = qd / self.per_io(bs, qd)[1]
        if offered:
            limits["offered"] = offered
        return limits

    def per_io(self, bs, qd):
        """A low-depth I/O's p50 and mean time: the device's service time,
        or a 4k qd1 I/O's (p50, mean) where it waits on a throttle."""
        service = service_of(self.vol, bs)
        return self.waits if self.waits and qd <= 2 and bs < MIB else (service, service)

    def phase(self, name, rw, bs, qd, seconds, offered=None, load=None, above=1.0):
        """A phase of `seconds` model seconds; returns its record."""
        seq = rw in ("read", "write")
        service, per_io = self.per_io(bs, qd)
        demand = min(qd / per_io if qd <= 2 else math.inf, offered or math.inf)
        start_t, start_ms = self.t, self.now_ms
        credits_before = self.credits
        rates, lim, credit_until = [], self.limits(bs, seq, above), 0
        # What full demand would have got when the phase began: a rated
        # step's latency rises as its offered load nears it.
        capacity = min(lim[0] if self.t < self.burst_until else lim[1],
                       lim[2] if self.vol.bucket and self.credits > 0 else lim[3])
        for k in range(seconds):
            rate, borrowed = self.second(demand, lim)
            rates.append(rate)
            credit_until = k + 1 if borrowed else credit_until
            self.t += 1
        self.now_ms += seconds * self.scale * 1000
        iops = sum(rates) / len(rates)
        runtime_ms = round(seconds * self.scale * 1000)
        rnd = self.rng.random
        noisy = [r * (1 + 0.012 * (rnd() + rnd() - 1)) for r in rates]  # within 1.2 %
        if name == "randread":
            noisy[0] = 2 * rates[0]  # fio's first window: the queue filling
        record = {
            "phase": name, "device": LABEL, "started_ms": round(start_ms),
            "ended_ms": round(self.now_ms),
            "idle_before_s": None if self.last_end_ms is None
            else round((start_ms - self.last_end_ms) / 1000, 6),
            "iodepth": qd, "bs": bs, "rw": rw, "runtime_s": seconds,
            "window_ms": 1000 * self.scale,
            "job": self.job(name, rw, bs, qd, iops, runtime_ms, service, offered, capacity),
            "iops_log": f"{LABEL}_{name}_iops.1.log",
            "iops_series": [round(x, 1) for x in noisy],
            "ebs_stats": {"available": False, "reason": "corpus"}, "disk_check": None}
        if load is not None:
            record["load"] = load
            load["on_burst"] = iops > (load["sustained_iops"] + load["offered_iops"]) / 2
        self.last_end_ms = self.now_ms
        self.records.append(record)
        truth = self.phase_truth(name, bs, seq, qd, offered, iops, start_t, credits_before)
        # The phase's seconds (run seconds, scaled) served on borrowed
        # credit: from its start to credit_until_s, to its end when equal.
        truth["credit_until_s"] = credit_until * self.scale
        truth["credit_to_end"] = credit_until == seconds
        self.truth.append(truth)
        truth["waited"] = per_io > service
        return record

    def job(self, name, rw, bs, qd, iops, runtime_ms, service, offered, capacity):
        """fio's jobs[0]: latencies that keep every queue full (Little's
        law), the qd1 p50 at the device's service time, a rated step's
        latency from its load against the capacity it met."""
        if offered:
            rho = min(offered / capacity, 1.0)
            if offered <= capacity * 1.01:
                mean = service * (1 + 3 * rho ** 4)
                pct = percentiles(service * (1 + rho ** 4), service * (1.3 + 6 * rho ** 8),
                                  service * (1.5 + 20 * rho ** 8), service * (2 + 40 * rho ** 8))
            else:  # behind its rate: the queue fills
                mean = qd / iops
                pct = percentiles(mean * 0.9, mean * 1.6, mean * 2.5, mean * 3)
        elif qd <= 2:
            mean = qd / iops
            pct = percentiles(service, max(mean * 2, service * 1.2), max(mean * 2.3, service * 1.5),
                              max(mean * 3, service * 2))
        else:
            mean = qd / iops
            pct = percentiles(mean * 0.97, mean * 1.08, mean * 1.15, mean * 1.3)
        d = direction(round(iops, 2), bs, runtime_ms, mean, pct)
        writes = "write" in rw
        job = {"jobname": f"{LABEL}-{name}", "error": 0, "job_runtime": runtime_ms,
               "read": idle_direction() if writes else d,
               "write": d if writes else idle_direction()}
        if offered:
            job["ebsbench"] = {"rate": {"read_iops": offered, "process": "poisson"}}
        return job

    def phase_truth(self, name, bs, seq, qd, offered, iops, start_t, credits_before):
        """What bound the phase: the lowest of the facts' limits (none within
        10 % of another: else "either"), "delivered" when the volume held it
        under 90 % of that, "instance" when a spent burst did."""
        t = {"phase": name, "unit": "MiB/s" if seq else "IOPS",
             "measured": iops * bs / MIB if seq else iops, "offered": offered}
        if self.vol.bucket:
            t["credits_at_start"] = credits_before
            t["bound_by"] = None  # the bucket's: the credit checks judge it
            return t
        limits = self.model_allows(bs, seq, qd, offered, self.t)
        low = min(limits.values())
        t["model_allows"] = low * bs / MIB if seq else low
        if iops < 0.9 * low:
            t["bound_by"] = "instance" if self.spent else "delivered"
        elif self.vol.share < 0.9 and not self.spent and iops < 0.98 * low:
            # under the lowest of the facts' limits, if by less than 10 %, on a
            # volume under-delivering by more than the analysis' tolerance:
            # the level it delivers bound it (a 90 % step, delivering 85 %)
            t["bound_by"] = "delivered"
        else:
            near = [k for k, v in limits.items() if v <= low * 1.1]
            t["bound_by"] = near[0] if len(near) == 1 else "either"
        return t


def service_of(vol, bs):
    return SERVICE_1M_S if bs >= MIB else SERVICE_S[vol.type]


def sustained_iops(vol, instance):
    """plan_sustained_iops: the volume's 4k baseline or the instance's."""
    v = volume_ops(vol, 4096, False, False, recorded=True)
    i = instance_ops(instance, 4096, False)
    if i < v:
        return i, "the instance's baseline EBS IOPS"
    return v, "the volume's baseline" if vol.type == "gp2" else "the volume's provisioned IOPS"


def loadcurve(run, above_110):
    """The loadcurve steps (plan_loadcurve.c): a bursting volume's from the
    highest load down, each at least 60 s."""
    sustained, source = sustained_iops(run.vol, run.instance)
    order = LOAD_PERCENTS[::-1] if run.vol.bucket else LOAD_PERCENTS
    for k, pct in enumerate(order):
        offered = max(1, round(sustained * pct / 100))
        seconds = int(min(600, max(60, math.ceil(200 / 0.01 / offered))))
        qd = int(min(1024, max(32, math.ceil(offered * 0.004))))
        if k:
            run.idle(0.5)
        load = {"percent": float(pct), "offered_iops": float(offered),
                "sustained_iops": sustained, "sustained_from": source,
                "above_sustained": offered > sustained, "ramp_s": 0.0}
        above = 1.08 if above_110 and pct > 100 else 1.0
        run.phase("loadcurve", "randread", 4096, qd, seconds, offered=offered, load=load,
                  above=above)


def play(run, phases, gaps, randread_s, above_110=False, cliff_phase="randread"):
    """The phases in order, gaps[i] model seconds of idle before phase i;
    the cliff phase runs randread_s."""
    for i, name in enumerate(phases):
        if i:
            run.idle(gaps[i % len(gaps)])
        if name == "loadcurve":
            loadcurve(run, above_110)
            continue
        rw, bs, qd, seconds = PHASES[name]
        run.phase(name, rw, bs, qd, randread_s if name == cliff_phase else seconds)


def document(run, phases):
    vol = run.vol
    return {
        "schema": 3,
        "ebsbench": {"version": "0.1.0", "build_id": "0" * 64, "image_digest": None},
        "environment": {"instance_type": run.instance, "instance_id": "i-0corpus",
                        "zone": "ap-northeast-2a", "kernel": "6.1.192", "hostname": "corpus",
                        "started": "2026-12-01T10:00:00Z", "finished": "2026-12-01T12:00:00Z",
                        "stopped_early": False},
        "plan": {"time_scale": run.scale, "region": "ap-northeast-2", "test_size": 8 << 30,
                 "phases": phases, "read_only": False},
        "devices": [{"label": LABEL, "path": "/dev/nvme1n1", "kind": "ebs",
                     "volume_id": "vol-0corpus", "model": "Amazon Elastic Block Store",
                     "serial": "vol0corpus", "size_bytes": vol.gib << 30,
                     "logical_block_size": 512, "volume": vol.record(),
                     "instance_limits": None}],
        "phases": run.records,
    }


def seed_of(name):
    return zlib.crc32(name.encode())


def cliff_phase_of(vol):
    """The phase the plan runs to the cliff: seqread on st1/sc1 (their
    credits are throughput), randread on the rest."""
    return "seqread" if vol.type in HDD else "randread"


def randread_truth(run, vol, seconds):
    """Where the cliff phase's cliff falls: the second its credits ran out."""
    name = cliff_phase_of(vol)
    rec = run.truth[[t["phase"] for t in run.truth].index(name)]
    start = rec["credits_at_start"]
    rw, bs = PHASES[name][:2]
    seq = rw in ("read", "write")
    drain = volume_ops(vol, bs, seq, True) * io_units(bs, seq, vol.unit) - vol.baseline
    cliff_s = start / drain if drain > 0 else math.inf
    if cliff_s >= seconds:
        cliff = False  # still on burst when it ended
    elif cliff_s < 1:
        cliff = False  # no burst at all
    elif (cliff_s < max(EDGE_WINDOWS, EDGE_REAL_S / run.scale)
          or cliff_s > seconds - EDGE_WINDOWS):
        cliff = None  # at an edge: too close to call
    else:
        cliff = True
    return start, cliff_s, cliff


def gp2_state(name, gib, start_pct, scale, subset, gaps, randread_s=None, vol=None):
    """A gp2 (or vol) whose cliff phase (randread; seqread on st1/sc1)
    begins with start_pct of its bucket: the balance before the layout
    solved for by bisection (the layout and idle gaps between move it)."""
    vol = vol or Volume("gp2", gib)
    phases = SUBSETS[subset]
    cliff_phase = cliff_phase_of(vol)
    rw, bs = PHASES[cliff_phase][:2]
    seq = rw in ("read", "write")
    full_burst = vol.bucket / (volume_ops(vol, bs, seq, True) * io_units(bs, seq, vol.unit)
                               - vol.baseline)
    seconds = randread_s or max(PHASES[cliff_phase][3], math.ceil(full_burst * CLIFF_MARGIN))
    target = start_pct / 100 * vol.bucket
    before = phases[:phases.index(cliff_phase)]
    # The gap before randread refills no more than the target: a bucket
    # emptied by the phases before, refilled only by that gap.
    gaps = list(gaps)
    k = len(before) % len(gaps)
    if before:
        gaps[k] = min(gaps[k], target / vol.baseline)

    def at_randread(b0):
        run = Run(vol, INSTANCE_GP2[seed_of(name) % len(INSTANCE_GP2)], scale, seed_of(name),
                  credits=b0)
        play(run, before, gaps, seconds, cliff_phase=cliff_phase)
        if before:
            run.idle(gaps[len(before) % len(gaps)])
        return run.credits

    lo, hi = 0.0, vol.bucket
    for _ in range(32):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if at_randread(mid) < target else (lo, mid)
    run = Run(vol, INSTANCE_GP2[seed_of(name) % len(INSTANCE_GP2)], scale, seed_of(name),
              credits=hi)
    play(run, phases, gaps, seconds, cliff_phase=cliff_phase)
    start, cliff_s, cliff = randread_truth(run, vol, seconds)
    kind = "hdd" if vol.type in HDD else "gp2-lower-bound" if randread_s else "gp2-bucket"
    truth = base_truth(name, kind, run, subset, gaps)
    truth.update({"bucket_start_percent": 100 * start / vol.bucket, "cliff_phase": cliff_phase,
                  "cliff_phase_s": seconds,
                  "bucket_start_credits": start, "randread_s": seconds,
                  "cliff": cliff, "cliff_model_s": cliff_s if math.isfinite(cliff_s) else None,
                  "randread_ends_on_burst": cliff_s >= seconds})
    return document(run, phases), truth


def base_truth(name, kind, run, subset, gaps):
    vol = run.vol
    return {"state": name, "kind": kind, "device": LABEL, "volume": vol.record(),
            "instance_type": run.instance, "time_scale": run.scale, "phases_subset": subset,
            "idle_gaps_model_s": gaps, "has_bucket": vol.bucket > 0, "facts_right": True,
            "bucket_start_percent": None, "cliff": False, "delivered": None,
            "instance_limited": any(t["phase"] == "randread" and t.get("bound_by") == "instance"
                                    for t in run.truth),
            "rated_steps": sum(1 for t in run.truth if t["offered"]),
            "phases": run.truth}


def flat_state(name, kind, vol, instance, scale, subset, gaps, spent=False, above_110=False,
               waits=None):
    """A volume without a bucket: every phase at what it delivers."""
    run = Run(vol, instance, scale, seed_of(name), spent=spent, waits=waits)
    phases = SUBSETS[subset]
    play(run, phases, gaps, PHASES["randread"][3], above_110)
    truth = base_truth(name, kind, run, subset, gaps)
    truth["served_above_110"] = above_110
    if vol.share < 0.9:
        capped = {t["unit"] for t in run.truth if t["bound_by"] == "delivered"}
        levels = {"IOPS": vol.share * vol.iops}
        if "MiB/s" in capped:
            levels["MiB/s"] = vol.share * vol.mibs
        truth["delivered"] = {"unit": "IOPS", "level": levels["IOPS"], "provisioned": vol.iops,
                              "ratio": vol.share, "levels": levels}
    return document(run, phases), truth


# Instances for the gp2 states: their baseline above any gp2's 3,000 IOPS and
# 250 MiB/s, so the volume alone binds whenever the run ends.
INSTANCE_GP2 = ["m5.2xlarge", "m6i.2xlarge", "r5.2xlarge", "m5.4xlarge"]
GAP_SETS = [[0.5, 60, 120, 60, 180, 0.5, 1], [600, 0.5, 5, 1, 1, 1, 1],
            [5, 120, 600, 60, 0.5, 60, 5], [60, 1, 1, 1, 1, 1, 1]]
SCALES = [1.0, 0.1, 0.01]
QD1_WAITS = (0.000056, 0.000299)  # issue 40's gp3 at qd1: p50, mean (s)


def states():
    """Every state: (name, builder of (results, truth))."""
    out = []
    subsets = [k for k in SUBSETS if k != "hdd"]  # the gp2 states cycle through these
    n = 0
    for gib in (20, 100, 250, 500):
        for pct in (0, 2, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 100):
            for scale in SCALES:
                subset = subsets[n % len(subsets)]
                gaps = GAP_SETS[n % len(GAP_SETS)]
                name = f"gp2-{gib}g-start{pct:03d}-x{scale:g}-{subset}"
                out.append((name, lambda a=(name, gib, pct, scale, subset, gaps): gp2_state(*a)))
                n += 1
        for pct in (50, 75, 100):
            scale = SCALES[n % 3]
            name = f"gp2-{gib}g-lower{pct:03d}-x{scale:g}"
            out.append((name, lambda a=(name, gib, pct, scale, "seed", GAP_SETS[n % 4], 600):
                        gp2_state(*a)))
            n += 1
    volumes = [("gp3", 100, 3000, 125), ("gp3", 200, 6000, 250), ("gp3", 500, 12000, 500),
               ("gp3", 1000, 16000, 1000), ("io2", 100, 3000, None), ("io2", 200, 8000, None),
               ("io2", 500, 16000, None)]
    for vtype, gib, iops, mibs in volumes:
        for share in (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.95, 1.0):
            scale, subset = SCALES[n % 3], ["seed", "no-loadcurve", "randread"][n % 3]
            name = f"delivered-{vtype}-{iops}-at{round(share * 100):03d}-x{scale:g}-{subset}"
            vol = Volume(vtype, gib, iops, mibs, share=share)
            out.append((name, lambda a=(name, "delivered", vol, "m6i.8xlarge", scale, subset,
                                        GAP_SETS[n % 4]): flat_state(*a)))
            n += 1
    for vtype, gib, iops, mibs in [("gp2", 1000, None, None), ("gp2", 2000, None, None),
                                   ("gp2", 5334, None, None), ("gp3", 100, 3000, 125),
                                   ("gp3", 400, 10000, 500), ("io2", 100, 5000, None),
                                   ("io2", 400, 20000, None)]:
        for above in (False, True):
            for scale in (1.0, 0.01):
                name = (f"nobucket-{vtype}-{gib}g-{'above' if above else 'held'}110"
                        f"-x{scale:g}")
                vol = Volume(vtype, gib, iops, mibs)
                out.append((name, lambda a=(name, "no-bucket", vol, "m5.8xlarge", scale, "seed",
                                            GAP_SETS[n % 4], False, above): flat_state(*a)))
                n += 1
    for iops, gib, instance in [(20000, 100, "m5.4xlarge"), (32000, 100, "m5.4xlarge"),
                                (32000, 100, "m5.8xlarge"), (32000, 100, "c5.4xlarge"),
                                (40000, 100, "m5.8xlarge"), (64000, 100, "m6i.8xlarge"),
                                (24000, 100, "r5.4xlarge"), (32000, 100, "m5.large"),
                                (20000, 100, "r5.large"), (40000, 100, "c5.large")]:
        scale = SCALES[n % 3]
        subset = "no-loadcurve" if instance_has_burst(instance) else "seed"
        name = f"instance-io2-{iops}-on-{instance}-x{scale:g}"
        out.append((name, lambda a=(name, "instance", Volume("io2", gib, iops), instance, scale,
                                    subset, [0.5, 1, 1, 1, 1, 1, 1]): flat_state(*a)))
        n += 1
    for vtype, gib, iops, instance in [("io2", 100, 16000, "m5.large"),
                                       ("io2", 100, 16000, "m5.xlarge"),
                                       ("io2", 100, 16000, "c5.large"),
                                       ("gp3", 100, 12000, "r5.large"),
                                       ("gp3", 100, 16000, "m5.2xlarge"),
                                       ("io2", 100, 20000, "m6i.2xlarge")]:
        scale = SCALES[n % 3]
        name = f"instance-spent-{vtype}-{iops}-on-{instance}-x{scale:g}"
        vol = Volume(vtype, gib, iops, 1000 if vtype == "gp3" else None)
        out.append((name, lambda a=(name, "instance-spent", vol, instance, scale, "no-loadcurve",
                                    GAP_SETS[n % 4], True): flat_state(*a)))
        n += 1
    for scale in SCALES:
        name = f"qd1-waits-gp3-4000-x{scale:g}"
        out.append((name, lambda a=(name, "qd1-waits", Volume("gp3", 100, 4000, 125),
                                    "m6i.8xlarge", scale, "seed", GAP_SETS[n % 4], False, False,
                                    QD1_WAITS): flat_state(*a)))
        n += 1
    gp3 = Volume("gp3", 100, 3000, 125)
    for scale in (1.0, 0.01):
        for tag, vols, instance, seconds, spent in [
                ("3gp3-on-m5.xlarge-burst", [gp3] * 3, "m5.xlarge", 2430, False),
                ("3gp3-on-m5.large-spent", [gp3] * 3, "m5.large", 600, True),
                ("3gp3-on-m5.2xlarge", [gp3] * 3, "m5.2xlarge", 600, False),
                ("3io2-16000-on-m6i.8xlarge", [Volume("io2", 100, 16000)] * 3, "m6i.8xlarge",
                 600, False)]:
            name = f"together-{tag}-x{scale:g}"
            out.append((name, lambda a=(name, vols, instance, scale, seconds, spent):
                        together_state(*a)))
    for scale in SCALES:
        name = f"loading-gp3-3000-x{scale:g}"
        out.append((name, lambda a=(name, Volume("gp3", 100, 3000, 125), "m6i.8xlarge", scale,
                                    GAP_SETS[n % 4]): loading_state(*a)))
        n += 1
    return out + hdd_states()


def hdd_states():
    """st1 and sc1 of 500 GiB, their bucket full or 40 % spent at seqread."""
    out = []
    for vtype, scale in (("st1", 0.01), ("sc1", 1.0)):
        for pct in (100, 60):
            name = f"{vtype}-500g-start{pct:03d}-x{scale:g}-hdd"
            out.append((name, lambda a=(name, 500, pct, scale, "hdd", GAP_SETS[0]), t=vtype:
                        gp2_state(*a, vol=Volume(t, 500))))
        # A config's 600 s seqread: on burst to its end, never steady.
        name = f"{vtype}-500g-lower100-x{scale:g}-hdd"
        out.append((name, lambda a=(name, 500, 100, scale, "hdd", GAP_SETS[0], 600), t=vtype:
                    gp2_state(*a, vol=Volume(t, 500))))
    return out


LOADING_SHARE = {"randread": 0.57, "seqread": 0.73}  # issue 40's 1,709 IOPS and 92 MiB/s


def loading_state(name, vol, instance, scale, gaps):
    """A volume still loading from its snapshot under a read-only plan: the
    phases reading blocks not yet loaded held a share of its rates."""
    run = Run(vol, instance, scale, seed_of(name))
    phases = ["randread", "lat", "seqread"]
    for i, p in enumerate(phases):
        if i:
            run.idle(gaps[i % len(gaps)])
        rw, bs, qd, seconds = PHASES[p]
        run.phase(p, rw, bs, qd, seconds, above=LOADING_SHARE.get(p, 1.0))
    truth = base_truth(name, "loading", run, "read-only", gaps)
    truth["loading"] = True
    for t in run.truth:
        t["loading"] = t["phase"] in LOADING_SHARE
        if t["loading"]:
            t["bound_by"] = "volume"  # the model's bound; the snapshot held it below
    doc = document(run, phases)
    doc["plan"]["read_only"] = True
    doc["schema"] = 4  # devices[].initialization
    doc["devices"][0]["initialization"] = {
        "state": "loading", "first_read_ms": 21.3, "second_read_ms": 0.41,
        "first_read_mean_ms": 22.0, "second_read_mean_ms": 0.45, "blocks": 64, "seconds": 0.36}
    return doc, truth


TOGETHER_LABELS = ["vola", "volb", "volc"]


def together_state(name, vols, instance, scale, seconds, spent=False):
    """Three volumes driven at once (the together phase, 4k randread at
    qd32 on each): their sum held the lower of the volumes' limits summed
    and the instance's (its burst for its first 30 minutes unless spent
    before the run, then its baseline), a third on each device."""
    rng = random.Random(seed_of(name))
    vsum = sum(volume_ops(v, 4096, False, False) for v in vols)
    burst_s = INSTANCES[instance][4] if instance_has_burst(instance) and not spent else -1
    inst = [instance_ops(instance, 4096, k < burst_s) for k in range(seconds)]
    agg = [min(vsum, i) for i in inst]
    bound = ["volumes" if vsum <= i else "instance" for i in inst]
    start_ms = 1788362160000
    runtime_ms = round(seconds * scale * 1000)
    records, devices = [], []
    for d, (label, vol) in enumerate(zip(TOGETHER_LABELS, vols)):
        rates = [a / len(vols) for a in agg]
        iops = sum(rates) / len(rates)
        noisy = [r * (1 + 0.012 * (rng.random() + rng.random() - 1)) for r in rates]
        noisy[0] = 2 * rates[0]  # fio's first window: the queue filling
        mean = 32 / iops
        d_rec = direction(round(iops, 2), 4096, runtime_ms, mean,
                          percentiles(mean * 0.97, mean * 1.08, mean * 1.15, mean * 1.3))
        records.append({
            "step": d, "phase": "together", "device": label, "started_ms": start_ms + d,
            "ended_ms": start_ms + d + runtime_ms, "idle_before_s": None, "iodepth": 32,
            "bs": 4096, "rw": "randread", "runtime_s": seconds, "window_ms": 1000 * scale,
            "job": {"jobname": f"{label}-together", "error": 0, "job_runtime": runtime_ms,
                    "read": d_rec, "write": idle_direction()},
            "iops_log": f"{label}_tg_iops.1.log", "iops_series": [round(x, 1) for x in noisy],
            "ebs_stats": {"available": False, "reason": "corpus"}, "disk_check": None,
            "together": {"group": 0, "devices": len(vols)}})
        devices.append({"label": label, "path": f"/dev/nvme{d + 1}n1", "kind": "ebs",
                        "volume_id": f"vol-0corpus{d}", "model": "Amazon Elastic Block Store",
                        "serial": f"vol0corpus{d}", "size_bytes": vol.gib << 30,
                        "logical_block_size": 512, "volume": vol.record(),
                        "instance_limits": None})
    run = Run(vols[0], instance, scale, seed_of(name))
    doc = document(run, ["together"])
    doc.update({"schema": 4, "devices": devices, "phases": records})
    doc["plan"]["read_only"] = True
    truth = base_truth(name, "together", run, "together", [0])
    truth["device"] = TOGETHER_LABELS[0]
    truth["phases"] = [{"phase": "together", "unit": "IOPS", "measured": records[0]["job"]["read"]["iops"],
                        "offered": None, "bound_by": None, "credit_until_s": 0,
                        "credit_to_end": False, "waited": False}]
    fell = bound[0] != bound[-1]
    truth["together"] = {"bound": bound[0], "bound_after": bound[-1] if fell else None,
                         "cliff": "instance" if fell else None,
                         "level": agg[0], "level_after": agg[-1] if fell else None}
    return doc, truth


def write(out_dir, name, doc, truth):
    d = os.path.join(out_dir, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "results.json"), "w") as f:
        f.write(json.dumps(doc, separators=(",", ":")))
    with open(os.path.join(d, "truth.json"), "w") as f:
        f.write(json.dumps(truth, indent=1))


def main(argv):
    if argv[1:] == ["--list"]:
        for name, _ in states():
            print(name)
        return 0
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != "--only"):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    only = argv[3] if len(argv) == 4 else ""
    count = 0
    for name, build in states():
        if only in name:
            write(argv[1], name, *build())
            count += 1
    print(f"generate.py: {count} states in {argv[1]}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
