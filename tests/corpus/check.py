#!/usr/bin/env python3
"""check.py - judges what `ebsbench report` inferred for each corpus state
against its truth (generate.py): STATE/analysed.json (`ebsbench report
--json STATE`), STATE/summary.md, STATE/recommend.md and STATE/truth.json.

Checks, each failure one line "STATE: CHECK: what":
- balance: analysis.devices[].credits_at_start.percent within 5 points of
  the bucket's balance when randread began (a lower bound, lower_bound
  true: at most 5 points above it; and a randread that ended on burst must
  say lower_bound); null for a volume without a bucket.
- cliff: the cliff phase's cliff (randread's; seqread's on st1/sc1) found when the truth has one inside the phase
  (away from its edges), not found when it has none.
- delivered: .delivered.level within 3 % of the level the volume delivered
  in that unit; null (or absent) when it delivered what its facts allow.
- bound: each phase's .bound names what held it (truth.phases[].bound_by:
  volume, instance, latency, the offered load, "delivered limit"), where no
  two limits lie within 10 % of each other.
- findings: at most forbidden.FINDINGS_MAX analysis.findings.
- steady: no phase steady (.steady.reached) in a window that began before
  the phase stopped drawing borrowed credit (truth.phases[].credit_until_s,
  one window's slack): a bucket's credits or the instance's burst.
- forbidden:<id>: a sentence forbidden.CLAIMS says is false for the state.

Usage: check.py [--json FILE] STATE_DIR...   Prints the failures, then one
line of counts; exit 1 when any check failed.  --json writes the counts
and every failure (with its sentence) for a test to pick apart.
"""
import json
import os
import re
import sys

from forbidden import CLAIMS, FINDINGS_MAX

BALANCE_POINTS = 5.0 + 1e-6  # a state generated at 5 % is 5 % within rounding
LEVEL_SHARE = 0.03
BOUND_PREFIX = {"volume": "volume", "instance": "instance", "latency": "latency",
                "offered": "the offered load", "delivered": "the delivered limit"}
TEXT_KEYS = ("explanation", "sentence", "cause")
DEVICE = object()  # a sentence about the device as a whole
RECOMMEND = object()  # a line of recommend.md: only "recommend" claims judge it


class State:
    def __init__(self, path):
        self.path = path
        self.name = os.path.basename(os.path.normpath(path))
        with open(os.path.join(path, "truth.json")) as f:
            self.truth = json.load(f)
        with open(os.path.join(path, "analysed.json")) as f:
            self.results = json.load(f)
        with open(os.path.join(path, "summary.md")) as f:
            self.summary = f.read()
        rec = os.path.join(path, "recommend.md")
        self.recommend = open(rec).read() if os.path.exists(rec) else ""
        self.label = self.truth["device"]
        self.cliff_phase = self.truth.get("cliff_phase", "randread")
        analysis = self.results.get("analysis") or {}
        self.analysis = analysis
        self.device = next((d for d in analysis.get("devices", [])
                            if d.get("device") == self.label), {})
        self.phases = self.truth["phases"]
        self.capped = [p["bound_by"] == "delivered" for p in self.phases]
        self.on_credit = [p.get("credit_to_end", False) for p in self.phases]
        self.waited = [p.get("waited", False) for p in self.phases]
        self.failures = []

    def fail(self, check, what, sentence=None, where=None):
        self.failures.append({"state": self.name, "kind": self.truth["kind"], "check": check,
                              "what": what, "sentence": sentence, "where": where})

    # --- the sentences and what each is about -------------------------------
    def indices_of(self, phase):
        return [i for i, p in enumerate(self.phases) if p["phase"] == phase]

    def about(self, text):
        """The phase indices a sentence speaks of, or DEVICE."""
        m = re.match(re.escape(self.label) + r" (\w+):", text)
        if m and self.indices_of(m.group(1)):
            return self.indices_of(m.group(1))
        return DEVICE

    def json_sentences(self):
        """(text, where, about) for every sentence in the analysed record."""
        out = []
        for key in ("findings", "details"):
            for i, s in enumerate(self.analysis.get(key) or []):
                if isinstance(s, str):
                    out.append((s, f"analysis.{key}[{i}]", self.about(s)))
        same = len(self.device.get("phases") or []) == len(self.phases)

        def walk(node, path):
            if isinstance(node, dict):
                for k, v in node.items():
                    if path == "analysis" and k in ("findings", "details"):
                        continue
                    if k in TEXT_KEYS and isinstance(v, str):
                        # a phase's own explanation speaks of that phase
                        m = re.search(r"\.phases\[(\d+)\]$", path)
                        about = [int(m.group(1))] if m and same else self.about(v)
                        out.append((v, f"{path}.{k}", about))
                    elif k == "sentences" and isinstance(v, list):
                        for j, s in enumerate(v):
                            if isinstance(s, str):
                                out.append((s, f"{path}.sentences[{j}]", self.about(s)))
                    else:
                        walk(v, f"{path}.{k}")
            elif isinstance(node, list):
                for j, v in enumerate(node):
                    walk(v, f"{path}[{j}]")
        walk(self.analysis, "analysis")
        return out

    def summary_sentences(self):
        """(text, where, about) for every line of summary.md: a bullet by its
        own words, a line under a phase's section as that phase's, the TL;DR
        verdicts item by item."""
        out, section = [], None
        for n, line in enumerate(self.summary.splitlines(), 1):
            where = f"summary.md:{n}"
            if line.startswith("## "):
                m = re.search(r"\u2014 (\w+) \(", line)
                section = m.group(1) if m and self.indices_of(m.group(1)) else None
            if line.startswith("- "):
                out.append((line[2:], where, self.about(line[2:])))
            elif line.startswith("| Verdict per phase |"):
                for item in line.split("|")[2:-1]:
                    for part in item.split(" \u00b7 "):
                        name = part.strip().split(" ")[0]
                        out.append((part.strip(), where, self.indices_of(name) or DEVICE))
            elif line.strip():
                out.append((line, where, self.indices_of(section) if section else DEVICE))
        return out

    # --- the checks -----------------------------------------------------------
    def check_balance(self):
        t, cas = self.truth, self.device.get("credits_at_start")
        truth = t["bucket_start_percent"]
        if truth is None:
            if cas is not None:
                self.fail("balance", f"a start balance for a volume without a bucket: {cas!r:.200}")
            return
        if not isinstance(cas, dict) or not isinstance(cas.get("percent"), (int, float)):
            self.fail("balance", f"no start balance (truth {truth:.1f} %): credits_at_start is "
                      f"{json.dumps(cas)[:120]}")
            return
        got, lower = cas["percent"], cas.get("lower_bound") is True
        if t.get("randread_ends_on_burst") and not lower:
            self.fail("balance", f"randread ended on burst but lower_bound is not true "
                      f"(percent {got:.1f}, truth {truth:.1f})", cas.get("sentence"))
        if lower and got > truth + BALANCE_POINTS:
            self.fail("balance", f"lower bound {got:.1f} % above the truth {truth:.1f} %",
                      cas.get("sentence"))
        elif not lower and abs(got - truth) > BALANCE_POINTS:
            self.fail("balance", f"{got:.1f} % where the truth is {truth:.1f} %",
                      cas.get("sentence"))

    def check_cliff(self):
        want = self.truth["cliff"]
        if want is None or self.cliff_phase not in [p["phase"] for p in self.phases]:
            return
        cliff = self.device.get("cliff") or {}
        found = cliff.get("status") == "found"
        if want and not found:
            self.fail("cliff", f"no cliff found; the truth has it at "
                      f"{self.truth['cliff_model_s']:.0f} model s (status "
                      f"{cliff.get('status')}, verdict {cliff.get('verdict')})")
        elif not want and found:
            self.fail("cliff", f"a cliff found at {cliff.get('second')} s where there is none")

    def check_delivered(self):
        want, got = self.truth["delivered"], self.device.get("delivered")
        if want is None:
            if got is not None:
                self.fail("delivered", f"under-delivery claimed: {json.dumps(got)[:200]}",
                          got.get("sentence") if isinstance(got, dict) else None)
            return
        if not isinstance(got, dict):
            self.fail("delivered", f"no .delivered; the volume delivered {want['level']:.0f} "
                      f"IOPS ({want['ratio']:.0%} of {want['provisioned']})")
            return
        level = want["levels"].get(got.get("unit"))
        value = got.get("level")
        if level is None or not isinstance(value, (int, float)):
            self.fail("delivered", f"level {value} {got.get('unit')}: the truth has "
                      f"{want['levels']}", got.get("sentence"))
        elif abs(value - level) > LEVEL_SHARE * level:
            self.fail("delivered", f"level {value:.0f} {got['unit']}, the truth {level:.0f}",
                      got.get("sentence"))

    def check_bounds(self):
        phases = self.device.get("phases") or []
        if len(phases) != len(self.phases):
            self.fail("bound", f"{len(phases)} phases analysed, {len(self.phases)} run")
            return
        for i, (t, a) in enumerate(zip(self.phases, phases)):
            prefix = BOUND_PREFIX.get(t["bound_by"])
            bound = a.get("bound") or ""
            if prefix and not bound.startswith(prefix):
                self.fail("bound", f"{t['phase']} (#{i}) bound by {t['bound_by']}, the analysis "
                          f"says {bound!r}", a.get("explanation"))

    def check_steady(self):
        phases = self.device.get("phases") or []
        if len(phases) != len(self.phases):
            return  # check_bounds says so
        slack = self.truth["time_scale"]  # one iops_series window
        for i, (t, a) in enumerate(zip(self.phases, phases)):
            s = a.get("steady") or {}
            until = t.get("credit_until_s", 0)
            if s.get("reached") and until > s.get("from_s", 0) + slack + 1e-9:
                self.fail("steady", f"{t['phase']} (#{i}) steady from {s.get('from_s'):.3g} s, "
                          f"but on borrowed credit until {until:.3g} s", s.get("sentence"),
                          f"analysis.devices[].phases[{i}].steady")

    def check_findings(self):
        n = len(self.analysis.get("findings") or [])
        if n > FINDINGS_MAX:
            self.fail("findings", f"{n} findings (at most {FINDINGS_MAX})")

    def check_claims(self):
        """Every sentence against every claim false for the state; returns
        (sentences, claims checked)."""
        claims = [c for c in CLAIMS if c["when"](self.truth)]
        sentences = self.json_sentences() + self.summary_sentences() + [
            (line, f"recommend.md:{n}", RECOMMEND)
            for n, line in enumerate(self.recommend.splitlines(), 1) if line.strip()]
        checked = 0
        randread = self.indices_of(self.cliff_phase)
        for text, where, about in sentences:
            for c in claims:
                if (about is RECOMMEND) != (c["scope"] == "recommend"):
                    continue
                if c["scope"] == "capped":
                    idx = randread if about is DEVICE else about
                    if not idx or not all(self.capped[i] for i in idx):
                        continue
                if c["scope"] == "on-credit" and (about is DEVICE or not about or not all(
                        self.on_credit[i] for i in about)):
                    continue
                if c["scope"] == "waited" and (about is DEVICE
                                               or not all(self.waited[i] for i in about)):
                    continue
                checked += 1
                if any(re.search(p, text, re.I) for p in c["patterns"]):
                    self.fail("forbidden:" + c["id"], c["why"], text, where)
        self.fail_tldr_counts(claims)
        return len(sentences), checked

    def fail_tldr_counts(self, claims):
        """The TL;DR's "loadcurve (6 steps: 5 as predicted, ...)": no more
        steps as predicted than were not held under their prediction."""
        if not any(c["id"] == "as-predicted-under-delivery" for c in claims):
            return
        for m in re.finditer(r"(\w+) \((\d+) steps: (\d+) as predicted", self.summary):
            idx = self.indices_of(m.group(1))
            free = sum(1 for i in idx if not self.capped[i])
            if int(m.group(3)) > free:
                self.fail("forbidden:as-predicted-under-delivery",
                          f"{m.group(3)} steps as predicted, {free} were not held under it",
                          m.group(0), "summary.md TL;DR")


def main(argv):
    args = argv[1:]
    report = None
    if args[:1] == ["--json"]:
        report, args = args[1], args[2:]
    if not args:
        print(next(l for l in __doc__.splitlines() if l.startswith("Usage:")), file=sys.stderr)
        return 2
    totals = {"states": 0, "sentences": 0, "claims": 0, "checks": 0}
    failures = []
    for path in args:
        s = State(path)
        s.check_balance()
        s.check_cliff()
        s.check_delivered()
        s.check_bounds()
        s.check_findings()
        s.check_steady()
        n, claims = s.check_claims()
        totals["states"] += 1
        totals["sentences"] += n
        totals["claims"] += claims
        totals["checks"] += 6 + claims
        failures += s.failures
    for f in failures:
        line = f"{f['state']}: {f['check']}: {f['what']}"
        print(line + (f" [{f['where']}] {f['sentence']!r:.300}" if f["sentence"] else ""))
    by_check = {}
    for f in failures:
        by_check.setdefault(f["check"], set()).add(f["state"])
    totals["failures"] = len(failures)
    totals["failed_states"] = len({f["state"] for f in failures})
    totals["by_check"] = {k: len(v) for k, v in sorted(by_check.items())}
    print(f"corpus: {totals['states']} states, {totals['sentences']} sentences, "
          f"{totals['claims']} claims checked, {totals['failures']} failures in "
          f"{totals['failed_states']} states"
          + "".join(f"; {k}: {v} states" for k, v in totals["by_check"].items()))
    if report:
        with open(report, "w") as f:
            json.dump({"totals": totals, "failures": failures}, f, indent=1)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
