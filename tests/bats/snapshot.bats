#!/usr/bin/env bats
# snapshot.bats - a volume still loading from its snapshot, under QEMU
# (time_scale 0.01): run-guest.sh --snapshot-latency makes the gp3 drive a
# volume restored from a snapshot (the first read of each 64 KiB cluster
# waits 20 ms, later reads do not: a null-co backing, a qcow2 overlay on
# tmpfs, the copy-on-read filter), and the first drive a plain gp3 of the
# same 3,000 IOPS.  One boot, a read-only plan (randread, lat, seqread over
# 2 GiB volumes, then initialize and a second randread "loaded" with its own
# seed, tests/qemu/snapshot-config.json): the probe at the run's start
# must say loading with its figures on the gp3 and not loading on the
# other; the gp3's randread, which reads clusters not yet loaded, must be
# judged "still loading" (not "worse"), the cause named once and no
# delivered level blamed on the volume; the TL;DR must say so.  Then
# initialize reads every cluster once (2 GiB at gp3's 125 MiB/s: about
# 17 s a volume; the size keeps it short) and the randread after it must
# meet the 3,000 IOPS, judged by the model, not as still loading.

# run-bats: alone: a volume loading from its snapshot against QEMU's copy-on-read

bats_require_minimum_version 1.5.0

QEMU_DIR="$BATS_TEST_DIRNAME/../qemu"
ROOT="$BATS_TEST_DIRNAME/../.."
load helpers
load_bats_libs
load ../peers/peers
load qemu_helpers

SNAPSHOT_LATENCY_NS=20000000

setup_file() {
	qemu_peers_setup_file
	OUT="${EBSBENCH_QEMU_OUT:-$BATS_FILE_TMPDIR}/snapshot"
	export OUT
	local start=$SECONDS
	boot_past_stalls "$OUT" --config "$QEMU_DIR/snapshot-config.json" --throttle filter \
		--snapshot-latency "$SNAPSHOT_LATENCY_NS" --s3 "$GUEST_S3" --ca "$CA_FILE"
	echo "$status" >"$BATS_FILE_TMPDIR/boot.status"
	echo "$((SECONDS - start))" >"$BATS_FILE_TMPDIR/boot.seconds"
}

teardown_file() {
	qemu_peers_teardown_file
}

setup() {
	[ "$(cat "$BATS_FILE_TMPDIR/boot.status")" -eq 0 ] || {
		tail -n 40 "$OUT/console.txt" 2>/dev/null || true
		fail "the guest did not finish (run-guest.sh exit $(cat "$BATS_FILE_TMPDIR/boot.status"))"
	}
	RESULTS="$OUT/results/results.json"
	[ -f "$RESULTS" ] || fail "no results.json came back"
}

@test "appliance: the probe says loading, with its figures, on a volume restored from a snapshot, and not loading on a fresh one" {
	echo "# boot and run: $(cat "$BATS_FILE_TMPDIR/boot.seconds") s" >&3
	jq -r '.devices[] | "# \(.label): \(.initialization | tostring)"' "$RESULTS" >&3
	[ "$(jq -r '.gp3.snapshot_latency_ns' "$OUT/facts.json")" -eq "$SNAPSHOT_LATENCY_NS" ]
	local gp3='.devices[] | select(.label == "gp3") | .initialization'
	jq -e "$gp3 | .state == \"loading\" and .blocks >= 16 and .first_read_ms >= 10
		and .second_read_ms * 3 <= .first_read_ms" "$RESULTS" >/dev/null ||
		fail "gp3's probe does not say loading with its figures: $(jq -c "$gp3" "$RESULTS")"
	jq -e '.devices[] | select(.label == "fresh") | .initialization | .state == "not loading" and .blocks >= 16' \
		"$RESULTS" >/dev/null ||
		fail "the fresh gp3's probe does not say not loading: $(jq -c '.devices[0].initialization' "$RESULTS")"
}

@test "appliance: phases reading blocks not yet loaded name the snapshot as the cause, once, and the TL;DR says so" {
	local dev='.analysis.devices[] | select(.device == "gp3")'
	jq -r "$dev | .phases[] | \"# \(.phase): \(.verdict): \(.explanation)\"" "$RESULTS" >&3
	jq -e "$dev | .phases[] | select(.phase == \"randread\") | .verdict == \"still loading\"" "$RESULTS" >/dev/null ||
		fail "gp3 randread is not judged still loading"
	jq -e "[$dev | .phases[] | select(.verdict == \"worse\")] | length == 0" "$RESULTS" >/dev/null ||
		fail "a gp3 phase is still called worse: $(jq -c "[$dev | .phases[] | {phase, verdict}]" "$RESULTS")"
	jq -e "$dev | .delivered == null" "$RESULTS" >/dev/null ||
		fail "a delivered level is blamed on the volume: $(jq -c "$dev | .delivered" "$RESULTS")"
	jq -e '[.analysis.findings[] | select(test("gp3 was loading from its snapshot"))] | length == 1' \
		"$RESULTS" >/dev/null || fail "the cause is not named once: $(jq -c '.analysis.findings' "$RESULTS")"
	jq -e '[.analysis.findings[] | select(test("likely causes|a modification still optimizing"))] | length == 0' \
		"$RESULTS" >/dev/null || fail "the findings blame the config or a modification"
	local tldr
	tldr=$(sed -n '/^## TL;DR/,/^!\[/p' "$OUT/results/summary.md")
	[[ $tldr == *"**gp3 was loading from its snapshot:**"* ]] || fail "the TL;DR does not say gp3 was loading: $tldr"
	[[ $tldr != *"fresh is still loading"* && $tldr != *"fresh was loading"* ]] || fail "the TL;DR says the fresh volume is loading"
	# The fresh volume, same throttle, no snapshot: its randread as predicted.
	jq -e '.analysis.devices[] | select(.device == "fresh") | .phases[] | select(.phase == "randread") | .verdict == "as predicted"' \
		"$RESULTS" >/dev/null || fail "the fresh gp3's randread is not as predicted"
}

@test "appliance: initialize brings the loading volume to its rate: the randread after it meets 3,000 IOPS, the one before did not" {
	local dev='.analysis.devices[] | select(.device == "gp3")' before after
	before=$(jnum "$RESULTS" "$dev | .phases[] | select(.phase == \"randread\") | .measured")
	after=$(jnum "$RESULTS" "$dev | .phases[] | select(.phase == \"loaded\") | .measured")
	echo "# gp3 randread: $before IOPS before initialize, $after after" >&3
	jq -r "$dev | .initialize | \"# gp3 initialize: \\(.bytes) bytes in \\(.seconds) s, \\(.mibs) MiB/s\"" "$RESULTS" >&3
	# Every cluster read once: the whole 2 GiB, at a rate.
	jq -e "$dev | .initialize | .bytes == 2147483648 and .mibs > 0" "$RESULTS" >/dev/null ||
		fail "no initialize rate: $(jq -c "$dev | .initialize" "$RESULTS")"
	jq -e '[.analysis.details[] | select(test("^gp3: the initialize phase read 2.0 GiB once, sequentially, in [0-9.]+ s: [0-9]+ MiB/s[.]$"))] | length == 1' \
		"$RESULTS" >/dev/null || fail "the rate's sentence: $(jq -c '.analysis.details' "$RESULTS")"
	awk -v b="$before" 'BEGIN { exit !(b < 3000 * 0.95) }' || fail "the randread before initialize met the rate: $before IOPS"
	within_pct "$after" 3000 5 || fail "the randread after initialize is not within 5 % of 3,000: $after IOPS"
	# The phase after initialize reads loaded blocks: judged by the model.
	jq -e "$dev | .phases[] | select(.phase == \"loaded\") | .verdict == \"as predicted\"" "$RESULTS" >/dev/null ||
		fail "gp3 loaded is not as predicted: $(jq -c "$dev | .phases[] | select(.phase == \"loaded\")" "$RESULTS")"
	jq -e "$dev | .initialization.unloaded_phases | test(\"loaded\") | not" "$RESULTS" >/dev/null ||
		fail "the phase after initialize is counted as reading unloaded blocks"
	jq -e '[.analysis.findings[] | select(test("gp3 was loading from its snapshot.*Its initialize phase then read every block once"))] | length == 1' \
		"$RESULTS" >/dev/null || fail "the finding does not say what the initialize did: $(jq -c '.analysis.findings' "$RESULTS")"
}
