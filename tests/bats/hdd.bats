#!/usr/bin/env bats
# hdd.bats - an st1 measured as HDD, under QEMU: the first drive is an
# st1-like 500 GiB volume (tests/qemu/volumes.sh: a bps throttle of the
# model's 19.5 MiB/s baseline and 122 MiB/s burst, its burst length set so
# the 500 GiB of credit lasts the model's seconds x time_scale 0.01).  The
# default plan is HDD's (layout, seqread to the throughput cliff, seqwrite);
# the analysis must find the cliff within 10 % of the model's second from
# the ledger's start balance and the baseline within 5 % of the model's,
# and say so in gp2's words, in MiB/s.

# run-bats: alone: an st1's throughput cliff within 10 % of the model's second, its baseline within 5 %

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

@test "appliance: an st1 of 500 GiB gets the HDD plan, its throughput cliff and baseline as the model's" {
	local out=${EBSBENCH_QEMU_OUT:-$BATS_FILE_TMPDIR/hdd}
	boot_past_stalls "$out" --config "$QEMU_DIR/hdd-config.json" --s3 "$GUEST_S3" --ca "$CA_FILE"
	if [ "$status" -ne 0 ]; then
		echo "$output"
		tail -n 40 "$out/console.txt" 2>/dev/null || true
		return 1
	fi
	local results="$out/results/results.json"
	[ -f "$results" ]
	jq -r '"# QEMU (\(.accel)) ran \(.boot.qemu_wall_s) s, its first I/O \(.boot.kernel_to_first_io_s // "?") s after the kernel started"' "$out/facts.json" >&3 || true
	jq -r '.phases[] | "# \(.device) \(.phase): \((.ended_ms - .started_ms) / 1000) s"' "$results" >&3
	# HDD's plan: no 4k phase on it.
	[ "$(jq -c '[.phases[].phase]' "$results")" = '["layout","seqread","seqwrite"]' ]
	local dev='.analysis.devices[] | select(.device == "st1")'
	local cliff model base found
	cliff=$(jq -c "$dev | .cliff" "$results")
	echo "# cliff: $(jq -c '{status, second, predicted_second, verdict, before: .before.mean, after: .after.mean}' <<<"$cliff")" >&3
	[ "$(jq -r .status <<<"$cliff")" = found ] || { echo "no cliff: $cliff" >&2; return 1; }
	# The model's second from the balance the ledger gives seqread's start
	# (a full bucket less what the layout spent), at the model's rates.
	model=$(jq -r "$dev"' | (.credits_at_start.expected_credits / (.prediction.seq_burst_mibs - .prediction.seq_baseline_mibs)) * $ts' \
		--argjson ts "$(jq .plan.time_scale "$results")" "$results")
	found=$(jq -r .second <<<"$cliff")
	base=$(jq -r "$dev | .prediction.seq_baseline_mibs" "$results")
	echo "# the model's cliff at $model s (emulated $(jq .gp2.burst_seconds_emulated "$out/facts.json") s from a full bucket); found at $found s" >&3
	echo "# baseline: the model's $base MiB/s; after the cliff $(jq -r .after.mean <<<"$cliff") MiB/s" >&3
	awk -v f="$found" -v m="$model" 'BEGIN { d = f - m; if (d < 0) d = -d; exit !(d <= 0.10 * m) }' || {
		echo "the cliff at $found s is not within 10 % of the model's $model s" >&2
		return 1
	}
	jq -e --argjson b "$base" '((.after.mean - $b) | fabs) <= 0.05 * $b' <<<"$cliff" >/dev/null || {
		echo "the level after the cliff is not within 5 % of the model's baseline $base MiB/s" >&2
		return 1
	}
	# gp2's words, in MiB/s.
	jq -r '.analysis.findings[], .analysis.details[]' "$results" | grep -m1 -E '^st1: [0-9]+ MiB/s until [0-9.]+ s, then [0-9]+ MiB/s: the credit cliff \(as predicted; the model predicts [0-9.]+ s\)\.$' >&3 || {
		jq -r '.analysis.findings[]' "$results" >&2
		return 1
	}
}
