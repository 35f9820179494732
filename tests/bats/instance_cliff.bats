#!/usr/bin/env bats
# instance_cliff.bats - whose cliff it was, under QEMU: both emulated
# drives sit under one more throttle group, shared, whose leaky bucket is
# an m5.large's EBS limits (3,600 IOPS / 81.25 MB/s baseline, 18,750 /
# 593.75 MB/s for 30 minutes: at time_scale 0.01, L = 16 s, the bucket
# 593.75 MB x 16 drained at what runs above 81.25 MB/s), and the config
# says the instance is an m5.large so the model applies.
#
# Two gp3 of 3,000 IOPS and 750 MiB/s read 256 KiB blocks: each could
# move 3,000 a second, the instance's burst allows 2,265 and its baseline
# 310.  The plan runs one drive at a time, so the first drive's read
# drains the instance's bucket and falls to 310 when it is empty, and the
# second, read after it, is held at 310 from its start: the summary must
# name the instance's cliff.  A 100 GiB gp2 under the same group (3,000
# IOPS of 4 KiB: 12 MB/s, never near the instance's limits) falls to its
# own 300 at 20 s: the summary must name a volume cliff.
# EBSBENCH_QEMU_OUT=DIR keeps each boot's console and results under DIR.

# run-bats: alone: the instance's and the volume's cliffs told apart by their timing under QEMU

bats_require_minimum_version 1.5.0

QEMU_DIR="$BATS_TEST_DIRNAME/../qemu"
ROOT="$BATS_TEST_DIRNAME/../.."
load ../peers/peers
load qemu_helpers

# m5.large's EBS limits as QEMU throttle keys (bytes/s; 1 MB = 10^6 B).
M5_LARGE_BASE_BPS=81250000
M5_LARGE_MAX_BPS=593750000
M5_LARGE_L=16
M5_LARGE_GROUP="iops-total=3600,iops-total-max=18750,iops-total-max-length=$M5_LARGE_L"
M5_LARGE_GROUP+=",bps-total=$M5_LARGE_BASE_BPS,bps-total-max=$M5_LARGE_MAX_BPS"
M5_LARGE_GROUP+=",bps-total-max-length=$M5_LARGE_L"

setup_file() {
	qemu_peers_setup_file
}

teardown_file() {
	qemu_peers_teardown_file
}

# boot_shared OUT CONFIG: the appliance with both drives under the m5.large group.
boot_shared() {
	boot_past_stalls "$1" --config "$2" --throttle filter --shared-group "$M5_LARGE_GROUP" \
		--s3 "$GUEST_S3" --ca "$CA_FILE"
	if [ "$status" -ne 0 ]; then
		echo "$output"
		tail -n 40 "$1/console.txt" 2>/dev/null || true
		return 1
	fi
	[ -f "$1/results/results.json" ] || fail "no results.json came back"
}

# expect OUT WHAT JQ [jq args]: jq -e over results.json, naming what failed.
expect() {
	local out=$1 what=$2
	shift 2
	jq -e "$@" "$out/results/results.json" >/dev/null || {
		echo "FAILED: $what" >&2
		jq -c '.analysis.instance_cliff, (.analysis.devices[] | {device, cliff: (.cliff | del(.before.min, .after.min))})' \
			"$out/results/results.json" >&2
		return 1
	}
}

fail() {
	echo "$1" >&2
	return 1
}

@test "appliance: two drives under one m5.large bucket: the summary names the instance's cliff" {
	local out="${EBSBENCH_QEMU_OUT:-$BATS_FILE_TMPDIR}/instance"
	boot_shared "$out" "$QEMU_DIR/instance-cliff-config.json"
	local results="$out/results/results.json"
	jq -r '.analysis.instance_cliff.sentences[] | "# \(.)"' "$results" >&3
	expect "$out" "the run is named an instance cliff" '.analysis.instance_cliff.kind == "instance"'
	expect "$out" "gp3a's cliff is the instance's" \
		'.analysis.devices[] | select(.device == "gp3a") | .cliff.kind == "instance"'
	# QEMU's truth: gp3a's level after is the group's baseline in 256 KiB
	# reads (310), and its fall comes when the shared bucket is full at the
	# rate it ran: 593.75 MB x L / (rate - 81.25 MB/s), plus what gp3a's
	# first second of the run and any earlier I/O did not change.
	expect "$out" "gp3a fell to the group's baseline" --argjson b "$M5_LARGE_BASE_BPS" \
		'.analysis.devices[] | select(.device == "gp3a") | .cliff.after.median
		 | (. - $b / 262144 | fabs) <= 0.15 * $b / 262144'
	local truth
	truth=$(jq -n --slurpfile r "$results" --argjson b "$M5_LARGE_BASE_BPS" \
		--argjson m "$M5_LARGE_MAX_BPS" --argjson l "$M5_LARGE_L" '
		$r[0].analysis.devices[] | select(.device == "gp3a") | .cliff
		| ($m * $l) / (.before.mean * 262144 - $b)')
	local second
	second=$(jq -r '.analysis.devices[] | select(.device == "gp3a") | .cliff.second' "$results")
	echo "# gp3a fell at $second s of its read; the emulated bucket empties at $truth s" >&3
	jq -en --argjson s "$second" --argjson t "$truth" '($s - $t | fabs) <= 0.1 * $t' >/dev/null ||
		fail "gp3a's fall at $second s is not within 10 % of the emulated $truth s"
	# gp3b, read after the fall, held at the instance's baseline though its
	# volume allows 3,000.
	expect "$out" "gp3b was held at the group's baseline" --argjson b "$M5_LARGE_BASE_BPS" \
		'.phases[] | select(.device == "gp3b" and .phase == "randread") | .job.read.iops
		 | (. - $b / 262144 | fabs) <= 0.15 * $b / 262144'
	grep -q "^> \*\*Whose cliff:\*\* the instance's EBS burst ended at .* every volume fell to the m5.large baseline of 310 IOPS together" \
		"$out/results/summary.md" || fail "summary.md does not name the instance's cliff"
	grep -q "^### gp3a: the instance's EBS burst ended at" "$out/results/summary.md" ||
		fail "summary.md's cliff section does not say whose cliff it was"
}

@test "appliance: a gp2 under the same m5.large bucket: the summary names a volume cliff" {
	local out="${EBSBENCH_QEMU_OUT:-$BATS_FILE_TMPDIR}/gp2"
	boot_shared "$out" "$QEMU_DIR/instance-gp2-config.json"
	jq -r '.analysis.instance_cliff.sentences[] | "# \(.)"' "$out/results/results.json" >&3
	expect "$out" "the run is named a volume cliff" '.analysis.instance_cliff.kind == "volume"'
	expect "$out" "gp2's cliff is the volume's" \
		'.analysis.devices[] | select(.device == "gp2") | .cliff.kind == "volume"'
	grep -q "^> \*\*Whose cliff:\*\* gp2: the cliff at .* is the volume's own: it fell to .* not to the m5.large EBS baseline of 3600" \
		"$out/results/summary.md" || fail "summary.md does not name the volume's cliff"
	grep -q "^### gp2: credit cliff at" "$out/results/summary.md" ||
		fail "summary.md's cliff section does not name the credit cliff"
}
