#!/usr/bin/env bats
# together.bats - the instance's EBS ceiling under QEMU: three emulated
# gp3 (3,000 IOPS, 750 MiB/s each) under one more throttle group, shared,
# whose leaky bucket is an m5.large's EBS limits (as instance_cliff.bats:
# 81.25 MB/s baseline, 593.75 for L = 16 s), driven at once by the
# together phase alone, 1 MiB reads for 30 s (3,000 s at time_scale
# 0.01).  The volumes could move 2,250 a second together (750 MiB/s
# each); the instance's burst allows 566 and its baseline 77.5.  The analysis must find the
# sum's ceiling within 5 % of the instance's burst, name the instance as
# the bound, and tell the sum's fall to 310 as the instance's burst
# running out.
# EBSBENCH_QEMU_OUT=DIR keeps the boot's console and results under DIR.

# run-bats: alone: three drives' rates under one emulated instance limit, which a neighbour would disturb

bats_require_minimum_version 1.5.0

QEMU_DIR="$BATS_TEST_DIRNAME/../qemu"
ROOT="$BATS_TEST_DIRNAME/../.."
load ../peers/peers
load qemu_helpers

BS_BYTES=1048576 # the config's bs: few I/Os, so TCG keeps up with three drives
M5_LARGE_BASE_BPS=81250000
M5_LARGE_MAX_BPS=593750000
M5_LARGE_GROUP="iops-total=3600,iops-total-max=18750,iops-total-max-length=16"
M5_LARGE_GROUP+=",bps-total=$M5_LARGE_BASE_BPS,bps-total-max=$M5_LARGE_MAX_BPS,bps-total-max-length=16"

setup_file() {
	qemu_peers_setup_file
}

teardown_file() {
	qemu_peers_teardown_file
}

fail() {
	echo "$1" >&2
	return 1
}

@test "appliance: three drives at once under one m5.large bucket: the instance's ceiling, named as the bound" {
	local out="${EBSBENCH_QEMU_OUT:-$BATS_FILE_TMPDIR}/together"
	boot_past_stalls "$out" --config "$QEMU_DIR/together-config.json" --throttle filter \
		--shared-group "$M5_LARGE_GROUP" --s3 "$GUEST_S3" --ca "$CA_FILE"
	if [ "$status" -ne 0 ]; then
		echo "$output"
		tail -n 40 "$out/console.txt" 2>/dev/null || true
		return 1
	fi
	local r="$out/results/results.json"
	[ -f "$r" ] || fail "no results.json came back"
	echo "# boot: $(jq -r '.boot.qemu_wall_s' "$out/facts.json") s in QEMU, kernel to first I/O $(jq -r '.boot.kernel_to_first_io_s' "$out/facts.json") s" >&3
	jq -r '.analysis.together[] | "# \(.sentence)"' "$r" >&3
	# Three phases, one per drive, started together.
	[ "$(jq '[.phases[] | select(.phase == "together")] | length' "$r")" = 3 ] ||
		fail "not three together phases: $(jq -c '[.phases[] | {phase, device}]' "$r")"
	jq -e '[.phases[].started_ms] | max - min < 1000' "$r" >/dev/null ||
		fail "the drives did not start together: $(jq -c '[.phases[].started_ms]' "$r")"
	local g='.analysis.together[0]'
	# The ceiling on the instance's burst: 593.75 MB/s of 256 KiB reads.
	jq -e --argjson m "$M5_LARGE_MAX_BPS" --argjson bs "$BS_BYTES" "$g | (.iops - \$m / \$bs | fabs) <= 0.05 * \$m / \$bs" "$r" >/dev/null ||
		fail "the ceiling $(jq "$g.iops" "$r") is not within 5 % of the burst's $((M5_LARGE_MAX_BPS / BS_BYTES))"
	jq -e "$g.bound == \"instance\"" "$r" >/dev/null || fail "the bound is $(jq "$g.bound" "$r")"
	# The burst runs out: the instance's cliff, to its baseline (310).
	jq -e "$g.cliff.kind == \"instance\" and $g.cliff.bound_after == \"instance\"" "$r" >/dev/null ||
		fail "the fall: $(jq -c "$g.cliff" "$r")"
	jq -e --argjson b "$M5_LARGE_BASE_BPS" --argjson bs "$BS_BYTES" "$g.cliff.after_iops | (. - \$b / \$bs | fabs) <= 0.05 * \$b / \$bs" "$r" >/dev/null ||
		fail "after the fall $(jq "$g.cliff.after_iops" "$r"), not within 5 % of the baseline's 77.5"
	echo "# ceiling $(jq -r "$g.iops | floor" "$r") IOPS (the m5.large's burst: 566), after $(jq -r "$g.cliff.second" "$r") s $(jq -r "$g.cliff.after_iops | floor" "$r") (its baseline: 77.5)" >&3
	# Named once, and no device blamed for the instance's limit.
	[ "$(jq '[.analysis.details[] | select(test("driven at once [(]"))] | length' "$r")" = 1 ] ||
		fail "the ceiling is not named once: $(jq -c '.analysis.details' "$r")"
	grep -q "gp3a, gp3b and gp3c driven at once (1024 KiB randread): .* the m5.large's EBS limit set it" \
		"$out/results/summary.md" || fail "summary.md does not name the instance's ceiling"
	run grep -Ec "less than it is sold as|likely causes" "$out/results/summary.md"
	[ "$output" = 0 ] || fail "summary.md blames a volume: $(grep -E 'less than it is sold as|likely causes' "$out/results/summary.md")"
}
