#!/usr/bin/env bats
# resume.bats - `ebsbench run --resume` on a loop device: a run killed
# (SIGKILL) in its third phase and resumed ends with every phase once, the
# gap stated (results.json, stderr, summary.md) and counted in the next
# phase's idle time; another config, another device or a finished run is
# refused with one line before any I/O; the write guard still holds on
# resume (foreign data written in the gap refuses it, nothing written); and
# the analysis refills gp2's credit ledger over a gap (the demo's record).

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

setup_file() {
	require_ebsbench
}

teardown_file() {
	cleanup_loops
}

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# Four phases on DEV, each 3 s at time scale 0.01 (the layout as long as
# 16 MiB takes): layout, randread, randwrite, lat.
config_for() {
	short_config "$1" '[{"phase": "layout"}, {"phase": "randread", "runtime": 300},
		{"phase": "randwrite", "runtime": 300}, {"phase": "lat", "runtime": 300}]' >cfg.json
}

# kill_in_step K: `ebsbench run --config cfg.json` in the background,
# killed with SIGKILL 0.15 s after results.json says step K (0-based) is
# running (some 15 of its 10-ms windows at time scale 0.01: less than one
# stdio buffer of its IOPS log, which only a flush per window puts on disk).
kill_in_step() {
	local pid i
	"$EBSBENCH" run --config cfg.json >/dev/null 2>first.err &
	pid=$!
	for ((i = 0; i < 300; i++)); do
		if [ "$(jq -r '.running.step // empty' out/results.json 2>/dev/null)" = "$1" ]; then
			sleep 0.15 # into the step's I/O
			kill -9 "$pid"
			wait "$pid" || true
			return 0
		fi
		sleep 0.1
	done
	kill -9 "$pid"
	echo "# step $1 never ran: $(cat first.err)" >&2
	return 1
}

@test "killed in its third phase and resumed: every phase once, the gap stated and counted" {
	DEV=$(make_loop 64)
	config_for "$DEV"
	kill_in_step 2
	# What SIGKILL left: two phases done, the third running.
	assert_equal "$(jq -c '[.phases[].step]' out/results.json)" '[0,1]'
	assert_equal "$(jq -c '.running.step' out/results.json)" 2
	before=$(jq -c '.phases[0:2]' out/results.json)
	probe=$(jq -c '[.devices[].initialization]' out/results.json)
	[[ $probe == *first_read_ms* ]] || fail "no probe record before the kill: $probe"
	started=$(jq '.running.started_ms' out/results.json)
	# The cut step's IOPS log holds its windows up to the kill (each on disk as it closed).
	[ "$(wc -l <out/vol_rw_iops.1.log)" -ge 5 ] || fail "the cut step's log has $(wc -l <out/vol_rw_iops.1.log) rows"
	sleep 2 # the gap
	run --separate-stderr "$EBSBENCH" run --config cfg.json --resume
	assert_success
	[[ $stderr == *"ebsbench run: resuming: 2 of 4 steps done; step 3 (randwrite on vol) was cut and runs again whole; a gap of "* ]] ||
		fail "no resume line: $stderr"
	# Every phase once, in plan order; the two done before kept as they were.
	assert_equal "$(jq -c '[.phases[] | [.step, .phase]]' out/results.json)" \
		'[[0,"layout"],[1,"randread"],[2,"randwrite"],[3,"lat"]]'
	assert_equal "$(jq -c '.phases[0:2]' out/results.json)" "$before"
	# The stopped run's probe kept, not taken again over blocks it loaded.
	assert_equal "$(jq -c '[.devices[].initialization]' out/results.json)" "$probe"
	assert_equal "$(jq -c '[.running, .environment.stopped_early]' out/results.json)" '[null,false]'
	# The gap: at least the 2 s slept, and randwrite's idle time counts it.
	gap=$(jnum out/results.json '.resumes[0].gap_s')
	awk -v g="$gap" 'BEGIN { exit !(g >= 2 && g < 60) }' || fail "gap_s $gap"
	assert_equal "$(jq -c '.resumes[0] | [.steps_done, .steps, .cut.step, .cut.phase]' out/results.json)" \
		'[2,4,2,"randwrite"]'
	# The stop is dated by the cut step's log, killed 0.15 s in, not by its start.
	stopped=$(jnum out/results.json '.resumes[0].stopped_ms')
	[ $((stopped - started)) -ge 100 ] || fail "stopped $((stopped - started)) ms after the step began"
	idle=$(jnum out/results.json '.phases[2].idle_before_s')
	awk -v i="$idle" -v g="$gap" 'BEGIN { exit !(i >= g) }' || fail "idle_before_s $idle < gap $gap"
	# The rerun's log alone: a row per window of its record, nothing of the cut run.
	assert_equal "$(wc -l <out/vol_rw_iops.1.log)" "$(jq '.phases[2].iops_series | length' out/results.json)"
	# One report, the gap in one sentence.
	run grep -c '^> \*\*Resumed\.\*\* The run stopped with 2 of 4 steps done (randwrite on vol was cut and ran again whole) and resumed [0-9.]* s later' out/summary.md
	assert_output 1
	grep -q 'Resumed.</strong>' out/report.html
	# Resumed again, it has nothing to do.
	run --separate-stderr "$EBSBENCH" run --config cfg.json --resume
	assert_failure 2
	assert_equal "$stderr" "ebsbench run --resume: out/results.json: the run finished: nothing to resume"
}

@test "another plan, another device, no record: refused with one line, exit 2, before any I/O" {
	DEV=$(make_loop 64)
	OTHER=$(make_loop 32)
	config_for "$DEV"
	run --separate-stderr "$EBSBENCH" run --config cfg.json --resume
	assert_failure 2
	assert_equal "$stderr" "ebsbench run --resume: no stopped run to continue: out/results.json: unable to open out/results.json: No such file or directory"
	kill_in_step 1
	saved=$(sha256sum out/results.json)
	jq '.time_scale = 0.02' cfg.json >scaled.json
	run --separate-stderr "$EBSBENCH" run --config scaled.json --resume
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "ebsbench run --resume: out/results.json: the plan differs from the stopped run's: 'time_scale' was 0.01, now 0.02"
	jq --arg d "$OTHER" '.devices[0].path = $d' cfg.json >other.json
	writes=$(writes_of "$OTHER")
	run --separate-stderr "$EBSBENCH" run --config other.json --resume
	assert_failure 2
	assert_equal "$stderr" "ebsbench run --resume: out/results.json: device 1 (vol) differs from the stopped run's: 'size_bytes' was 67108864, now 33554432"
	assert_equal "$(writes_of "$OTHER")" "$writes"
	assert_equal "$(sha256sum out/results.json)" "$saved"
}

@test "on resume the write guard still reads first: foreign data written in the gap refuses it" {
	DEV=$(make_loop 64)
	config_for "$DEV"
	kill_in_step 2
	# Somebody's 4 KiB at 1 MiB, inside the region the run writes.
	head -c 4096 /dev/urandom | dd of="$DEV" bs=4096 seek=256 oflag=direct conv=notrunc status=none
	sync
	sum=$(sha256sum "$DEV" | cut -d' ' -f1)
	run --separate-stderr "$EBSBENCH" run --config cfg.json --resume
	assert_failure 3
	[[ $stderr == *"$DEV"*"unrecognised data at byte 1048576"* ]] || fail "$stderr"
	assert_equal "$(sha256sum "$DEV" | cut -d' ' -f1)" "$sum"
}

@test "the analysis takes the gap: gp2's credit ledger refills over it for the later phases" {
	# The demo's gp2 (docs/example, time scale 0.01, 300 IOPS baseline),
	# resumed 3 s before its randwrite: that phase and the next start with
	# 3 s / 0.01 x 300 = 90,000 credits more than in the run without the gap.
	cp -r "$BATS_TEST_DIRNAME/../../docs/example" whole
	cp -r whole resumed
	jq '(.phases | map(.phase == "randwrite" and .device == "gp2") | index(true)) as $k
		| .phases[$k].idle_before_s += 3
		| .phases |= [to_entries[] | .value + (if .key >= $k then
			{started_ms: (.value.started_ms + 3000), ended_ms: (.value.ended_ms + 3000)} else {} end)]
		| .resumes = [{stopped_ms: (.phases[$k].started_ms - 3000), resumed_ms: .phases[$k].started_ms,
			gap_s: 3, steps_done: $k, steps: (.phases | length),
			cut: {step: $k, phase: "randwrite", device: "gp2", started_ms: 0}}]' \
		whole/results.json >resumed/results.json
	credits() { # DIR PHASE
		"$EBSBENCH" report --json "$1" 2>/dev/null |
			jq -er --arg p "$2" '.analysis.devices[] | select(.device == "gp2") | .phases[]
				| select(.phase == $p) | .credits_at_start | numbers'
	}
	for phase in randwrite lat; do
		a=$(credits whole "$phase")
		b=$(credits resumed "$phase")
		awk -v a="$a" -v b="$b" 'BEGIN { exit !(b - a > 89999 && b - a < 90001) }' ||
			fail "$phase: credits at start $a without the gap, $b with it"
	done
	"$EBSBENCH" report resumed 2>/dev/null
	run grep -c '^> \*\*Resumed\.\*\* The run stopped with 16 of 24 steps done (randwrite on gp2 was cut and ran again whole) and resumed 3.0 s later' resumed/summary.md
	assert_output 1
}
