#!/bin/bash
# quick.sh - `make bench-quick`: the quick plan against the default one,
# wall time per phase, on the README's two volumes (gp3 100 GiB 3,000 IOPS
# 125 MiB/s, gp2 100 GiB), as the markdown table in docs/run.md ("The
# quick plan against the default").
#   - planned: each plan's seconds per phase, from `ebsbench run --dry-run`
#     on two sparse 8.3 GB loop devices typed as those volumes (what
#     `ebsbench k8s` plans on EBS: 5,363 s and 324 s);
#   - measured: `ebsbench run --plan quick` at time_scale 1 on two 1.1 GiB
#     loop devices over /dev/shm capped by blkio as the volumes serve a
#     rested run: gp3 at 3,000 IOPS and 125 MiB/s, gp2 at its 3,000 IOPS
#     burst and 128 MiB/s (the quick plan drains no bucket); a phase's
#     wall time is the sum of its steps' (started to ended), with how many
#     of them ended when steady.
# The default plan's wall time is its plan: every phase but the layout is
# time-based, and its 90 minutes are not re-measured here.  About 6 minutes;
# the table on stdout, progress on stderr; exit 2 when it cannot run.
# QUICK_BENCH_KEEP=DIR keeps the quick run's results there.
set -euo pipefail

PROG=quick
# shellcheck source=fio_bench.sh
. "$(dirname "${BASH_SOURCE[0]}")/fio_bench.sh"

volumes() { # GP3_DEV GP2_DEV EXTRA_JSON
	jq -n --arg a "$1" --arg b "$2" --argjson extra "$3" '{
		devices: [{path: $a, label: "gp3", type: "gp3", size_gib: 100, iops: 3000, throughput_mibs: 125},
		          {path: $b, label: "gp2", type: "gp2", size_gib: 100}],
		environment: {instance_type: "m5.xlarge"}, output_dir: "out"} + $extra'
}

# The rows, in the order the run goes (the read before the first write
# comes first).
PHASES="read-first layout randread loadcurve randwrite lat seqread seqwrite"

# planned PLAN.json PHASE: the plan's seconds for PHASE.
planned() {
	jq --arg p "$2" 'if $p == "read-first" then [.read_first[]?.planned_s // 0] | add // 0
		else [.steps[] | select(.phase == $p) | .planned_s] | add // 0 end' "$1"
}

cd "$WORK"
A=$(make_loop 8300) B=$(make_loop 8300)
volumes "$A" "$B" '{}' >default.json
volumes "$A" "$B" '{"plan": "quick"}' >quick.json
"$EBSBENCH" run --config default.json --dry-run >default.plan 2>/dev/null
"$EBSBENCH" run --config quick.json --dry-run >quick.plan 2>/dev/null
say "planned: default $(jq .planned_s default.plan) s, quick $(jq .planned_s quick.plan) s"

G3=$(make_loop 1100) G2=$(make_loop 1100)
GROUP=$(unique_name quick)
make_group "$GROUP" "$G3" 3000 3000 $((125 << 20)) || die "cannot cap $G3 (cgroup v1 blkio)"
make_group "$GROUP" "$G2" 3000 3000 $((128 << 20)) || die "cannot cap $G2 (cgroup v1 blkio)"
blkio_throttle || die "no blkio throttle: the loop devices would not serve as the volumes"
for dev in "$G3:125" "$G2:128"; do
	set_cap "$BLKIO/$GROUP/blkio.throttle.write_bps_device" \
		"$(lsblk -dno MAJ:MIN "${dev%:*}" | tr -d ' ')" $((${dev#*:} << 20)) ||
		die "cannot cap writes to ${dev%:*}"
done
volumes "$G3" "$G2" '{"plan": "quick"}' >run.json
say "running the quick plan on $G3 (gp3) and $G2 (gp2), capped as the volumes; about 5 minutes"
start=$(date +%s.%N)
in_group "$GROUP" "$EBSBENCH" run --config run.json >/dev/null 2>run.err ||
	die "the quick run failed: $(tail -3 run.err)"
wall=$(echo "$(date +%s.%N) - $start" | bc)
R=out/results.json
[ -z "${QUICK_BENCH_KEEP:-}" ] || cp -r out "$QUICK_BENCH_KEEP"

measured() { # PHASE: "seconds steady/steps"
	jq -r --arg p "$1" 'if $p == "read-first" then "\([.devices[].read_first.seconds // 0] | add) -"
		else [.phases[] | select(.phase == $p)] |
		"\(map(.ended_ms - .started_ms) | add / 1000) \(map(select(.stop.steady)) | length)/\(length)"
		end' "$R"
}

echo "| phase | default plan, s | quick plan (ceilings), s | quick, measured wall s | quick steps ended steady |"
echo "|---|---:|---:|---:|---:|"
for phase in $PHASES; do
	read -r -a m <<<"$(measured "$phase")"
	printf '| %s | %.0f | %.0f | %.1f | %s |\n' "$phase" "$(planned default.plan "$phase")" \
		"$(planned quick.plan "$phase")" "${m[0]}" "${m[1]}"
done
printf '| **all** | **%.0f** | **%.0f** | **%.1f** (the whole run) | %s |\n' \
	"$(jq .planned_s default.plan)" "$(jq .planned_s quick.plan)" "$wall" \
	"$(jq -r '[.phases[] | select(.stop.steady)] | length' "$R")/$(jq '.phases | length' "$R")"
