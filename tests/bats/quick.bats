#!/usr/bin/env bats
# quick.bats - the quick plan (docs/run.md, The quick plan) end to end in
# the appliance under QEMU, one boot: the demo's emulated gp2 (a leaky
# bucket: 300 IOPS, 3,000 of burst, its cliff at 20 s at time_scale 0.01)
# and gp3 (3,000 IOPS, 125 MiB/s), every phase of the default plan, each
# ended when steady.  The quick plan never runs faster than time_scale
# 0.2, so each phase is 3 s of real time at most: the boot adds about two
# minutes to the suite.
#
# What it checks: the gp3's randread, randwrite and sequential figures
# within 5 % of the throttle's (and randread within 5 % of the full plan's,
# docs/example/results.json, `make demo` on the same emulation; its 0.6 s
# sequential phases ran on the throttle's first-tenth-of-a-second burst,
# 144 MiB/s against 125, so they are no yardstick); the gp2's randread not
# called steady while on burst, by the engine or the analysis; its cliff
# reported as predicted, not measured, at the model's 20 s; and no step
# the engine stopped as steady whose window was not (SNIA's range and
# slope, worked out again here from the window it judged).

# run-bats: alone: the throttles' IOPS and MiB/s under QEMU

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

# jq -e over results.json, naming the check when it fails.
check() {
	local what=$1
	shift
	if ! jq -e "$@" "$RESULTS" >/dev/null; then
		echo "FAILED: $what: jq $*" >&2
		jq -c '.phases[] | {phase, device, load: .load.percent, s: ((.ended_ms - .started_ms) / 1000), stop, iops: (.job.read.iops + .job.write.iops), bw: (.job.read.bw_bytes + .job.write.bw_bytes)}' "$RESULTS" >&2
		return 1
	fi
}

@test "appliance --plan quick: gp3 within 5 % of its throttle, gp2 never steady on burst, its cliff predicted, not measured" {
	OUT=${EBSBENCH_QEMU_OUT:-$BATS_FILE_TMPDIR/quick}
	boot_past_stalls "$OUT" --config "$QEMU_DIR/quick-config.json" --s3 "$GUEST_S3" --ca "$CA_FILE" \
		--timeout 480
	if [ "$status" -ne 0 ]; then
		echo "$output"
		tail -n 40 "$OUT/console.txt" 2>/dev/null || true
		return 1
	fi
	powered_off_by_itself "$OUT"
	RESULTS="$OUT/results/results.json"
	[ -f "$RESULTS" ]
	check "the quick plan, every phase of the default" \
		'.plan.name == "quick" and .plan.phases == ["layout", "randread", "loadcurve", "randwrite", "lat", "seqread", "seqwrite"]'
	# Each timed step's ceiling: 15 s (10 s a load step) at the quick plan's
	# floor scale of 0.2, 3 s of real time (a load step keeps its 3 s).
	check "every timed step's ceiling is 3 s" \
		'[.phases[] | select(.phase != "layout") | .stop.ceiling_s] | length == 22 and all(. == 3)'
	local gp3='.phases[] | select(.device == "gp3")'
	check "gp3 randread within 5 % of 3,000 IOPS" \
		"$gp3 | select(.phase == \"randread\") | .job.read.iops | . >= 2850 and . <= 3150"
	check "gp3 randwrite within 5 % of 3,000 IOPS" \
		"$gp3 | select(.phase == \"randwrite\") | .job.write.iops | . >= 2850 and . <= 3150"
	check "gp3 seqread within 5 % of 125 MiB/s" \
		"$gp3 | select(.phase == \"seqread\") | .job.read.bw_bytes / 1048576 | . >= 118.75 and . <= 131.25"
	check "gp3 seqwrite within 5 % of 125 MiB/s" \
		"$gp3 | select(.phase == \"seqwrite\") | .job.write.bw_bytes / 1048576 | . >= 118.75 and . <= 131.25"
	local full
	full=$(jq '.phases[] | select(.device == "gp3" and .phase == "randread") | .job.read.iops' \
		"$ROOT/docs/example/results.json")
	check "gp3 randread within 5 % of the full plan's ($full IOPS)" --argjson f "$full" \
		"$gp3 | select(.phase == \"randread\") | .job.read.iops | ((. - \$f) | fabs) <= 0.05 * \$f"
	# gp2 on its bucket: the engine gave its randread no stop, and the
	# analysis does not call it steady.
	local gp2='.phases[] | select(.device == "gp2" and .phase == "randread")'
	check "gp2 randread ran to its ceiling, no stop rule" \
		"$gp2 | .stop.when_steady == false and .stop.steady == false and (.job | has(\"steadystate\") | not)"
	local a2='.analysis.devices[] | select(.device == "gp2")'
	check "the analysis does not call gp2's randread steady" \
		"$a2 | .phases[] | select(.phase == \"randread\") | .steady.reached != true"
	check "no gp2 phase on its bucket steady" \
		"[$a2 | .phases[] | select(.phase != \"loadcurve\") | .steady.reached] | all(. != true)"
	check "gp2 cliff predicted, not measured, at the model's 20 s" \
		"$a2 | .cliff.status != \"found\" and .cliff.predicted.measured == false
		 and (.cliff.predicted.second - .prediction.burst_seconds * 0.01 | fabs) <= 0.5
		 and .cliff.predicted.measure_s == .cliff.predicted.second"
	grep -q "predicted, not measured" "$OUT/results/summary.md"
	# Every step the engine stopped as steady: its window was, by SNIA's
	# range (max - min within 20 % of the mean) and slope (the fitted
	# line's rise across it within 10 %), worked out from its samples.
	check "each steady stop's window is steady" \
		'[.phases[] | select(.stop.steady) | .job.steadystate.data.judged
		  | (add / length) as $m | ((length - 1) / 2) as $xb
		  | ([to_entries[] | (.key - $xb) * (.value - $m)] | add) as $sxy
		  | ([to_entries[] | (.key - $xb) * (.key - $xb)] | add) as $sxx
		  | (max - min) <= 0.2 * $m and (($sxy / $sxx) * (length - 1) | fabs) <= 0.1 * $m]
		 | all'
	check "no steady stop on gp2 above its baseline" \
		'[.phases[] | select(.device == "gp2" and .stop.steady) | .load.above_sustained == false] | all'
	check "some gp3 step stopped when steady" '[.phases[] | select(.device == "gp3" and .stop.steady)] | length > 0'

	# Wall time per phase (docs/run.md, The quick plan against the default).
	jq -r '.phases[] | "# \(.device) \(.phase)\(if .load then " \(.load.percent) %" else "" end): \((.ended_ms - .started_ms) / 1000) s\(if .stop.steady then " (steady)" else "" end)"' "$RESULTS" >&3
	jq -r '"# quick plan in the appliance: \((.phases | last | .ended_ms) - (.phases | first | .started_ms)) ms of phases"' "$RESULTS" >&3
	jq -r '"# QEMU (\(.accel)) ran \(.boot.qemu_wall_s) s"' "$OUT/facts.json" >&3
}
