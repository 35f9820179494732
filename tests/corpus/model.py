"""model.py - the EBS volume and instance as the corpus generator plays them:
what a phase of fio gets from a volume second by second (gp2's bucket
drained and refilled at baseline, 256 KiB accounting, throughput caps) and
from the instance's EBS limits.  It restates runner/model/ebs_model.c and
ebs_model_tables.c from AWS's figures (not from the C), so that a results.json
made here is what a real volume in that state would have recorded.
"""
import math

KIB = 1024
MIB = 1 << 20
UNIT = 256 * KIB  # an SSD I/O up to 256 KiB counts one unit
HDD_UNIT = MIB  # st1/sc1: an I/O up to 1 MiB costs 1 MiB of credit
# st1 and sc1 (AWS's EBS volume types page): MiB/s per TiB of baseline and
# burst, the most either can be, and the throughput cap; the bucket holds
# 1 TiB of credit per TiB.
HDD = {"st1": (40, 250, 500, 500, 500), "sc1": (12, 80, 192, 250, 250)}
MERGE_MIN = 32 * KIB  # contiguous I/O this big merges into whole units
GP2_BUCKET = 5.4e6

# Instance EBS limits (AWS "Amazon EBS specifications" tables): baseline
# IOPS, burst IOPS, baseline MB/s, burst MB/s, burst seconds a day.
INSTANCES = {
    "m5.large": (3600, 18750, 81.25, 593.75, 1800),
    "m5.xlarge": (6000, 18750, 143.75, 593.75, 1800),
    "m5.2xlarge": (12000, 18750, 287.5, 593.75, 1800),
    "m5.4xlarge": (18750, 18750, 593.75, 593.75, 0),
    "m5.8xlarge": (30000, 30000, 850, 850, 0),
    "m6i.2xlarge": (12000, 40000, 312.5, 1250, 1800),
    "m6i.8xlarge": (40000, 40000, 1250, 1250, 0),
    "c5.large": (4000, 20000, 81.25, 593.75, 1800),
    "c5.4xlarge": (20000, 20000, 593.75, 593.75, 0),
    "c5.9xlarge": (40000, 40000, 1187.5, 1187.5, 0),
    "r5.large": (3600, 18750, 81.25, 593.75, 1800),
    "r5.2xlarge": (12000, 18750, 287.5, 593.75, 1800),
    "r5.4xlarge": (18750, 18750, 593.75, 593.75, 0),
}


class Volume:
    """A volume's facts as recorded (type, GiB, IOPS, MiB/s), and what it
    does: `share` of its provisioned figures when it under-delivers."""

    def __init__(self, vtype, gib, iops=None, mibs=None, share=1.0):
        self.type, self.gib, self.share = vtype, gib, share
        self.unit = HDD_UNIT if vtype in HDD else UNIT
        if vtype in HDD:  # throughput credits, in MiB: units per second are MiB/s
            base, burst, base_max, burst_max, cap = HDD[vtype]
            self.baseline = min(base * gib / KIB, base_max)
            self.burst = min(burst * gib / KIB, burst_max)
            self.bucket = KIB * gib if self.burst > self.baseline else 0.0
            self.cap_mibs = cap
            self.iops, self.mibs = self.baseline, cap
        elif vtype == "gp2":
            self.baseline = min(max(3 * gib, 100), 16000)
            self.burst = max(3000, self.baseline)
            self.bucket = GP2_BUCKET if self.burst > self.baseline else 0.0
            self.cap_mibs = 128 if gib <= 170 else 250
            self.iops, self.mibs = self.baseline, self.cap_mibs
        elif vtype == "gp3":
            self.iops, self.mibs = iops or 3000, mibs or 125
        elif vtype == "io2":
            self.iops = iops or 3000
            self.mibs = min(4000, 0.25 * self.iops)
        else:
            raise ValueError(vtype)
        if vtype in ("gp3", "io2"):
            self.baseline = self.burst = self.iops
            self.bucket = 0.0
            self.cap_mibs = self.mibs

    def record(self):
        """devices[].volume as the run records it."""
        return {"type": self.type, "size_gib": self.gib, "iops": self.iops,
                "throughput_mibs": self.mibs, "assumed": []}


def io_units(bs, sequential, unit=UNIT):
    """Units one I/O costs: contiguous I/O of 32 KiB and up merges (on
    st1/sc1 any sequential I/O merges into whole MiBs)."""
    units = bs / unit
    merges = sequential and (bs >= MERGE_MIN or unit == HDD_UNIT)
    return units if merges else math.ceil(units)


def rate_at_size(units_per_s, mibs, bs, sequential, unit=UNIT):
    """I/O per second of bs bytes a unit rate and a MiB/s cap allow."""
    return min(units_per_s / io_units(bs, sequential, unit), mibs * MIB / bs)


def volume_ops(vol, bs, sequential, burst, recorded=False):
    """What the volume allows at full demand, in I/O per second of bs
    bytes: its burst or baseline figures; recorded: as its facts say,
    else what it delivers (share of them)."""
    share = 1.0 if recorded else vol.share
    units = (vol.burst if burst else vol.baseline) * share
    if vol.type == "gp2" or vol.type in HDD:  # no more MiB/s than its units allow
        mibs = min(vol.cap_mibs, units * vol.unit / MIB)
    else:
        mibs = vol.cap_mibs * share
    return rate_at_size(units, mibs, bs, sequential, vol.unit)


def instance_ops(name, bs, burst):
    """The instance's EBS limit in I/O per second of bs bytes."""
    base_iops, burst_iops, base_mb, burst_mb, _ = INSTANCES[name]
    iops, mb = (burst_iops, burst_mb) if burst else (base_iops, base_mb)
    return min(iops, mb * 1e6 / bs)


def instance_has_burst(name):
    return INSTANCES[name][4] > 0
