#!/usr/bin/env bats
# credits.bats - a gp2 that starts its cliff phase with a part-empty
# bucket, under QEMU: the emulated 100 GiB gp2 (QEMU's leaky bucket,
# time_scale 0.01) is drained by a first randread phase of 800 s (8 s
# here) at 3,000 IOPS, which spends about 40 % of the bucket; the
# randread after it must report the balance it began with, inferred from
# its cliff, within 5 % of what the emulated bucket held, and the TL;DR
# must say the bucket was part-empty.
#
# The emulated truth comes from QEMU's own accounting: a bucket of
# 3,000 x L units (facts.json) that grows by every I/O the drain phase
# completed, leaks at the 300 IOPS baseline over the drain and the idle gap
# after it; in model seconds it is divided by the time scale.

# run-bats: alone: a gp2 bucket's balance inferred from its cliff, within 5 % of QEMU's

bats_require_minimum_version 1.5.0

QEMU_DIR="$BATS_TEST_DIRNAME/../qemu"
ROOT="$BATS_TEST_DIRNAME/../.."
load ../peers/peers
load qemu_helpers

setup_file() {
	qemu_peers_setup_file
}

teardown_file() {
	qemu_peers_teardown_file
}

@test "appliance: a gp2 started part-empty reports its start balance within 5 % of the emulated one" {
	local out="$BATS_FILE_TMPDIR/part-empty"
	boot_past_stalls "$out" --config "$QEMU_DIR/part-empty-config.json" \
		--s3 "$GUEST_S3" --ca "$CA_FILE"
	if [ "$status" -ne 0 ]; then
		echo "$output"
		tail -n 40 "$out/console.txt" 2>/dev/null || true
		return 1
	fi
	local results="$out/results/results.json"
	[ -f "$results" ]
	# What the emulated bucket held when randread began, in model credits.
	local truth
	truth=$(jq -n --slurpfile r "$results" --slurpfile f "$out/facts.json" '
		($f[0].gp2) as $g | $r[0] as $r | ($r.plan.time_scale) as $s
		| ($r.phases[] | select(.phase == "drain")) as $d
		| ($r.phases[] | select(.phase == "randread")) as $rr
		| (3000 * $g.burst_length) as $bucket
		| ([$d.job.read.total_ios - $g.baseline_iops * $d.job.job_runtime / 1000, 0] | max) as $spent
		| ([$bucket, $bucket - $spent + $g.baseline_iops * $rr.idle_before_s] | min) / $s')
	local state='.analysis.devices[] | select(.device == "gp2") | .credits_at_start'
	local reported
	reported=$(jq -r "$state | .credits" "$results")
	echo "# emulated start balance $truth credits; reported $reported" >&3
	jq -r "$state"' | "# \(.sentence)"' "$results" >&3
	jq -e --argjson t "$truth" "$state | ((.credits - \$t) | fabs) <= 0.05 * \$t" "$results" >/dev/null || {
		echo "reported start balance $reported is not within 5 % of the emulated $truth" >&2
		return 1
	}
	jq -e "$state | .low == true and .percent < 80 and .percent > 40" "$results" >/dev/null || {
		echo "the start balance should be flagged low (40-80 %): $(jq -c "$state" "$results")" >&2
		return 1
	}
	grep -q '> \*\*gp2 started with a part-empty bucket:\*\* the cliff came at' "$out/results/summary.md" || {
		echo "the TL;DR does not say the bucket was part-empty" >&2
		return 1
	}
}
