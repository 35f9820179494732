"""forbidden.py - the one table of sentences the analysis must not write for
a state, by what the state's truth.json says (check.py applies it).

Each claim: an id, the patterns that make it (regular expressions, case
insensitive), when it is false (a test on the truth), its scope and why.
Scopes:
- "device": every sentence about the state's one device: analysis.findings,
  analysis.details, every "explanation", "sentence", "cause" and
  "sentences" in results.json, every line of summary.md.
- "capped": only sentences about a phase the volume held below 90 % of what
  its facts allow (truth.phases[].bound_by "delivered"): a phase's
  explanation, a sentence naming "<label> <phase>:" (all that phase's
  runs capped), a summary.md line under that phase's section or its TL;DR
  verdict; sentences about the device as a whole ("<label>: ...") count
  as its randread's.
- "on-credit": only sentences about a phase served on borrowed credit (a
  bucket's, or the instance's burst above its baseline) to its very end
  (truth.phases[].credit_to_end; a sentence naming "<label> <phase>:" all
  of whose runs were), a summary.md line under that phase's section.
- "recommend": only the lines of recommend.md (which no other scope reads:
  it names candidates' bursts and buckets, not the state's).
- "waited": only sentences about a phase whose low-depth I/Os waited on a
  throttle (truth.phases[].waited): its explanation, a sentence naming
  "<label> <phase>:", a summary.md line under its section or its TL;DR
  verdict; sentences about the device as a whole are not its.
"""

FINDINGS_MAX = 8  # analysis.findings holds at most this many (CONTRACT.md)


def _bucket_start(t):
    """The balance when randread began, in percent, rounded to 1e-6 (the
    generator solves for it by bisection)."""
    p = t["bucket_start_percent"]
    return None if p is None else round(p, 6)


CLAIMS = [
    {"id": "hdd-for-small-random",
     "patterns": [r"\*\*(?:st1|sc1)\*\* \(chosen\)", r"^\*\*[^*]*: (?:st1|sc1) [\d,]+ GiB at"],
     "when": lambda t: t["volume"]["type"] not in ("st1", "sc1"),
     "scope": "recommend",
     "why": "the need recommend keeps is the state's own 4 KiB randread IOPS, small random I/O, "
            "and every st1/sc1 I/O up to 1 MiB costs 1 MiB of their throughput credit"},
    {"id": "on-burst-without-bucket",
     "patterns": [r"\bon burst\b", r"\bburst credits\b"],
     "when": lambda t: not t["has_bucket"],
     "scope": "device",
     "why": "the volume has no credit bucket to burst on (gp3, io2, gp2 of 1,000 GiB and up)"},
    {"id": "submitter-blamed",
     "patterns": [r"did not keep the queue full"],
     "when": lambda t: True,
     "scope": "device",
     "why": "the generator keeps every queue full (IOPS x mean latency = iodepth) and rated "
            "steps ask only their rate"},
    {"id": "as-predicted-under-delivery",
     "patterns": [r"(?<!not )\bas predicted\b", r"(?<!not )\bas the model predicts\b"],
     "when": lambda t: t["delivered"] is not None and t["delivered"]["ratio"] < 0.9,
     "scope": "capped",
     "why": "the volume delivered under 90 % of what its facts allow in that phase"},
    {"id": "bucket-full",
     "patterns": [r"\b100 ?% full\b"],
     "when": lambda t: _bucket_start(t) is not None and _bucket_start(t) < 95,
     "scope": "device",
     "why": "the bucket held under 95 % when randread began (and less before it)"},
    {"id": "bucket-empty",
     "patterns": [r"\bbucket (?:was |is )?empty\b", r"(?<!part-)\bempty bucket\b"],
     "when": lambda t: _bucket_start(t) is None or _bucket_start(t) > 5,
     "scope": "device",
     "why": "the bucket held over 5 % when randread began, or there is no bucket"},
    {"id": "qd1-waits-worse",
     "patterns": [r"\bworse\b", r"bound by volume IOPS"],
     "when": lambda t: any(p.get("waited") for p in t["phases"]),
     "scope": "waited",
     "why": "one I/O in flight whose mean latency holds waits allows iodepth / mean IOPS, "
            "which is what the phase measured: neither worse than predicted nor bound by the "
            "volume's IOPS (issue 40: 3,345 IOPS at 0.299 ms is 1 / 0.299 ms)"},
    {"id": "check-the-facts",
     "patterns": [r"check the volume facts"],
     "when": lambda t: t["facts_right"],
     "scope": "device",
     "why": "the volume's facts in results.json are the ones the generator played"},
    {"id": "steady-on-credit",
     "patterns": [r"(?<!not )\bsteady after\b"],
     "when": lambda t: any(p.get("credit_to_end") for p in t["phases"]),
     "scope": "on-credit",
     "why": "the phase was served on borrowed credit to its end: flat only until the bucket "
            "runs dry, never steady"},
    {"id": "loading-blamed-on-volume",
     "patterns": [r"\bworse\b", r"likely causes", r"modification still optimizing",
                  r"less than it is sold as", r"\bas delivered\b", r"\bmissed in this run\b"],
     "when": lambda t: t.get("loading", False),
     "scope": "device",
     "why": "the volume was still loading from its snapshot (its probe's first reads 50x "
            "slower than the same blocks again): the phases reading blocks not yet loaded "
            "were held by that, not by a level of the volume's or its config's facts"},
    {"id": "together-instance-named",
     "patterns": [r"EBS limit set it", r"EBS burst ran out"],
     "when": lambda t: "together" in t and "instance" not in (t["together"]["bound"],
                                                            t["together"]["bound_after"]),
     "scope": "device",
     "why": "the volumes' limits summed set every level the devices held at once: the "
            "instance allowed more"},
    {"id": "together-volumes-named",
     "patterns": [r"the volumes set it"],
     "when": lambda t: "together" in t and t["together"]["bound"] == "instance"
     and t["together"]["bound_after"] in (None, "instance"),
     "scope": "device",
     "why": "the instance's EBS limit set every level the devices held at once: the "
            "volumes could have gone faster"},
    {"id": "together-volume-blamed",
     "patterns": [r"less than it is sold as", r"likely causes", r"\bworse\b",
                  r"volume's own", r"\bas delivered\b"],
     "when": lambda t: "together" in t and "instance" in (t["together"]["bound"],
                                                        t["together"]["bound_after"]),
     "scope": "device",
     "why": "the instance's limit held the devices' sum: no volume delivered less than "
            "its facts allow"},
    {"id": "hdd-baseline-blamed",
     "patterns": [r"\bworse\b", r"likely causes", r"less than it is sold as",
                  r"\bas delivered\b", r"\bmissed in this run\b", r"check the volume facts"],
     "when": lambda t: t["kind"] == "hdd",
     "scope": "device",
     "why": "an st1/sc1 falling to its baseline when its throughput bucket runs dry is the "
            "cliff the model predicts, not the volume delivering less than its facts allow"},
    {"id": "hdd-cliff-in-iops",
     "patterns": [r"\bIOPS until\b", r"\bfell to \d+ IOPS\b", r"then \d+ IOPS\b"],
     "when": lambda t: t["kind"] == "hdd",
     "scope": "device",
     "why": "an st1/sc1 bucket holds throughput credit (1 MiB per I/O up to 1 MiB): its "
            "cliff is in MiB/s"},
]
