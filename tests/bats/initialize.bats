#!/usr/bin/env bats
# initialize.bats - the initialization probe and the opt-in initialize phase
# on a loop device: the run records the probe at its start and does not
# judge it (a loop device is not EBS: its first reads come from its file,
# slower on a cold page cache, never from a snapshot), `initialize`
# reads the whole device once (not test_size) and the analysis says the
# rate it met; a record whose probe said loading gets the TL;DR's note on
# `ebsbench report`.  A device really loading: tests/bats/snapshot.bats.

bats_require_minimum_version 1.5.0

load helpers
load_bats_libs

setup_file() {
	require_ebsbench
	DEV=$(make_loop 96)
	export DEV
}

teardown_file() {
	cleanup_loops
}

setup() {
	cd "$BATS_TEST_TMPDIR"
}

@test "a run records the probe at its start; initialize reads the whole device once, with the rate it met" {
	short_config "$DEV" '[{"phase": "initialize"}, {"phase": "randread", "runtime": 100}]' >cfg.json
	run --separate-stderr "$EBSBENCH" run --config cfg.json --dry-run
	assert_success
	assert_equal "$(jq -r '.steps[0] | "\(.phase) \(.options.rw) \(.options.bs) \(.options.iodepth) \(.options.size)"' <<<"$output")" \
		"initialize read 1M 16 $((96 << 20))"
	run --separate-stderr "$EBSBENCH" run --config cfg.json
	assert_success
	local r=out/results.json
	jq -e '.devices[0].initialization | .state == "not judged" and .blocks == 64
		and .first_read_ms > 0 and .second_read_ms > 0' "$r" >/dev/null ||
		fail "no probe record: $(jq -c '.devices[0].initialization' "$r")"
	# The whole 96 MiB, though test_size is 16M.
	assert_equal "$(jq -r '.phases[0] | "\(.phase) \(.job.read.io_bytes)"' "$r")" "initialize $((96 << 20))"
	assert_file_exist out/vol_init_iops.1.log
	jq -e '.analysis.devices[0].initialize | .bytes == 100663296 and .mibs > 0' "$r" >/dev/null ||
		fail "no initialize rate: $(jq -c '.analysis.devices[0].initialize' "$r")"
	jq -e '[.analysis.details[] | select(test("^vol: the initialize phase read 0.1 GiB once, sequentially, in [0-9.]+ s: [0-9]+ MiB/s[.]$"))] | length == 1' \
		"$r" >/dev/null || fail "the rate's sentence: $(jq -c '.analysis.details' "$r")"
	jq -e '[.analysis.details[] | select(test("^vol: initialization not judged [(]not recognised as EBS: no snapshot[)]: its probe"))] | length == 1' \
		"$r" >/dev/null || fail "the probe's sentence: $(jq -c '.analysis.details' "$r")"
	# Not judged: nothing under the TL;DR, nothing on stderr.
	run grep -c "still loading" out/summary.md
	assert_output 0
	[[ $stderr != *"still loading"* ]] || fail "$stderr"
	# The same record as a loading volume's: the TL;DR says so, its phases
	# judged as reading blocks not yet loaded (the randread here is far
	# above the model: no phase fell short, so it says that).
	mkdir loading
	jq '.devices[0].kind = "ebs" | .devices[0].initialization.state = "loading" | .devices[0].initialization.first_read_ms = 21.3' \
		"$r" >loading/results.json
	run --separate-stderr "$EBSBENCH" report loading
	assert_success
	grep -q '^> \*\*vol was loading from its snapshot:\*\* vol was still loading from its snapshot at the run.s start (its probe at the run.s start read 64 blocks in 21.3 ms at the median' \
		loading/summary.md || fail "no TL;DR note: $(grep -n loading loading/summary.md)"
}

@test "discover --no-probe is accepted; loop devices are not probed (not EBS)" {
	run --separate-stderr "$EBSBENCH" discover --all --json --no-probe
	assert_success
	jq -e --arg d "$DEV" '.[] | select(.path == $d) | has("initialization") | not' <<<"$output" >/dev/null
	run --separate-stderr "$EBSBENCH" discover --all --json
	assert_success
	jq -e --arg d "$DEV" '.[] | select(.path == $d) | .initialization == null' <<<"$output" >/dev/null
	run --separate-stderr "$EBSBENCH" discover --help
	[[ $output == *"--no-probe"* ]]
}
