#!/usr/bin/env bats
# together_run.bats - the together phase on three loop devices: each
# device's step runs at the same time (a thread each), is recorded as a
# phase of its own with its group, and the plan counts the group's time
# once; a writing together phase refuses, before any I/O on any of them,
# when one device holds data (the read first applies to every device).
# The instance's ceiling under QEMU: together.bats.

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

setup_file() {
	require_ebsbench
	A=$(make_loop 32)
	B=$(make_loop 32)
	C=$(make_filled_loop 32 /dev/urandom)
	export A B C
}

teardown_file() {
	cleanup_loops
}

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# config DEV... PHASES: three gp3 of 100 GiB, time_scale 0.01.
config() {
	cat <<-JSON
	{"devices": [{"path": "$1", "label": "a", "type": "gp3", "size_gib": 100},
	             {"path": "$2", "label": "b", "type": "gp3", "size_gib": 100},
	             {"path": "$3", "label": "c", "type": "gp3", "size_gib": 100}],
	 "time_scale": 0.01, "test_size": "16M", "output_dir": "out",
	 "environment": {"instance_type": "m5.xlarge"}, "phases": $4}
	JSON
}

@test "together: the devices' steps run at once, each recorded with its group; the plan counts it once" {
	config "$A" "$B" "$C" '[{"phase": "together", "runtime": 200}]' >cfg.json
	run --separate-stderr "$EBSBENCH" run --config cfg.json --dry-run
	assert_success
	assert_equal "$(jq -c '[.steps[] | .planned_s]' <<<"$output")" "[2,0,0]"
	run --separate-stderr "$EBSBENCH" run --config cfg.json
	assert_success
	local r=out/results.json
	assert_equal "$(jq -c '[.phases[] | [.device, .together.group, .together.devices]]' "$r")" \
		'[["a",0,3],["b",0,3],["c",0,3]]'
	# At once: all began within a second, each running 2 s.
	jq -e '[.phases[].started_ms] | (max - min) < 1000' "$r" >/dev/null ||
		fail "not at once: $(jq -c '[.phases[] | .started_ms]' "$r")"
	assert_file_exist out/a_tg_iops.1.log
	assert_file_exist out/c_tg_iops.1.log
	# Loop devices are no EBS volumes: the sum is given, not judged.
	jq -e '.analysis.together[0] | .bound == "not EBS" and (.series | length) > 0' "$r" >/dev/null ||
		fail "$(jq -c '.analysis.together[0] | del(.series)' "$r")"
}

@test "together with writes: a device holding data is refused before any I/O on any device" {
	config "$A" "$B" "$C" '[{"phase": "together", "rw": "randwrite", "runtime": 100}]' >cfg.json
	local before
	before="$(writes_of "$A") $(writes_of "$B")"
	run --separate-stderr "$EBSBENCH" run --config cfg.json
	assert_failure 3
	[[ $stderr == *"refusing to write: $C"* ]] || fail "$stderr"
	assert_equal "$(writes_of "$A") $(writes_of "$B")" "$before"
}
